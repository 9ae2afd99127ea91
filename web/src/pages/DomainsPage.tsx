import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { ConfirmModal } from '../components/ConfirmModal';
import { EmptyState, ErrorNotice, fieldError, isFormError, Loading, PageTitle, TierGate } from '../components/ui';
import { DomainCard, type DomainInfo } from '../domains/DomainCard';
import { useProfile } from '../profile';

const DOMAIN_CODES = ['MISSING_DOMAIN', 'INVALID_DOMAIN', 'RESERVED_DOMAIN', 'DOMAIN_EXISTS', 'DOMAIN_TAKEN'];

function Domains() {
  const queries = useQueryClient();
  const profile = useProfile();
  const domains = useQuery({ queryKey: ['domains'], queryFn: () => api<{ domains: DomainInfo[]; monthlyPrice: number }>('/api/user/domains') });
  const [name, setName] = useState('');
  const [deleting, setDeleting] = useState<DomainInfo | null>(null);
  const add = useMutation({
    mutationFn: () => api('/api/user/domains', { method: 'POST', body: { domain: name.trim() } }),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['domains'] });
      notifications.show({ color: 'teal', message: `${name.trim()} added: create its DNS records, then verify` });
      setName('');
    },
  });
  const remove = useMutation({
    mutationFn: (d: DomainInfo) => api(`/api/user/domains/${encodeURIComponent(d.domain)}`, { method: 'DELETE' }),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['domains'] });
      setDeleting(null);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  const limit = profile.data?.limits.domains;
  const list = domains.data?.domains ?? [];

  return (
    <Stack gap="lg">
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="xs">
          Add a domain
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {list.length} of {limit === null ? 'unlimited' : (limit ?? '…')} domains
          {domains.data ? ` · ${domains.data.monthlyPrice === 0 ? 'included in your plan' : `$${domains.data.monthlyPrice} a month each`}` : ''}
        </Text>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            {isFormError(add.error, DOMAIN_CODES) && <ErrorNotice error={add.error} title="The domain was not added" />}
            <Group align="flex-start" wrap="wrap" gap="sm">
              <TextInput label="Domain" placeholder="go.example.com" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={fieldError(add.error, DOMAIN_CODES)} style={{ flex: '1 1 14rem' }} />
              <Button type="submit" loading={add.isPending} mt={{ base: 0, xs: 25 }}>
                Add domain
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      {domains.isPending ? (
        <Loading label="Loading domains…" />
      ) : domains.isError ? (
        <ErrorNotice error={domains.error} title="Could not load your domains" />
      ) : list.length === 0 ? (
        <EmptyState title="No custom domains yet">Add one you control: short links can then live on it instead of this server's address.</EmptyState>
      ) : (
        <Stack gap="sm" component="ul" p={0} m={0} aria-label="Your domains">
          {list.map((d) => (
            <DomainCard key={d.domain} domain={d} onDelete={() => setDeleting(d)} />
          ))}
        </Stack>
      )}
      {deleting && (
        <ConfirmModal title={`Delete ${deleting.domain}?`} confirmLabel="Delete domain" busy={remove.isPending} error={remove.error} onConfirm={() => remove.mutate(deleting)} onClose={() => setDeleting(null)}>
          Its links stop answering on {deleting.domain}. Anyone may claim the domain afterwards.
        </ConfirmModal>
      )}
    </Stack>
  );
}

export function DomainsPage() {
  return (
    <>
      <PageTitle title="Domains" description="Serve your short links from your own domain, verified by a DNS TXT record." />
      <TierGate tier="pro" feature="Custom domains">
        <Domains />
      </TierGate>
    </>
  );
}
