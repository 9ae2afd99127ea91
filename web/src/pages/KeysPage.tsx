import { Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { snip } from '../api';
import { CreateKeyForm } from '../account/CreateKeyForm';
import { isAccountKey, KeyTable, type Key } from '../account/KeyTable';
import { NewKeyModal } from '../account/NewKeyModal';
import { ConfirmModal } from '../components/ConfirmModal';
import { EmptyState, Loading, PageTitle, PlanHint } from '../components/ui';
import { usePlanLimits } from '../plan';
import { useProfile } from '../profile';
import { LoadError } from '../organize/LoadError';

const KEYS_KEY = ['keys'];

/** A session may create keys on any plan; whether the API accepts them is the plan's `apiAccess`. */
function ApiAccessNotice() {
  const { limits } = usePlanLimits();
  if (!limits || limits.apiAccess) return null;
  return (
    <PlanHint feature="API access">
      You can create keys here, but the API refuses requests made with them until your plan includes it. The dashboard itself needs no key.
    </PlanHint>
  );
}

/**
 * What the form says first: a new account holds only the key made with it, whose value a browser sign-up never
 * showed, so the page says so rather than leaving a key that looks usable and is not.
 */
function leadFor(keys: Key[] | undefined, accountCreatedAt: string | undefined): string | undefined {
  if (!keys) return undefined;
  if (keys.length === 0) return 'You have no working keys. Create one to use the REST API, the command line or an AI assistant (MCP).';
  if (keys.every((k) => isAccountKey(k, accountCreatedAt))) {
    return 'Your account came with a key, but its full value is never shown in the dashboard. To use the API, the command line or an AI assistant, create a key here: its value is shown once, for you to copy.';
  }
  return 'A key is shown in full once, when it is made. Name it after what will use it, so you know which one to revoke later.';
}

export function KeysPage() {
  const queries = useQueryClient();
  const profile = useProfile();
  const keys = useQuery({ queryKey: KEYS_KEY, queryFn: async (): Promise<{ keys: Key[] }> => snip.get('/api/keys') });
  const [created, setCreated] = useState<{ apiKey: string; name: string | null } | null>(null);
  const [revoking, setRevoking] = useState<Key | null>(null);
  const revoke = useMutation({
    mutationFn: (key: Key) => snip.delete('/api/keys/{keyId}', { params: { path: { keyId: key.id } } }),
    onSuccess: (_answer, key) => {
      setRevoking(null);
      void queries.invalidateQueries({ queryKey: KEYS_KEY });
      notifications.show({ color: 'teal', message: `Key ${key.name ?? `${key.prefix}…`} revoked: requests with it are refused from now on` });
    },
  });
  const closeRevoke = () => {
    revoke.reset();
    setRevoking(null);
  };
  const accountCreatedAt = profile.data?.createdAt;

  return (
    <>
      <PageTitle title="API keys" description="Programs, scripts and AI assistants use Snip with a key. Each key has the full rights of your account." />
      <Stack gap="md">
        <ApiAccessNotice />
        <CreateKeyForm
          lead={leadFor(keys.data?.keys, accountCreatedAt)}
          onCreated={(key, name) => {
            setCreated({ apiKey: key.apiKey, name });
            void queries.invalidateQueries({ queryKey: KEYS_KEY });
          }}
        />
        {keys.isPending ? (
          <Loading label="Loading keys…" />
        ) : keys.isError ? (
          <LoadError error={keys.error} title="Could not load your keys" onRetry={() => void keys.refetch()} />
        ) : keys.data.keys.length === 0 ? (
          <EmptyState title="No active keys">Keys you create are listed here.</EmptyState>
        ) : (
          <KeyTable keys={keys.data.keys} accountCreatedAt={accountCreatedAt} onRevoke={setRevoking} />
        )}
        <Text size="sm">Only the first characters of each key are shown. AI assistants connect to {window.location.origin}/mcp with a key.</Text>
      </Stack>
      {created !== null && <NewKeyModal apiKey={created.apiKey} name={created.name} onClose={() => setCreated(null)} />}
      {revoking && (
        <ConfirmModal
          title={`Revoke key ${revoking.name ?? `${revoking.prefix}…`}?`}
          confirmLabel="Revoke"
          busy={revoke.isPending}
          error={revoke.error}
          onConfirm={() => revoke.mutate(revoking)}
          onClose={closeRevoke}
        >
          Anything using this key is refused from now on. This cannot be undone.
        </ConfirmModal>
      )}
    </>
  );
}
