import { Button, Group, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { snip } from '../api';
import { ErrorNotice, isFormError } from '../components/ui';
import { withAssumedScheme } from '../url-input';
import { SecretOnce } from './SecretOnce';
import { WEBHOOKS_KEY, type CreatedWebhook } from './types';
import { FIELD_CODES, WebhookFields, type WebhookDraft } from './WebhookFields';

const EMPTY: WebhookDraft = { url: '', name: '', events: [] };

/** Subscribes an endpoint to events; the signing secret is shown once, in a dialog, after it is created. */
export function CreateWebhookForm() {
  const queries = useQueryClient();
  const [draft, setDraft] = useState<WebhookDraft>(EMPTY);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const create = useMutation({
    mutationFn: () => {
      const name = draft.name.trim();
      return snip.post('/api/webhooks', { body: { url: withAssumedScheme(draft.url), events: draft.events, ...(name ? { name } : {}) } });
    },
    onSuccess: (hook) => {
      void queries.invalidateQueries({ queryKey: WEBHOOKS_KEY });
      notifications.show({ color: 'teal', message: `Webhook ${hook.name || hook.url} created` });
      setCreated(hook);
      setDraft(EMPTY);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const error = create.error;
  return (
    <>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {isFormError(error, FIELD_CODES) && <ErrorNotice error={error} title="The webhook was not created" />}
          <WebhookFields draft={draft} onChange={setDraft} error={error} />
          <Group justify="flex-end">
            <Button type="submit" loading={create.isPending}>
              Create webhook
            </Button>
          </Group>
        </Stack>
      </form>
      {created && <SecretOnce secret={created.secret} url={created.url} onClose={() => setCreated(null)} />}
    </>
  );
}
