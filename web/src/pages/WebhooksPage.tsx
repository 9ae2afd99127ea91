import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, messageOf } from '../api';
import { ConfirmModal } from '../components/ConfirmModal';
import { EmptyState, ErrorNotice, formatDateTime, Loading, PageTitle, UpgradeHint } from '../components/ui';
import { useProfile } from '../profile';
import { CreateWebhookForm } from '../webhooks/CreateWebhookForm';
import { Deliveries } from '../webhooks/Deliveries';

interface Webhook {
  id: string;
  url: string;
  name: string | null;
  events: string[];
  enabled: boolean;
  createdAt: string;
  lastDeliveryAt: string | null;
  lastStatus: number | null;
}

export function WebhooksPage() {
  const queries = useQueryClient();
  const profile = useProfile();
  const hooks = useQuery({ queryKey: ['webhooks'], queryFn: () => api<{ webhooks: Webhook[]; limit: number | null }>('/api/webhooks') });
  const [log, setLog] = useState<Webhook | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const test = useMutation({
    mutationFn: (hook: Webhook) => api<{ success: boolean; statusCode: number | null; durationMs: number; error?: string | null }>(`/api/webhooks/${encodeURIComponent(hook.id)}/test`, { method: 'POST' }),
    onSuccess: (result) =>
      notifications.show({
        color: result.success ? 'teal' : 'red',
        title: result.success ? 'Test delivered' : 'Test failed',
        message: `${result.statusCode !== null ? `HTTP ${result.statusCode}` : (result.error ?? 'no answer')} in ${result.durationMs} ms`,
      }),
    onError: (error) => notifications.show({ color: 'red', title: 'Test not sent', message: messageOf(error) }),
  });
  const remove = useMutation({
    mutationFn: (hook: Webhook) => api(`/api/webhooks/${encodeURIComponent(hook.id)}`, { method: 'DELETE' }),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['webhooks'] });
      setDeleting(null);
    },
  });
  const allowed = profile.data?.limits.webhooks;
  const list = hooks.data?.webhooks ?? [];
  const full = allowed !== null && allowed !== undefined && list.length >= allowed;

  return (
    <>
      <PageTitle
        title="Webhooks"
        description={allowed === 0 ? 'Snip can call your server when links are created, clicked, changed or expire.' : `${list.length} of ${allowed === null ? 'unlimited' : (allowed ?? '…')} webhooks`}
      />
      {allowed === 0 ? (
        <UpgradeHint tier="pro" feature="Webhooks" />
      ) : (
        <Stack gap="lg">
          <Paper withBorder p="md" radius="md">
            <Title order={2} size="h4" mb="sm">
              New webhook
            </Title>
            {full ? <Text size="sm">Your plan's {allowed} webhooks are in use: delete one to add another.</Text> : <CreateWebhookForm />}
          </Paper>
          {hooks.isPending ? (
            <Loading label="Loading webhooks…" />
          ) : hooks.isError ? (
            <ErrorNotice error={hooks.error} title="Could not load your webhooks" />
          ) : list.length === 0 ? (
            <EmptyState title="No webhooks yet">Add an endpoint above to hear about your links as things happen.</EmptyState>
          ) : (
            <Stack gap="sm" component="ul" p={0} m={0} aria-label="Your webhooks">
              {list.map((hook) => (
                <Paper key={hook.id} withBorder p="sm" radius="md" component="li" style={{ listStyle: 'none' }}>
                  <Stack gap={6}>
                    <Group justify="space-between" wrap="wrap" gap="xs">
                      <div style={{ minWidth: 0 }}>
                        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                          {hook.name || hook.url}
                        </Text>
                        {hook.name && (
                          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                            {hook.url}
                          </Text>
                        )}
                      </div>
                      <Group gap="xs">
                        <Button size="xs" variant="light" loading={test.isPending && test.variables?.id === hook.id} onClick={() => test.mutate(hook)}>
                          Send test
                        </Button>
                        <Button size="xs" variant="default" onClick={() => setLog(hook)}>
                          Deliveries
                        </Button>
                        <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(hook)}>
                          Delete
                        </Button>
                      </Group>
                    </Group>
                    <Group gap={4}>
                      {hook.events.map((e) => (
                        <Badge key={e} size="xs" variant="outline" style={{ textTransform: 'none' }}>
                          {e}
                        </Badge>
                      ))}
                    </Group>
                    <Text size="xs" c="dimmed">
                      {hook.lastDeliveryAt ? `Last delivery ${formatDateTime(hook.lastDeliveryAt)}: ${hook.lastStatus ?? 'no answer'}` : 'Nothing delivered yet'}
                    </Text>
                  </Stack>
                </Paper>
              ))}
            </Stack>
          )}
        </Stack>
      )}
      {log && <Deliveries webhookId={log.id} name={log.name || log.url} onClose={() => setLog(null)} />}
      {deleting && (
        <ConfirmModal title="Delete this webhook?" confirmLabel="Delete webhook" busy={remove.isPending} error={remove.error} onConfirm={() => remove.mutate(deleting)} onClose={() => setDeleting(null)}>
          {deleting.url} will receive no more events.
        </ConfirmModal>
      )}
    </>
  );
}
