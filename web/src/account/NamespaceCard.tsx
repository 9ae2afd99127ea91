import { Badge, Button, Code, Group, Paper, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { snip, type Answer, type ApiErrorCode } from '../api';
import { ConfirmModal } from '../components/ConfirmModal';
import { EmptyState, ErrorNotice, fieldError, formatDateTime, isFormError, Loading } from '../components/ui';
import { PROFILE_KEY, type Profile } from '../profile';
import { useSession } from '../session';
import { LoadError } from '../organize/LoadError';

type Held = Answer<'/api/user/namespaces', 'get'>['namespaces'][number];

const NAMESPACES_KEY = ['namespaces'];
const CLAIM_FIELD_CODES: ApiErrorCode[] = ['INVALID_NAMESPACE', 'MISSING_NAMESPACE', 'RESERVED_NAMESPACE', 'NAMESPACE_TAKEN'];
const links = (n: number) => `${n} ${n === 1 ? 'link' : 'links'}`;

function HeldTable({ held, onRelease }: { held: Held[]; onRelease: (n: Held) => void }) {
  return (
    <Table.ScrollContainer minWidth={300} scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Namespaces' } }}>
      <Table aria-label="Namespaces you hold" verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Namespace</Table.Th>
            <Table.Th>Links</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {held.map((n) => (
            <Table.Tr key={n.namespace}>
              <Table.Td>
                <Group gap="xs" wrap="wrap">
                  <Code>{n.namespace}</Code>
                  {n.current && (
                    <Badge size="sm" variant="light">
                      Current
                    </Badge>
                  )}
                </Group>
                <Text size="xs" c="dimmed">
                  Since {formatDateTime(n.createdAt)}
                </Text>
              </Table.Td>
              <Table.Td>{links(n.linkCount)}</Table.Td>
              <Table.Td ta="right">
                {n.current ? (
                  <Text size="xs" c="dimmed">
                    In use
                  </Text>
                ) : n.linkCount > 0 ? (
                  <Text size="xs" c="dimmed">
                    Kept for its links
                  </Text>
                ) : (
                  <Button size="xs" variant="subtle" color="red" onClick={() => onRelease(n)} aria-label={`Release namespace ${n.namespace}`}>
                    Release
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The prefix of custom-slug links (namespace/slug): which ones the account holds, claiming a new one, releasing old ones. */
export function NamespaceCard({ profile }: { profile: Profile }) {
  const session = useSession();
  const queries = useQueryClient();
  const held = useQuery({ queryKey: NAMESPACES_KEY, queryFn: () => snip.get('/api/user/namespaces') });
  const [name, setName] = useState('');
  const [releasing, setReleasing] = useState<Held | null>(null);

  const changed = async () => {
    await Promise.all([queries.invalidateQueries({ queryKey: NAMESPACES_KEY }), queries.invalidateQueries({ queryKey: PROFILE_KEY })]);
  };
  const claim = useMutation({
    mutationFn: (namespace: string) => snip.put('/api/user/namespace', { body: { namespace } }),
    onSuccess: async (answer) => {
      setName('');
      notifications.show({ color: 'teal', message: `Namespace ${answer.namespace} claimed: new custom-slug links are ${answer.namespace}/slug` });
      // The header and every page read the namespace from the session.
      await Promise.all([changed(), session.refresh().catch(() => undefined)]);
    },
  });
  const release = useMutation({
    mutationFn: (n: Held) => snip.delete('/api/user/namespaces/{namespace}', { params: { path: { namespace: n.namespace } } }),
    onSuccess: async (answer) => {
      setReleasing(null);
      notifications.show({ color: 'teal', message: `Namespace ${answer.namespace} released` });
      await changed();
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    claim.mutate(name.trim());
  };
  const current = held.data?.current ?? profile.namespace;

  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="xs">
        Namespaces
      </Title>
      <Text size="sm" mb="sm">
        {current ? (
          <>
            Current namespace: <Code>{current}</Code>. Links with a custom slug are <Code>{current}/slug</Code>.
          </>
        ) : (
          'You have no namespace yet. Claim one to give links custom slugs.'
        )}
      </Text>
      {!profile.limits.customSlugs && (
        <Text size="sm" c="dimmed" mb="sm">
          Your plan has no custom slugs, so links get random short codes; the namespace is used once the plan allows custom slugs.
        </Text>
      )}
      <Stack gap="md">
        {held.isPending ? (
          <Loading label="Loading namespaces…" />
        ) : held.isError ? (
          <LoadError error={held.error} title="Could not load your namespaces" onRetry={() => void held.refetch()} />
        ) : held.data.namespaces.length === 0 ? (
          <EmptyState title="No namespaces held">Claim one below.</EmptyState>
        ) : (
          <HeldTable held={held.data.namespaces} onRelease={setReleasing} />
        )}
        <form onSubmit={submit} noValidate aria-label="Claim a namespace">
          <Stack gap="xs">
            {isFormError(claim.error, CLAIM_FIELD_CODES) && <ErrorNotice error={claim.error} title="The namespace was not claimed" />}
            <TextInput
              label="Namespace"
              description="3-30 characters: a-z, 0-9 and hyphens inside. It becomes your current one; old ones without links are released, old ones with links stay so those links keep working."
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={fieldError(claim.error, CLAIM_FIELD_CODES)}
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              maw={340}
            />
            <Group>
              <Button type="submit" loading={claim.isPending}>
                Claim namespace
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
      {releasing && (
        <ConfirmModal
          title={`Release ${releasing.namespace}?`}
          confirmLabel="Release"
          busy={release.isPending}
          error={release.error}
          onConfirm={() => release.mutate(releasing)}
          onClose={() => {
            release.reset();
            setReleasing(null);
          }}
        >
          You give up {releasing.namespace}: anyone may claim it afterwards, and you can only get it back if it is still free.
        </ConfirmModal>
      )}
    </Paper>
  );
}
