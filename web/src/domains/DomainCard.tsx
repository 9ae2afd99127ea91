import { Accordion, Alert, Badge, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { snip } from '../api';
import { ErrorNotice, formatDateTime, formatNumber } from '../components/ui';
import { DnsRecords } from './DnsRecords';
import { HttpsNote } from './HttpsNote';
import { NotFoundPageEditor } from './NotFoundPageEditor';
import { domainParams, DOMAINS_KEY, STATUS_BADGE, type ActivateAnswer, type DnsRecord, type DomainInfo, type VerifyAnswer } from './types';

function VerifyResult({ result }: { result: VerifyAnswer }) {
  return (
    <Alert
      color={result.verified ? 'teal' : 'yellow'}
      icon={result.verified ? <IconCircleCheck aria-hidden /> : <IconInfoCircle aria-hidden />}
      title={result.verified ? 'Verified' : 'Not verified yet'}
      role="status"
    >
      <Stack gap={4}>
        <Text size="sm">{result.hint}</Text>
        <Text size="xs" c="dimmed">
          Status: {STATUS_BADGE[result.status]?.label ?? result.status}
        </Text>
      </Stack>
    </Alert>
  );
}

/** What activating costs, as the API answered it: `free` plus whatever else the billing answer carries. */
function ActivateResult({ result }: { result: ActivateAnswer }) {
  const extra = Object.entries(result.billing).filter(([key]) => key !== 'free');
  return (
    <Alert color="teal" icon={<IconCircleCheck aria-hidden />} title={`${result.domain} is active`} role="status">
      <Text size="sm">Billing: {result.billing.free ? 'free, included in your plan' : 'charged to your account'}.</Text>
      {extra.length > 0 && (
        <List size="sm" mt={4}>
          {extra.map(([key, value]) => (
            <List.Item key={key}>
              {key}: {typeof value === 'object' ? JSON.stringify(value) : String(value)}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

/** One domain: its state, the records to create, and the next step (verify, activate, make default). */
export function DomainCard({ domain, fallbackRecords, onDelete }: { domain: DomainInfo; fallbackRecords?: DnsRecord[]; onDelete: () => void }) {
  const queries = useQueryClient();
  const refresh = () => queries.invalidateQueries({ queryKey: DOMAINS_KEY });
  const verify = useMutation({
    mutationFn: () => snip.get('/api/user/domains/{domain}/verify', { params: domainParams(domain.domain) }),
    onSuccess: (result) => {
      if (result.verified) void refresh();
    },
  });
  const activate = useMutation({
    mutationFn: () => snip.post('/api/user/domains/{domain}/activate', { params: domainParams(domain.domain) }),
    onSuccess: () => {
      void refresh();
      notifications.show({ color: 'teal', message: `${domain.domain} is active: new links can use it` });
    },
  });
  const makeDefault = useMutation({
    mutationFn: () => snip.patch('/api/user/domains/{domain}', { params: domainParams(domain.domain), body: { setDefault: true } }),
    onSuccess: () => {
      void refresh();
      notifications.show({ color: 'teal', message: `New links now use ${domain.domain}` });
    },
  });

  const status = STATUS_BADGE[domain.status] ?? { label: domain.status, color: 'gray' };
  const given = [domain.txtRecord, domain.cnameRecord].filter((r): r is DnsRecord => r !== undefined);
  const records = given.length > 0 ? given : (fallbackRecords ?? []);
  const pending = domain.status === 'pending_txt';

  return (
    <Paper withBorder p="md" radius="md" component="li" style={{ listStyle: 'none' }}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
          <Stack gap={4} miw={0}>
            <Group gap="xs" wrap="wrap">
              <Title order={3} size="h4" style={{ overflowWrap: 'anywhere' }}>
                {domain.domain}
              </Title>
              <Badge color={status.color}>{status.label}</Badge>
              {domain.isDefault && (
                <Badge color="grape" variant="light">
                  Default
                </Badge>
              )}
            </Group>
            <Text size="xs" c="dimmed">
              Added {formatDateTime(domain.createdAt)} · {formatNumber(domain.linkCount)} {domain.linkCount === 1 ? 'link' : 'links'}
            </Text>
          </Stack>
          <Group gap="xs" wrap="wrap">
            {pending && (
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
            <Button size="xs" variant="subtle" color="red" onClick={onDelete} aria-label={`Delete ${domain.domain}`}>
              Delete
            </Button>
          </Group>
        </Group>

        {/* Once active, the verification's advice ("activate it") is old news. */}
        {verify.data && domain.status !== 'active' && <VerifyResult result={verify.data} />}
        {activate.data && <ActivateResult result={activate.data} />}
        <ErrorNotice error={verify.error} title="Verification did not run" />
        <ErrorNotice error={activate.error} title="Not activated" />
        <ErrorNotice error={makeDefault.error} title="Not made the default" />

        {pending && (
          <Stack gap="xs">
            <Text size="sm">Create these records at your DNS provider, then press Verify. DNS changes can take a while to spread.</Text>
            <DnsRecords domain={domain.domain} records={records} />
          </Stack>
        )}
        {domain.status === 'verified' && !activate.data && !verify.data && <Text size="sm">The TXT record was found. Activate the domain to start using it for links.</Text>}
        <HttpsNote domain={domain.domain} status={domain.status} />

        {!pending && (
          <Accordion variant="contained" chevronPosition="right">
            {records.length > 0 && (
              <Accordion.Item value="dns">
                <Accordion.Control>DNS records</Accordion.Control>
                <Accordion.Panel>
                  <DnsRecords domain={domain.domain} records={records} />
                </Accordion.Panel>
              </Accordion.Item>
            )}
            <Accordion.Item value="404">
              <Accordion.Control>404 page{domain.notFoundPage ? `: ${domain.notFoundPage.type === 'redirect' ? 'redirect' : 'own HTML'}` : ''}</Accordion.Control>
              <Accordion.Panel>
                {domain.status === 'active' ? (
                  <NotFoundPageEditor domain={domain.domain} current={domain.notFoundPage} />
                ) : (
                  <Text size="sm" c="dimmed">
                    The 404 page can be set once the domain is active.
                  </Text>
                )}
              </Accordion.Panel>
            </Accordion.Item>
          </Accordion>
        )}
      </Stack>
    </Paper>
  );
}
