import { Button, Checkbox, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { snip, type ApiErrorCode } from '../api';
import { ErrorNotice, fieldError, isFormError } from '../components/ui';
import { SecretOnce } from './SecretOnce';
import { EVENTS, WEBHOOKS_KEY, type CreatedWebhook } from './types';

const URL_CODES: ApiErrorCode[] = ['MISSING_URL', 'INVALID_URL', 'DUPLICATE_WEBHOOK'];
const NAME_CODES: ApiErrorCode[] = ['INVALID_NAME'];
const EVENT_CODES: ApiErrorCode[] = ['MISSING_EVENTS', 'INVALID_EVENTS'];
const FIELD_CODES = [...URL_CODES, ...NAME_CODES, ...EVENT_CODES];

/** Subscribes an endpoint to events; the signing secret is shown once, in a dialog, after it is created. */
export function CreateWebhookForm() {
  const queries = useQueryClient();
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const create = useMutation({
    mutationFn: () => snip.post('/api/webhooks', { body: { url: url.trim(), events, ...(name.trim() ? { name: name.trim() } : {}) } }),
    onSuccess: (hook) => {
      void queries.invalidateQueries({ queryKey: WEBHOOKS_KEY });
      notifications.show({ color: 'teal', message: `Webhook ${hook.name || hook.url} created` });
      setCreated(hook);
      setUrl('');
      setName('');
      setEvents([]);
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
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label="Endpoint URL"
              description="Snip POSTs each event here as JSON"
              type="url"
              inputMode="url"
              autoComplete="off"
              placeholder="https://example.com/hooks/snip"
              value={url}
              onChange={(e) => setUrl(e.currentTarget.value)}
              error={fieldError(error, URL_CODES)}
            />
            <TextInput
              label="Name"
              description="Optional; the endpoint's host name when empty"
              placeholder="Order system"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={fieldError(error, NAME_CODES)}
            />
          </SimpleGrid>
          <Checkbox.Group label="Events" description="Choose at least one" value={events} onChange={setEvents} error={fieldError(error, EVENT_CODES)}>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="xs" mt="xs">
              {EVENTS.map((event) => (
                <Checkbox key={event.name} value={event.name} label={event.name} description={event.what} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
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
