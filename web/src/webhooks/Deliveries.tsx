import { Badge, Button, Group, Modal, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { snip } from '../api';
import { EmptyState, ErrorNotice, formatDateTime, Loading } from '../components/ui';
import { webhookParams, type Delivery, type DeliveryStatus } from './types';

const PAGE = 20;
const COLORS: Record<DeliveryStatus, string> = { pending: 'yellow', delivered: 'teal', abandoned: 'red' };

function StatusCell({ d }: { d: Delivery }) {
  return (
    <>
      <Badge color={COLORS[d.status] ?? 'gray'} variant="light" style={{ flexShrink: 0 }}>
        {d.status}
      </Badge>
      {d.nextAttemptAt && (
        <Text size="xs" c="dimmed">
          Next try {formatDateTime(d.nextAttemptAt)}
        </Text>
      )}
    </>
  );
}

function ResponseCell({ d }: { d: Delivery }) {
  return (
    <>
      {d.lastStatus ?? '—'}
      {d.lastStatus === null && d.lastError && (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {d.lastError}
        </Text>
      )}
    </>
  );
}

function DeliveryTable({ rows }: { rows: Delivery[] }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            <Table.Th>Event</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Attempts</Table.Th>
            <Table.Th>Response code</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((d) => (
            <Table.Tr key={d.id}>
              <Table.Td>{formatDateTime(d.createdAt)}</Table.Td>
              <Table.Td>{d.event}</Table.Td>
              <Table.Td>
                <StatusCell d={d} />
              </Table.Td>
              <Table.Td>{d.attempts}</Table.Td>
              <Table.Td>
                <ResponseCell d={d} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** On a phone each delivery is a small card: five columns do not fit 390 px. */
function DeliveryCards({ rows }: { rows: Delivery[] }) {
  return (
    <Stack gap="xs" component="ul" p={0} m={0}>
      {rows.map((d) => (
        <Paper key={d.id} withBorder p="xs" radius="sm" component="li" style={{ listStyle: 'none' }}>
          <Group justify="space-between" wrap="nowrap" align="flex-start" mb={4}>
            <Text size="sm" fw={600}>
              {d.event}
            </Text>
            <Stack gap={0} align="flex-end">
              <StatusCell d={d} />
            </Stack>
          </Group>
          <SimpleGrid cols={3} spacing="xs">
            <div>
              <Text size="xs" c="dimmed">Time</Text>
              <Text size="xs">{formatDateTime(d.createdAt)}</Text>
            </div>
            <div>
              <Text size="xs" c="dimmed">Attempts</Text>
              <Text size="xs">{d.attempts}</Text>
            </div>
            <div>
              <Text size="xs" c="dimmed">Response code</Text>
              <Text size="xs" component="div">
                <ResponseCell d={d} />
              </Text>
            </div>
          </SimpleGrid>
        </Paper>
      ))}
    </Stack>
  );
}

/** A webhook's delivery log, newest first: each event, its state, its attempts and what the endpoint answered. */
export function Deliveries({ webhookId, name, onClose }: { webhookId: string; name: string; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 36em)');
  const [offset, setOffset] = useState(0);
  const log = useQuery({
    queryKey: ['webhook-deliveries', webhookId, offset],
    queryFn: () => snip.get('/api/webhooks/{webhookId}/deliveries', { params: { ...webhookParams(webhookId), query: { limit: PAGE, offset } } }),
    placeholderData: keepPreviousData,
    // Retries are due within minutes: keep the open log current while any delivery is still pending.
    refetchInterval: (query) => (query.state.data?.deliveries.some((d) => d.status === 'pending') ? 5000 : false),
  });
  const rows = log.data?.deliveries ?? [];
  return (
    <Modal opened onClose={onClose} title={`Deliveries of ${name}`} size="xl" fullScreen={phone}>
      {log.isPending ? (
        <Loading label="Loading deliveries…" />
      ) : log.isError ? (
        <ErrorNotice error={log.error} title="Could not load the deliveries" />
      ) : rows.length === 0 && offset === 0 ? (
        <EmptyState title="No deliveries yet">Events appear here as they are sent. Send test sends one now (tests are not logged here).</EmptyState>
      ) : (
        <Stack gap="sm">
          {phone ? <DeliveryCards rows={rows} /> : <DeliveryTable rows={rows} />}
          <Group justify="space-between">
            <Button variant="default" size="xs" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
              Newer
            </Button>
            <Text size="xs" c="dimmed">
              {rows.length === 0 ? 'No more deliveries' : `${offset + 1}–${offset + rows.length}`}
            </Text>
            <Button variant="default" size="xs" disabled={rows.length < PAGE} onClick={() => setOffset(offset + PAGE)}>
              Older
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
