import { Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, snip } from '../api';
import { ConfirmModal } from '../components/ConfirmModal';
import { EmptyState, ErrorNotice, Loading, PageTitle, PlanGate, PlanHint } from '../components/ui';
import { AddDomainForm } from '../domains/AddDomainForm';
import { DomainCard } from '../domains/DomainCard';
import { DomainsSummary } from '../domains/DomainsSummary';
import { domainParams, DOMAINS_KEY, type DnsRecord, type DomainInfo } from '../domains/types';
import { useProfile } from '../profile';

function Domains() {
  const queries = useQueryClient();
  const profile = useProfile();
  const list = useQuery({ queryKey: DOMAINS_KEY, queryFn: () => snip.get('/api/user/domains') });
  // The add answer's records, kept for this visit in case a list answer comes without them.
  const [addedRecords, setAddedRecords] = useState<Record<string, DnsRecord[]>>({});
  const [deleting, setDeleting] = useState<DomainInfo | null>(null);
  const remove = useMutation({
    mutationFn: (d: DomainInfo) => snip.delete('/api/user/domains/{domain}', { params: domainParams(d.domain) }),
    onSuccess: (_answer, d) => {
      void queries.invalidateQueries({ queryKey: DOMAINS_KEY });
      notifications.show({ color: 'teal', message: `${d.domain} deleted` });
      setDeleting(null);
    },
  });
  const closeDelete = () => {
    setDeleting(null);
    remove.reset();
  };

  // The session's tier may be older than the plan: the API's own refusal is the final word.
  if (list.error instanceof ApiError && list.error.code === 'TIER_UPGRADE_REQUIRED') return <PlanHint feature="Custom domains" />;

  const domains = list.data?.domains ?? [];
  const limit = profile.data?.limits.domains;
  const full = typeof limit === 'number' && domains.length >= limit;

  return (
    <Stack gap="lg">
      <Paper withBorder p="md" radius="md">
        <Stack gap="xs">
          <Title order={2} size="h4">
            Add a domain
          </Title>
          <DomainsSummary used={domains.length} limit={limit} monthlyPrice={list.data?.monthlyPrice} />
          {full && <Text size="sm">{limit === 1 ? "Your plan's one domain is in use" : `Your plan's ${limit} domains are all in use`}: delete one to add another.</Text>}
          <AddDomainForm disabled={full} onAdded={(a) => setAddedRecords((all) => ({ ...all, [a.domain]: [a.txtRecord, a.cnameRecord] }))} />
        </Stack>
      </Paper>

      <Stack gap="sm">
        <Title order={2} size="h4">
          Your domains
        </Title>
        {/* The list is unnamed on purpose: named "Your domains", getByLabel('Domain') would match it as well as the field. */}
        {list.isPending ? (
          <Loading label="Loading domains…" />
        ) : list.isError ? (
          <ErrorNotice error={list.error} title="Could not load your domains" />
        ) : domains.length === 0 ? (
          <EmptyState title="No custom domains yet">Add a domain you control above: your short links can then live on it instead of this server's address.</EmptyState>
        ) : (
          <Stack gap="sm" component="ul" p={0} m={0}>
            {domains.map((d) => (
              <DomainCard key={d.domain} domain={d} fallbackRecords={addedRecords[d.domain]} onDelete={() => setDeleting(d)} />
            ))}
          </Stack>
        )}
      </Stack>

      {deleting && (
        <ConfirmModal title={`Delete ${deleting.domain}?`} confirmLabel="Delete" busy={remove.isPending} error={remove.error} onConfirm={() => remove.mutate(deleting)} onClose={closeDelete}>
          Links on {deleting.domain} fall back to this server's address, and any account may add the domain afterwards.
        </ConfirmModal>
      )}
    </Stack>
  );
}

export function DomainsPage() {
  return (
    <>
      <PageTitle title="Domains" description="Serve your short links from your own domain, proven yours by a DNS TXT record." />
      <PlanGate allows={(limits) => limits.domains !== 0} feature="Custom domains">
        <Domains />
      </PlanGate>
    </>
  );
}
