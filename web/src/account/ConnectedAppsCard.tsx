import { Badge, Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { snip, type Answer } from '../api';
import { ConfirmModal } from '../components/ConfirmModal';
import { EmptyState, formatDateTime, Loading } from '../components/ui';
import { LoadError } from '../organize/LoadError';

type Connection = Answer<'/api/v1/oauth/connections', 'get'>['connections'][number];

const CONNECTIONS_KEY = ['oauth-connections'];

/** The AI assistants and other applications connected by OAuth (the MCP endpoint's sign-in), each with Disconnect. */
export function ConnectedAppsCard() {
  const headingId = useId();
  const queries = useQueryClient();
  const list = useQuery({ queryKey: CONNECTIONS_KEY, queryFn: () => snip.get('/api/v1/oauth/connections') });
  const [leaving, setLeaving] = useState<Connection | null>(null);
  const disconnect = useMutation({
    mutationFn: (c: Connection) => snip.delete('/api/v1/oauth/connections/{id}', { params: { path: { id: c.id } } }),
    onSuccess: async (_answer, c) => {
      setLeaving(null);
      notifications.show({ color: 'teal', message: `${c.clientName} disconnected` });
      await queries.invalidateQueries({ queryKey: CONNECTIONS_KEY });
    },
  });

  return (
    <Paper component="section" aria-labelledby={headingId} withBorder p="md" radius="md">
      <Title id={headingId} order={2} size="h4" mb="xs">
        Connected applications
      </Title>
      <Text size="sm" mb="sm">
        AI assistants connected to your account by signing in (OAuth), rather than with an API key. Disconnecting one stops it at once.
      </Text>
      {list.isPending ? (
        <Loading label="Loading connected applications…" />
      ) : list.isError ? (
        <LoadError error={list.error} title="Could not load your connected applications" onRetry={() => void list.refetch()} />
      ) : list.data.connections.length === 0 ? (
        <EmptyState title="No connected applications">Connect an MCP client to {window.location.origin}/mcp and sign in when it asks.</EmptyState>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {list.data.connections.map((c) => (
            <li key={c.id}>
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
                <Stack gap={4} style={{ minWidth: 0 }}>
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {c.clientName}
                  </Text>
                  <Text size="xs" c="dimmed">
                    Connected {formatDateTime(c.connectedAt)}
                  </Text>
                  <Group gap={4} wrap="wrap" aria-label={`Scopes of ${c.clientName}`}>
                    {c.scopes.map((scope) => (
                      <Badge key={scope} size="sm" variant="light" tt="none">
                        <Code bg="transparent">{scope}</Code>
                      </Badge>
                    ))}
                  </Group>
                </Stack>
                <Button size="xs" variant="subtle" color="red" onClick={() => setLeaving(c)} aria-label={`Disconnect ${c.clientName}`}>
                  Disconnect
                </Button>
              </Group>
            </li>
          ))}
        </Stack>
      )}
      {leaving && (
        <ConfirmModal
          title={`Disconnect ${leaving.clientName}?`}
          confirmLabel="Disconnect"
          busy={disconnect.isPending}
          error={disconnect.error}
          onConfirm={() => disconnect.mutate(leaving)}
          onClose={() => {
            disconnect.reset();
            setLeaving(null);
          }}
        >
          Its access and refresh tokens stop working now; it has to ask you again to connect.
        </ConfirmModal>
      )}
    </Paper>
  );
}
