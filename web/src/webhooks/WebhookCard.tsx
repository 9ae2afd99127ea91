import { Alert, Badge, Button, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { snip } from '../api';
import { ErrorNotice, formatDateTime } from '../components/ui';
import { webhookParams, WEBHOOKS_KEY, type TestResult, type Webhook } from './types';

function TestOutcome({ result }: { result: TestResult }) {
  const answered = result.statusCode > 0;
  const duration = result.durationMs === null ? '' : ` in ${result.durationMs} ms`;
  return (
    <Alert color={result.success ? 'teal' : 'red'} title={result.success ? 'Test delivered' : 'Test failed'} role="status" py="xs">
      <Text size="sm">
        {answered ? `Your endpoint answered HTTP ${result.statusCode}${duration}.` : `No answer came${duration}.`}
        {/* With a status the error only repeats it ("HTTP 500"); without one it says why nothing came. */}
        {!answered && result.error ? ` ${result.error}` : ''}
      </Text>
    </Alert>
  );
}

/** One webhook: where it posts, what it listens to, how it last went, and its actions. */
export function WebhookCard({ hook, onEdit, onShowDeliveries, onDelete }: { hook: Webhook; onEdit: () => void; onShowDeliveries: () => void; onDelete: () => void }) {
  const queries = useQueryClient();
  const label = hook.name || hook.url;
  const test = useMutation({ mutationFn: () => snip.post('/api/webhooks/{webhookId}/test', { params: webhookParams(hook.id) }) });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => snip.patch('/api/webhooks/{webhookId}', { params: webhookParams(hook.id), body: { enabled } }),
    onSuccess: (updated) => {
      void queries.invalidateQueries({ queryKey: WEBHOOKS_KEY });
      notifications.show({ color: 'teal', message: `${label} ${updated.enabled ? 'enabled' : 'paused: nothing is sent'}` });
    },
  });
  return (
    <Paper withBorder p="md" radius="md" component="li" style={{ listStyle: 'none' }}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
          <Stack gap={2} miw={0} style={{ flex: '1 1 16rem' }}>
            <Group gap="xs" wrap="wrap">
              <Title order={3} size="h5" style={{ overflowWrap: 'anywhere' }}>
                {label}
              </Title>
              {!hook.enabled && (
                <Badge color="gray" variant="light">
                  Paused
                </Badge>
              )}
            </Group>
            {hook.name && (
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {hook.url}
              </Text>
            )}
          </Stack>
          <Switch label="Enabled" checked={hook.enabled} disabled={toggle.isPending} onChange={(e) => toggle.mutate(e.currentTarget.checked)} aria-label={`Enabled: ${label}`} />
        </Group>
        <Group gap={4} wrap="wrap">
          {hook.events.map((e) => (
            <Badge key={e} size="sm" variant="outline" tt="none">
              {e}
            </Badge>
          ))}
        </Group>
        <Text size="xs" c="dimmed">
          Created {formatDateTime(hook.createdAt)} ·{' '}
          {hook.lastDeliveryAt ? `last delivery ${formatDateTime(hook.lastDeliveryAt)}, ${hook.lastStatus === null ? 'no answer' : `HTTP ${hook.lastStatus}`}` : 'nothing delivered yet'}
        </Text>
        {test.data && <TestOutcome result={test.data} />}
        <ErrorNotice error={test.error} title="The test was not sent" />
        <ErrorNotice error={toggle.error} title="Not changed" />
        <Group gap="xs" wrap="wrap">
          <Button size="xs" variant="light" loading={test.isPending} onClick={() => test.mutate()} aria-label={`Send test to ${label}`}>
            Send test
          </Button>
          <Button size="xs" variant="default" onClick={onEdit} aria-label={`Edit webhook ${label}`}>
            Edit
          </Button>
          <Button size="xs" variant="default" onClick={onShowDeliveries} aria-label={`Deliveries of ${label}`}>
            Deliveries
          </Button>
          <Button size="xs" variant="subtle" color="red" onClick={onDelete} aria-label={`Delete webhook ${label}`}>
            Delete
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
