import { withAssumedScheme } from '../url-input';
import { Button, Group, Modal, NumberInput, Select, Stack, TagsInput, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { shortPathParams, snip, type ApiErrorCode, type Body } from '../api';
import { ErrorNotice, fieldError, isFormError } from '../components/ui';
import { isoFromLocal, localFromIso, shortPathOf, type Folder, type Link } from './api';

const FIELD_CODES: ApiErrorCode[] = ['INVALID_URL', 'MISSING_URL', 'INVALID_EXPIRES_AT', 'EXPIRES_AT_IN_PAST', 'EXPIRES_BEFORE_ACTIVE', 'INVALID_MAX_CLICKS'];

/** Changes what the API lets a link change: destination, expiry, click cap, activation time, folder and tags. */
export function EditLinkModal({ link, folders, onClose }: { link: Link; folders: Folder[]; onClose: () => void }) {
  const queries = useQueryClient();
  const [url, setUrl] = useState(link.long);
  const [expiresAt, setExpiresAt] = useState(localFromIso(link.expiresAt));
  const [activeFrom, setActiveFrom] = useState(localFromIso(link.activeFrom));
  const [maxClicks, setMaxClicks] = useState<number | string>(link.maxClicks ?? '');
  const [folderId, setFolderId] = useState<string | null>(link.folderId);
  const [tags, setTags] = useState<string[]>(link.tags);

  const save = useMutation({
    mutationFn: async () => {
      const shortPath = shortPathOf(link);
      const params = shortPathParams(shortPath);
      const changes: Body<'/api/links/{shortPath}', 'patch'> = {};
      if (withAssumedScheme(url) !== link.long) changes.url = withAssumedScheme(url);
      if (expiresAt !== localFromIso(link.expiresAt)) changes.expiresAt = isoFromLocal(expiresAt) ?? null;
      if (activeFrom !== localFromIso(link.activeFrom)) changes.activeFrom = isoFromLocal(activeFrom) ?? null;
      const cap = typeof maxClicks === 'number' ? maxClicks : null;
      if (cap !== link.maxClicks) changes.maxClicks = cap;
      if (Object.keys(changes).length > 0) await snip.patch('/api/links/{shortPath}', { params, body: changes });
      if (folderId !== link.folderId) await snip.post('/api/link/{short}/folder', { params: { path: { short: shortPath } }, body: { folderId } });
      for (const tag of tags.filter((t) => !link.tags.includes(t))) await snip.post('/api/links/{shortPath}/tags', { params, body: { tag } });
      for (const tag of link.tags.filter((t) => !tags.includes(t))) await snip.delete('/api/links/{shortPath}/tags/{tag}', { params: { path: { shortPath, tag } } });
    },
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['links'] });
      void queries.invalidateQueries({ queryKey: ['link'] });
      void queries.invalidateQueries({ queryKey: ['tags'] });
      notifications.show({ color: 'teal', message: 'Link saved' });
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const error = save.error;

  return (
    <Modal opened onClose={onClose} title={`Edit ${link.url}`} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {isFormError(error, FIELD_CODES) && <ErrorNotice error={error} title="Not saved" />}
          <TextInput label="Destination URL" type="url" required value={url} onChange={(e) => setUrl(e.currentTarget.value)} error={fieldError(error, ['INVALID_URL', 'MISSING_URL'])} data-autofocus />
          <TextInput label="Expires at" type="datetime-local" value={expiresAt} onChange={(e) => setExpiresAt(e.currentTarget.value)} error={fieldError(error, ['INVALID_EXPIRES_AT', 'EXPIRES_AT_IN_PAST', 'EXPIRES_BEFORE_ACTIVE'])} />
          <TextInput label="Active from" type="datetime-local" value={activeFrom} onChange={(e) => setActiveFrom(e.currentTarget.value)} />
          <NumberInput label="Max clicks" description="Empty: no limit" min={1} allowDecimal={false} value={maxClicks} onChange={setMaxClicks} error={fieldError(error, ['INVALID_MAX_CLICKS'])} />
          <Select label="Folder" placeholder="No folder" clearable data={folders.map((f) => ({ value: f.id, label: f.name }))} value={folderId} onChange={setFolderId} />
          <TagsInput label="Tags" description="Type a tag and press Enter" value={tags} onChange={setTags} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
