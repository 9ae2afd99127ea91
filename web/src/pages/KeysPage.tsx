import { Button, Code, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { snip, type Answer } from '../api';
import { NewKeyModal } from '../account/NewKeyModal';
import { ConfirmModal } from '../components/ConfirmModal';
import { EmptyState, ErrorNotice, formatDateTime, Loading, PageTitle, UpgradeHint } from '../components/ui';
import { useProfile } from '../profile';
import { tierLabel } from '../session';
import { LoadError } from '../organize/LoadError';

type Key = Answer<'/api/keys', 'get'>['keys'][number];

const KEYS_KEY = ['keys'];

/** A session may create keys on any plan; whether the API accepts them is the plan's `apiAccess`. */
function ApiAccessNotice() {
  const profile = useProfile();
  if (!profile.data || profile.data.limits.apiAccess) return null;
  return (
    <Stack gap="xs">
      <Text size="sm">
        Your {tierLabel(profile.data.tier)} plan has no API access: you can create keys here, but the API refuses requests made with them until the plan
        changes. The dashboard itself needs no key.
      </Text>
      <UpgradeHint tier="pro" feature="API access" />
    </Stack>
  );
}

function KeyTable({ keys, onRevoke }: { keys: Key[]; onRevoke: (key: Key) => void }) {
  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={300}>
        <Table aria-label="Your API keys">
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
            {keys.map((key) => (
              <Table.Tr key={key.id}>
                <Table.Td>
                  <Code>{key.prefix}…</Code>
                </Table.Td>
                <Table.Td>{formatDateTime(key.createdAt)}</Table.Td>
                <Table.Td ta="right">
                  <Button size="xs" variant="subtle" color="red" onClick={() => onRevoke(key)} aria-label={`Revoke key ${key.prefix}`}>
                    Revoke
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

export function KeysPage() {
  const queries = useQueryClient();
  const keys = useQuery({ queryKey: KEYS_KEY, queryFn: () => snip.get('/api/keys') });
  const [created, setCreated] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<Key | null>(null);
  const create = useMutation({
    mutationFn: () => snip.post('/api/keys'),
    onSuccess: (key) => {
      setCreated(key.apiKey);
      void queries.invalidateQueries({ queryKey: KEYS_KEY });
    },
  });
  const revoke = useMutation({
    mutationFn: (key: Key) => snip.delete('/api/keys/{keyId}', { params: { path: { keyId: key.id } } }),
    onSuccess: (_answer, key) => {
      setRevoking(null);
      void queries.invalidateQueries({ queryKey: KEYS_KEY });
      notifications.show({ color: 'teal', message: `Key ${key.prefix}… revoked: requests with it are refused from now on` });
    },
  });
  const closeRevoke = () => {
    revoke.reset();
    setRevoking(null);
  };

  return (
    <>
      <PageTitle
        title="API keys"
        description="Programs, scripts and AI assistants use Snip with a key. Each key has the full rights of your account."
        actions={
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => create.mutate()} loading={create.isPending}>
            Create API key
          </Button>
        }
      />
      <Stack gap="md">
        <ErrorNotice error={create.error} title="No key was created" />
        <ApiAccessNotice />
        {keys.isPending ? (
          <Loading label="Loading keys…" />
        ) : keys.isError ? (
          <LoadError error={keys.error} title="Could not load your keys" onRetry={() => void keys.refetch()} />
        ) : keys.data.keys.length === 0 ? (
          <EmptyState title="No active keys">Create one to use the REST API, the command line or an AI assistant (MCP).</EmptyState>
        ) : (
          <KeyTable keys={keys.data.keys} onRevoke={setRevoking} />
        )}
        <Text size="xs" c="dimmed">
          Only the first characters of each key are shown. AI assistants connect to {window.location.origin}/mcp with a key.
        </Text>
      </Stack>
      {created !== null && <NewKeyModal apiKey={created} onClose={() => setCreated(null)} />}
      {revoking && (
        <ConfirmModal title={`Revoke key ${revoking.prefix}…?`} confirmLabel="Revoke" busy={revoke.isPending} error={revoke.error} onConfirm={() => revoke.mutate(revoking)} onClose={closeRevoke}>
          Anything using this key is refused from now on. This cannot be undone.
        </ConfirmModal>
      )}
    </>
  );
}
