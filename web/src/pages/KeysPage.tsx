import { Alert, Button, Code, Group, Modal, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconAlertTriangle, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { api } from '../api';
import { ConfirmModal } from '../components/ConfirmModal';
import { CopyTextButton, EmptyState, ErrorNotice, formatDateTime, Loading, PageTitle, UpgradeHint } from '../components/ui';
import { useProfile } from '../profile';

interface Key {
  id: string;
  prefix: string;
  createdAt: string;
}

export function KeysPage() {
  const queries = useQueryClient();
  const profile = useProfile();
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => api<{ keys: Key[] }>('/api/keys') });
  const [created, setCreated] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<Key | null>(null);
  const create = useMutation({
    mutationFn: () => api<Key & { apiKey: string }>('/api/keys', { method: 'POST' }),
    onSuccess: (key) => {
      setCreated(key.apiKey);
      void queries.invalidateQueries({ queryKey: ['keys'] });
    },
  });
  const revoke = useMutation({
    mutationFn: (key: Key) => api(`/api/keys/${encodeURIComponent(key.id)}`, { method: 'DELETE' }),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['keys'] });
      notifications.show({ color: 'teal', message: 'Key revoked: it stops working at once' });
      setRevoking(null);
    },
  });

  return (
    <>
      <PageTitle
        title="API keys"
        description="Programs and AI assistants use Snip with a key, sent as Authorization: Bearer snip_…"
        actions={
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => create.mutate()} loading={create.isPending}>
            Create API key
          </Button>
        }
      />
      <Stack gap="md">
        <ErrorNotice error={create.error} title="No key was created" />
        {profile.data && !profile.data.limits.apiAccess && <UpgradeHint tier="pro" feature="API access" />}
        {keys.isPending ? (
          <Loading label="Loading keys…" />
        ) : keys.isError ? (
          <ErrorNotice error={keys.error} title="Could not load your keys" />
        ) : keys.data.keys.length === 0 ? (
          <EmptyState title="No active keys">Create one to use the API, the CLI's imports or an MCP client.</EmptyState>
        ) : (
          <Paper withBorder radius="md">
            <Table.ScrollContainer minWidth={360}>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Key</Table.Th>
                    <Table.Th>Created</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {keys.data.keys.map((key) => (
                    <Table.Tr key={key.id}>
                      <Table.Td>
                        <Code>{key.prefix}…</Code>
                      </Table.Td>
                      <Table.Td>{formatDateTime(key.createdAt)}</Table.Td>
                      <Table.Td ta="right">
                        <Button size="xs" variant="subtle" color="red" onClick={() => setRevoking(key)} aria-label={`Revoke key ${key.prefix}`}>
                          Revoke
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        )}
      </Stack>
      <Modal opened={created !== null} onClose={() => setCreated(null)} title="Your new API key">
        <Stack gap="sm">
          <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />}>
            Copy it now: Snip keeps only a hash and cannot show this key again.
          </Alert>
          <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }} data-testid="new-api-key">
            {created}
          </Code>
          <Group justify="space-between">
            <CopyTextButton value={created ?? ''} label="Copy key" />
            <Button onClick={() => setCreated(null)}>Done</Button>
          </Group>
        </Stack>
      </Modal>
      {revoking && (
        <ConfirmModal
          title="Revoke this key?"
          confirmLabel="Revoke key"
          busy={revoke.isPending}
          error={revoke.error}
          onConfirm={() => revoke.mutate(revoking)}
          onClose={() => {
            revoke.reset();
            setRevoking(null);
          }}
        >
          Anything using {revoking.prefix}… is refused from now on. This cannot be undone.
        </ConfirmModal>
      )}
      <Text size="xs" c="dimmed" mt="md">
        The MCP endpoint for AI assistants is {window.location.origin}/mcp.
      </Text>
    </>
  );
}
