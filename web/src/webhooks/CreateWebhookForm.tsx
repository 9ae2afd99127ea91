import { Alert, Button, Checkbox, Code, Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { CopyTextButton, ErrorNotice, fieldError, isFormError } from '../components/ui';

export const EVENTS = ['link.created', 'link.updated', 'link.deleted', 'link.click', 'link.expired', 'link.limit_reached', 'link.geo_blocked'];
const URL_CODES = ['MISSING_URL', 'INVALID_URL', 'INVALID_WEBHOOK_URL', 'WEBHOOK_URL_NOT_PUBLIC'];
const EVENT_CODES = ['MISSING_EVENTS', 'INVALID_EVENTS', 'INVALID_EVENT'];

/** Subscribes an endpoint to events; the signing secret is shown once, in a dialog, after it is created. */
export function CreateWebhookForm() {
  const queries = useQueryClient();
  const [url, setUrl] = useState('');
  const [name, setName] = useState('');
  const [events, setEvents] = useState<string[]>(['link.created', 'link.click']);
  const [secret, setSecret] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => api<{ secret: string }>('/api/webhooks', { method: 'POST', body: { url: url.trim(), events, ...(name.trim() ? { name: name.trim() } : {}) } }),
    onSuccess: (hook) => {
      void queries.invalidateQueries({ queryKey: ['webhooks'] });
      setSecret(hook.secret);
      setUrl('');
      setName('');
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
          {isFormError(error, [...URL_CODES, ...EVENT_CODES]) && <ErrorNotice error={error} title="The webhook was not created" />}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Endpoint URL" type="url" required placeholder="https://example.com/hooks/snip" value={url} onChange={(e) => setUrl(e.currentTarget.value)} error={fieldError(error, URL_CODES)} />
            <TextInput label="Name" placeholder="Optional" value={name} onChange={(e) => setName(e.currentTarget.value)} />
          </SimpleGrid>
          <Checkbox.Group label="Events" value={events} onChange={setEvents} error={fieldError(error, EVENT_CODES)}>
            <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing={6} mt={6}>
              {EVENTS.map((event) => (
                <Checkbox key={event} value={event} label={event} />
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
      <Modal opened={secret !== null} onClose={() => setSecret(null)} title="Webhook created: its signing secret">
        <Stack gap="sm">
          <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />}>
            Copy the secret now: it is not shown again.
          </Alert>
          <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }} data-testid="webhook-secret">
            {secret}
          </Code>
          <Text size="sm">Each delivery carries an HMAC-SHA256 signature of its body, made with this secret, in the X-Snip-Signature header.</Text>
          <Group justify="space-between">
            <CopyTextButton value={secret ?? ''} label="Copy secret" />
            <Button onClick={() => setSecret(null)}>Done</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
