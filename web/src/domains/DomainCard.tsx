import { Accordion, Alert, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, messageOf } from '../api';
import { formatDateTime } from '../components/ui';
import { DnsRecords, type DnsRecord } from './DnsRecords';
import { NotFoundPageEditor, type NotFoundPage } from './NotFoundPageEditor';

export interface DomainInfo {
  domain: string;
  status: 'pending_txt' | 'verified' | 'active';
  sslStatus: string | null;
  createdAt: string;
  linkCount: number;
  isDefault: boolean;
  notFoundPage: NotFoundPage | null;
  txtRecord: DnsRecord;
  cnameRecord: DnsRecord;
}

const STATUS = {
  pending_txt: { label: 'Waiting for DNS', color: 'yellow' },
  verified: { label: 'Verified', color: 'blue' },
  active: { label: 'Active', color: 'teal' },
} as const;

/** One domain: its state, the records to create, and the next step (verify, activate, make default). */
export function DomainCard({ domain, onDelete }: { domain: DomainInfo; onDelete: () => void }) {
  const queries = useQueryClient();
  const path = encodeURIComponent(domain.domain);
  const refresh = () => void queries.invalidateQueries({ queryKey: ['domains'] });
  const verify = useMutation({
    mutationFn: () => api<{ verified: boolean; status: string; hint: string | null }>(`/api/user/domains/${path}/verify`),
    onSuccess: refresh,
  });
  const activate = useMutation({
    mutationFn: () => api<{ success: boolean; billing: Record<string, unknown> }>(`/api/user/domains/${path}/activate`, { method: 'POST' }),
    onSuccess: () => {
      refresh();
      notifications.show({ color: 'teal', message: `${domain.domain} is active: new links can use it` });
    },
  });
  const makeDefault = useMutation({
    mutationFn: () => api(`/api/user/domains/${path}`, { method: 'PATCH', body: { setDefault: true } }),
    onSuccess: refresh,
    onError: (error) => notifications.show({ color: 'red', message: messageOf(error) }),
  });
  const status = STATUS[domain.status];

  return (
    <Paper withBorder p="md" radius="md" component="li" style={{ listStyle: 'none' }}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs">
            <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
              {domain.domain}
            </Text>
            <Badge color={status.color}>{status.label}</Badge>
            {domain.isDefault && <Badge variant="outline">Default</Badge>}
          </Group>
          <Group gap="xs">
            {domain.status === 'pending_txt' && (
              <Button size="xs" onClick={() => verify.mutate()} loading={verify.isPending}>
                Verify
              </Button>
            )}
            {domain.status === 'verified' && (
              <Button size="xs" onClick={() => activate.mutate()} loading={activate.isPending}>
                Activate
              </Button>
            )}
            {domain.status === 'active' && !domain.isDefault && (
              <Button size="xs" variant="light" onClick={() => makeDefault.mutate()} loading={makeDefault.isPending}>
                Make default
              </Button>
            )}
            <Button size="xs" variant="subtle" color="red" onClick={onDelete}>
              Delete
            </Button>
          </Group>
        </Group>
        <Text size="xs" c="dimmed">
          Added {formatDateTime(domain.createdAt)} · {domain.linkCount} {domain.linkCount === 1 ? 'link' : 'links'}
        </Text>
        {verify.data && !verify.data.verified && (
          <Alert color="yellow" title="Not verified yet" role="status">
            {verify.data.hint ?? 'The TXT record was not found yet; DNS changes can take a while to spread.'}
          </Alert>
        )}
        {verify.isError && <Alert color="red" role="alert">{messageOf(verify.error)}</Alert>}
        {activate.isError && <Alert color="red" role="alert">{messageOf(activate.error)}</Alert>}
        {domain.status === 'pending_txt' && <DnsRecords records={[domain.txtRecord, domain.cnameRecord]} />}
        {domain.status === 'active' && (
          <Accordion variant="contained">
            <Accordion.Item value="404">
              <Accordion.Control>404 page</Accordion.Control>
              <Accordion.Panel>
                <NotFoundPageEditor domain={domain.domain} current={domain.notFoundPage} />
              </Accordion.Panel>
            </Accordion.Item>
          </Accordion>
        )}
      </Stack>
    </Paper>
  );
}
