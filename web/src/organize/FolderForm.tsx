import { Button, ColorInput, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ApiErrorCode } from '../api';
import { ErrorNotice, fieldError, isFormError } from '../components/ui';
import { createFolder, FOLDERS_KEY, updateFolder, type Folder } from './folders';

const NAME_CODES: ApiErrorCode[] = ['MISSING_NAME', 'INVALID_NAME', 'FOLDER_EXISTS'];
const COLOR_CODES: ApiErrorCode[] = ['INVALID_COLOR'];

/** Creates a folder, or (given `folder`) renames and recolours it. An empty colour means none. */
export function FolderForm({ folder, onDone }: { folder?: Folder; onDone?: () => void }) {
  const queries = useQueryClient();
  const [name, setName] = useState(folder?.name ?? '');
  const [color, setColor] = useState(folder?.color ?? '');
  const save = useMutation({
    mutationFn: async () => {
      const trimmed = color.trim();
      if (!folder) return createFolder({ name: name.trim(), ...(trimmed ? { color: trimmed } : {}) });
      // Only what changed is sent: PATCH leaves other fields alone, and an unchanged name is no rename.
      const changes: { name?: string; color?: string | null } = {};
      if (name.trim() !== folder.name) changes.name = name.trim();
      if (trimmed.toLowerCase() !== (folder.color ?? '').toLowerCase()) changes.color = trimmed || null;
      return Object.keys(changes).length ? updateFolder(folder.id, changes) : folder;
    },
    onSuccess: (saved) => {
      void queries.invalidateQueries({ queryKey: FOLDERS_KEY });
      notifications.show({ color: 'teal', message: folder ? `Folder ${saved.name} saved` : `Folder ${saved.name} created` });
      if (!folder) {
        setName('');
        setColor('');
      }
      onDone?.();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={folder ? `Edit folder ${folder.name}` : 'New folder'}>
      <Stack gap="sm">
        {isFormError(save.error, [...NAME_CODES, ...COLOR_CODES]) && <ErrorNotice error={save.error} title="The folder was not saved" />}
        <SimpleGrid cols={{ base: 1, xs: folder ? 1 : 2 }} spacing="sm">
          <TextInput
            label="Folder name"
            description="Up to 40 characters"
            required
            maxLength={40}
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              if (save.error) save.reset();
            }}
            error={fieldError(save.error, NAME_CODES)}
            data-autofocus
          />
          <ColorInput
            label="Colour"
            description="Optional, for telling folders apart"
            placeholder="No colour"
            format="hex"
            withEyeDropper={false}
            value={color}
            onChange={setColor}
            error={fieldError(save.error, COLOR_CODES)}
          />
        </SimpleGrid>
        <Group justify={folder ? 'flex-end' : 'flex-start'}>
          {folder && onDone && (
            <Button variant="default" onClick={onDone}>
              Cancel
            </Button>
          )}
          <Button type="submit" loading={save.isPending}>
            {folder ? 'Save folder' : 'Create folder'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
