import { Button, Group, Modal, Stack, Switch } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { snip, type Body } from '../api';
import { ErrorNotice, isFormError } from '../components/ui';
import { withAssumedScheme } from '../url-input';
import { webhookParams, WEBHOOKS_KEY, type Webhook } from './types';
import { FIELD_CODES, WebhookFields, type WebhookDraft } from './WebhookFields';

type Changes = Body<'/api/webhooks/{webhookId}', 'patch'>;

const sameEvents = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** The name an empty field stands for: the endpoint's host, as a new webhook without a name gets. */
function nameFor(typed: string, url: string): string {
  if (typed.trim()) return typed.trim();
  try {
    return new URL(url).hostname;
  } catch {
    return ''; // the server refuses the URL, and says why
  }
}

/** Changes a webhook's endpoint, name, events and whether it is on; only what changed is sent (PATCH). */
export function EditWebhookModal({ hook, onClose }: { hook: Webhook; onClose: () => void }) {
  const queries = useQueryClient();
  const [draft, setDraft] = useState<WebhookDraft>({ url: hook.url, name: hook.name, events: hook.events });
  const [enabled, setEnabled] = useState(hook.enabled);
  const save = useMutation({
    mutationFn: async () => {
      const url = withAssumedScheme(draft.url);
      const changes: Changes = {};
      if (url !== hook.url) changes.url = url;
      const name = nameFor(draft.name, url);
      if (name && name !== hook.name) changes.name = name;
      if (!sameEvents(draft.events, hook.events)) changes.events = draft.events;
      if (enabled !== hook.enabled) changes.enabled = enabled;
      if (Object.keys(changes).length === 0) return null;
      return snip.patch('/api/webhooks/{webhookId}', { params: webhookParams(hook.id), body: changes });
    },
    onSuccess: (saved) => {
      void queries.invalidateQueries({ queryKey: WEBHOOKS_KEY });
      notifications.show({ color: 'teal', message: saved ? `Webhook ${saved.name || saved.url} saved` : 'Nothing changed' });
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const error = save.error;
  return (
    <Modal opened onClose={onClose} title={`Edit webhook ${hook.name || hook.url}`} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {isFormError(error, FIELD_CODES) && <ErrorNotice error={error} title="Not saved" />}
          <WebhookFields draft={draft} onChange={setDraft} error={error} />
          <Switch label="Enabled" description="When off, nothing is sent to this endpoint" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
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
