import { Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { ConfirmModal } from '../components/ConfirmModal';
import { ErrorNotice, fieldError, isFormError, Loading } from '../components/ui';
import { PROFILE_KEY } from '../profile';
import { useSession } from '../session';

interface Held {
  namespace: string;
  current: boolean;
  linkCount: number;
  createdAt: string;
}
const CODES = ['INVALID_NAMESPACE', 'NAMESPACE_TAKEN', 'NAMESPACE_RESERVED', 'MISSING_NAMESPACE', 'NAMESPACE_LIMIT_REACHED'];

/** The prefix of custom-slug links: claim another, release old ones without links. */
export function NamespaceSettings() {
  const session = useSession();
  const queries = useQueryClient();
  const held = useQuery({ queryKey: ['namespaces'], queryFn: () => api<{ current: string | null; namespaces: Held[] }>('/api/user/namespaces') });
  const [name, setName] = useState('');
  const [releasing, setReleasing] = useState<Held | null>(null);
  const refresh = () => {
    void queries.invalidateQueries({ queryKey: ['namespaces'] });
    void queries.invalidateQueries({ queryKey: PROFILE_KEY });
    void session.refresh();
  };
  const claim = useMutation({
    mutationFn: () => api<{ namespace: string }>('/api/user/namespace', { method: 'PUT', body: { namespace: name.trim() } }),
    onSuccess: (answer) => {
      refresh();
      setName('');
      notifications.show({ color: 'teal', message: `New custom-slug links now live under ${answer.namespace}/` });
    },
  });
  const release = useMutation({
    mutationFn: (n: Held) => api(`/api/user/namespaces/${encodeURIComponent(n.namespace)}`, { method: 'DELETE' }),
    onSuccess: () => {
      refresh();
      setReleasing(null);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    claim.mutate();
  };
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="xs">
        Namespace
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Custom-slug links are <code>{held.data?.current ?? 'namespace'}/slug</code>. Old namespaces keep their links working.
      </Text>
      <Stack gap="sm">
        {held.isPending ? (
          <Loading />
        ) : held.isError ? (
          <ErrorNotice error={held.error} />
        ) : (
          <Table.ScrollContainer minWidth={320}>
            <Table>
              <Table.Tbody>
                {held.data.namespaces.map((n) => (
                  <Table.Tr key={n.namespace}>
                    <Table.Td>
                      <Group gap="xs">
                        <code>{n.namespace}</code>
                        {n.current && <Badge size="sm">current</Badge>}
                      </Group>
                    </Table.Td>
                    <Table.Td>{n.linkCount} {n.linkCount === 1 ? 'link' : 'links'}</Table.Td>
                    <Table.Td ta="right">
                      {!n.current && n.linkCount === 0 && (
                        <Button size="xs" variant="subtle" color="red" onClick={() => setReleasing(n)}>
                          Release
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <form onSubmit={submit} noValidate>
          {isFormError(claim.error, CODES) && <ErrorNotice error={claim.error} title="Not claimed" />}
          <Group align="flex-start" wrap="wrap" gap="sm">
            <TextInput label="Namespace" description="3-30 characters: a-z, 0-9 and inner hyphens" value={name} onChange={(e) => setName(e.currentTarget.value)} error={fieldError(claim.error, CODES)} style={{ flex: '1 1 12rem' }} />
            <Button type="submit" loading={claim.isPending} mt={{ base: 0, xs: 25 }}>
              Claim namespace
            </Button>
          </Group>
        </form>
      </Stack>
      {releasing && (
        <ConfirmModal title={`Release ${releasing.namespace}?`} confirmLabel="Release namespace" busy={release.isPending} error={release.error} onConfirm={() => release.mutate(releasing)} onClose={() => setReleasing(null)}>
          Anyone may claim it afterwards.
        </ConfirmModal>
      )}
    </Paper>
  );
}
