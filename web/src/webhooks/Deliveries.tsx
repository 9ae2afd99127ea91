import { Badge, Modal, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { EmptyState, ErrorNotice, formatDateTime, Loading } from '../components/ui';

interface Delivery {
  id: string;
  event: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  nextAttemptAt: string | null;
}

const COLORS = { pending: 'yellow', delivered: 'teal', failed: 'red' } as const;

/** A webhook's delivery log: each event, its state, how many attempts it took and what the endpoint answered. */
export function Deliveries({ webhookId, name, onClose }: { webhookId: string; name: string; onClose: () => void }) {
  const log = useQuery({ queryKey: ['deliveries', webhookId], queryFn: () => api<{ deliveries: Delivery[] }>(`/api/webhooks/${encodeURIComponent(webhookId)}/deliveries?limit=50`), refetchInterval: 5000 });
  return (
    <Modal opened onClose={onClose} title={`Deliveries of ${name}`} size="xl">
      {log.isPending ? (
        <Loading label="Loading deliveries…" />
      ) : log.isError ? (
        <ErrorNotice error={log.error} />
      ) : log.data.deliveries.length === 0 ? (
        <EmptyState title="No deliveries yet">Events appear here as they are sent; Send test sends one now.</EmptyState>
      ) : (
        <Table.ScrollContainer minWidth={600}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Time</Table.Th>
                <Table.Th>Event</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Attempts</Table.Th>
                <Table.Th>Response</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {log.data.deliveries.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td>{formatDateTime(d.createdAt)}</Table.Td>
                  <Table.Td>{d.event}</Table.Td>
                  <Table.Td>
                    <Badge color={COLORS[d.status] ?? 'gray'}>{d.status}</Badge>
                    {d.nextAttemptAt && (
                      <Text size="xs" c="dimmed">
                        next try {formatDateTime(d.nextAttemptAt)}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{d.attempts}</Table.Td>
                  <Table.Td>{d.lastStatus ?? d.lastError ?? '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Modal>
  );
}
