import { Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, snip } from '../api';
import { ConfirmModal } from '../components/ConfirmModal';
import { EmptyState, ErrorNotice, Loading, PageTitle, PlanGate, PlanHint } from '../components/ui';
import { CreateWebhookForm } from '../webhooks/CreateWebhookForm';
import { Deliveries } from '../webhooks/Deliveries';
import { EditWebhookModal } from '../webhooks/EditWebhookModal';
import { webhookParams, WEBHOOKS_KEY, type Webhook } from '../webhooks/types';
import { WebhookCard } from '../webhooks/WebhookCard';
import { WebhooksCount } from '../webhooks/WebhooksCount';

function Webhooks() {
  const queries = useQueryClient();
  const list = useQuery({ queryKey: WEBHOOKS_KEY, queryFn: () => snip.get('/api/webhooks') });
  const [log, setLog] = useState<Webhook | null>(null);
  const [editing, setEditing] = useState<Webhook | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const remove = useMutation({
    mutationFn: (hook: Webhook) => snip.delete('/api/webhooks/{webhookId}', { params: webhookParams(hook.id) }),
    onSuccess: (_answer, hook) => {
      void queries.invalidateQueries({ queryKey: WEBHOOKS_KEY });
      notifications.show({ color: 'teal', message: `Webhook ${hook.name || hook.url} deleted` });
      setDeleting(null);
    },
  });
  const closeDelete = () => {
    setDeleting(null);
    remove.reset();
  };

  // The API's own refusal is the final word on the plan (the profile may be older than a tier change).
  if (list.error instanceof ApiError && list.error.code === 'TIER_REQUIRED') return <PlanHint feature="Webhooks" />;

  const hooks = list.data?.webhooks ?? [];
  const limit = list.data?.limit;
  const full = typeof limit === 'number' && hooks.length >= limit;

  return (
    <Stack gap="lg">
      <Paper withBorder p="md" radius="md">
        <Stack gap="xs">
          <Title order={2} size="h4">
            New webhook
          </Title>
          {list.data && <WebhooksCount used={hooks.length} limit={list.data.limit} />}
          {full ? <Text size="sm">{limit === 1 ? "Your plan's one webhook is in use" : `Your plan's ${limit} webhooks are all in use`}: delete one to add another.</Text> : <CreateWebhookForm />}
        </Stack>
      </Paper>

      <Stack gap="sm">
        <Title order={2} size="h4">
          Your webhooks
        </Title>
        {list.isPending ? (
          <Loading label="Loading webhooks…" />
        ) : list.isError ? (
          <ErrorNotice error={list.error} title="Could not load your webhooks" />
        ) : hooks.length === 0 ? (
          <EmptyState title="No webhooks yet">Add an endpoint above to hear about your links as things happen.</EmptyState>
        ) : (
          <Stack gap="sm" component="ul" p={0} m={0} aria-label="Your webhooks">
            {hooks.map((hook) => (
              <WebhookCard key={hook.id} hook={hook} onEdit={() => setEditing(hook)} onShowDeliveries={() => setLog(hook)} onDelete={() => setDeleting(hook)} />
            ))}
          </Stack>
        )}
      </Stack>

      {editing && <EditWebhookModal hook={editing} onClose={() => setEditing(null)} />}
      {log && <Deliveries webhookId={log.id} name={log.name || log.url} onClose={() => setLog(null)} />}
      {deleting && (
        <ConfirmModal title={`Delete webhook ${deleting.name || deleting.url}?`} confirmLabel="Delete" busy={remove.isPending} error={remove.error} onConfirm={() => remove.mutate(deleting)} onClose={closeDelete}>
          {deleting.url} receives no more events, and deliveries still waiting for a retry are dropped.
        </ConfirmModal>
      )}
    </Stack>
  );
}

export function WebhooksPage() {
  return (
    <>
      <PageTitle title="Webhooks" description="Snip POSTs a signed JSON message to your server when your links are created, clicked, changed or expire." />
      <PlanGate allows={(limits) => limits.apiAccess && limits.webhooks !== 0} feature="Webhooks">
        <Webhooks />
      </PlanGate>
    </>
  );
}
