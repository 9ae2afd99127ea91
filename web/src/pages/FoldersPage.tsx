import { ActionIcon, Badge, Button, ColorInput, ColorSwatch, Group, Modal, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { ConfirmModal } from '../components/ConfirmModal';
import { EmptyState, ErrorNotice, fieldError, isFormError, Loading, PageTitle, UpgradeHint } from '../components/ui';
import type { Folder } from '../links/api';

const NAME_CODES = ['MISSING_NAME', 'INVALID_NAME', 'FOLDER_EXISTS', 'DUPLICATE_FOLDER_NAME'];
const COLOR_CODES = ['INVALID_COLOR'];

function FolderForm({ folder, onDone }: { folder?: Folder; onDone: () => void }) {
  const queries = useQueryClient();
  const [name, setName] = useState(folder?.name ?? '');
  const [color, setColor] = useState(folder?.color ?? '');
  const save = useMutation({
    mutationFn: () => {
      const body = { name: name.trim(), ...(color ? { color } : {}) };
      return folder ? api(`/api/folders/${encodeURIComponent(folder.id)}`, { method: 'PATCH', body }) : api('/api/folders', { method: 'POST', body });
    },
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['folders'] });
      notifications.show({ color: 'teal', message: folder ? 'Folder saved' : 'Folder created' });
      setName('');
      setColor('');
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {isFormError(save.error, [...NAME_CODES, ...COLOR_CODES]) && <ErrorNotice error={save.error} title="Not saved" />}
        <Group align="flex-start" wrap="wrap" gap="sm">
          <TextInput label="Folder name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={fieldError(save.error, NAME_CODES)} style={{ flex: '1 1 12rem' }} />
          <ColorInput withEyeDropper={false} label="Colour" format="hex" value={color} onChange={setColor} error={fieldError(save.error, COLOR_CODES)} style={{ flex: '1 1 8rem' }} />
          <Button type="submit" loading={save.isPending} mt={{ base: 0, xs: 25 }}>
            {folder ? 'Save folder' : 'Create folder'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function FoldersPage() {
  const queries = useQueryClient();
  const folders = useQuery({ queryKey: ['folders'], queryFn: () => api<{ folders: Folder[]; limit: number | 'unlimited'; canCreate: boolean }>('/api/folders') });
  const [editing, setEditing] = useState<Folder | null>(null);
  const [deleting, setDeleting] = useState<Folder | null>(null);
  const remove = useMutation({
    mutationFn: (folder: Folder) => api(`/api/folders/${encodeURIComponent(folder.id)}`, { method: 'DELETE' }),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['folders'] });
      void queries.invalidateQueries({ queryKey: ['links'] });
      notifications.show({ color: 'teal', message: 'Folder deleted; its links are kept' });
      setDeleting(null);
    },
  });
  const data = folders.data;

  return (
    <>
      <PageTitle
        title="Folders"
        description={data ? `${data.folders.length} of ${data.limit === 'unlimited' ? 'unlimited' : data.limit} folders` : 'Group links by campaign, client or anything else.'}
      />
      <Paper withBorder p="md" radius="md" mb="lg">
        {data && !data.canCreate ? <UpgradeHint tier="pro" feature="More folders" /> : <FolderForm onDone={() => undefined} />}
      </Paper>
      {folders.isPending ? (
        <Loading label="Loading folders…" />
      ) : folders.isError ? (
        <ErrorNotice error={folders.error} title="Could not load your folders" />
      ) : data!.folders.length === 0 ? (
        <EmptyState title="No folders yet">Create one above, then pick it when you create or edit a link.</EmptyState>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" component="ul" p={0} m={0} aria-label="Your folders">
          {data!.folders.map((folder) => (
            <Paper key={folder.id} withBorder p="sm" radius="md" component="li" style={{ listStyle: 'none' }}>
              <Group justify="space-between" wrap="nowrap">
                <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                  <ColorSwatch color={folder.color ?? '#adb5bd'} size={14} aria-hidden />
                  <Text fw={600} truncate>
                    {folder.name}
                  </Text>
                  <Badge variant="light" color="gray" size="sm">
                    {folder.linkCount} {folder.linkCount === 1 ? 'link' : 'links'}
                  </Badge>
                </Group>
                <Group gap={2} wrap="nowrap">
                  <ActionIcon variant="subtle" aria-label={`Edit folder ${folder.name}`} onClick={() => setEditing(folder)}>
                    <IconPencil size={16} aria-hidden />
                  </ActionIcon>
                  <ActionIcon variant="subtle" color="red" aria-label={`Delete folder ${folder.name}`} onClick={() => setDeleting(folder)}>
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              </Group>
            </Paper>
          ))}
        </SimpleGrid>
      )}
      {editing && (
        <Modal opened onClose={() => setEditing(null)} title={`Edit ${editing.name}`}>
          <FolderForm folder={editing} onDone={() => setEditing(null)} />
        </Modal>
      )}
      {deleting && (
        <ConfirmModal
          title={`Delete ${deleting.name}?`}
          confirmLabel="Delete folder"
          busy={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate(deleting)}
          onClose={() => {
            remove.reset();
            setDeleting(null);
          }}
        >
          Its {deleting.linkCount} {deleting.linkCount === 1 ? 'link stays' : 'links stay'}, in no folder.
        </ConfirmModal>
      )}
    </>
  );
}
