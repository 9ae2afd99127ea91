import { Button, Group, Paper, Stack, Table, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { formatDateTime, formatNumber } from '../components/ui';
import { AdminError } from './AdminError';
import { adminApi, adminKeys } from './api';
import type { AdminLink } from './types';

/** Disables or enables the link found; a reason is required to disable, since its owner is shown it. */
function LinkVerdict({ link, onChanged }: { link: AdminLink; onChanged: (link: AdminLink) => void }) {
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const disable = useMutation({
    mutationFn: () => adminApi.disableLink(link.id, reason.trim()),
    onSuccess: (changed) => {
      onChanged(changed);
      setReason('');
      notifications.show({ color: 'teal', message: `${changed.shortUrl} is disabled: visitors see that it was disabled` });
    },
  });
  const enable = useMutation({
    mutationFn: () => adminApi.enableLink(link.id),
    onSuccess: (changed) => {
      onChanged(changed);
      notifications.show({ color: 'teal', message: `${changed.shortUrl} redirects again` });
    },
  });

  if (link.disabledAt) {
    return (
      <Stack gap="xs">
        <AdminError error={enable.error} title="The link was not enabled" />
        <Group>
          <Button variant="default" onClick={() => enable.mutate()} loading={enable.isPending}>
            Enable link
          </Button>
        </Group>
      </Stack>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setMissing(true);
      return;
    }
    disable.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <Textarea
          label="Reason"
          description="Shown to the link's owner and kept in the audit log; visitors only see that the link was disabled"
          required
          maxLength={500}
          autosize
          minRows={2}
          value={reason}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            setMissing(false);
          }}
          error={missing ? 'Say why the link is disabled: its owner is shown this.' : undefined}
        />
        <AdminError error={disable.error} title="The link was not disabled" />
        <Group>
          <Button type="submit" color="red" loading={disable.isPending}>
            Disable link
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function FoundLink({ link, onChanged }: { link: AdminLink; onChanged: (link: AdminLink) => void }) {
  const rows: [string, string][] = [
    ['Short URL', link.shortUrl],
    // Text, not a link: a reported destination is not somewhere to send the operator with one click.
    ['Destination', link.url],
    ['Owner', link.owner.email],
    ['Clicks', formatNumber(link.clicks)],
    ['Created', formatDateTime(link.createdAt)],
    ['State', link.disabledAt ? `Disabled ${formatDateTime(link.disabledAt)}: ${link.disabledReason ?? ''}` : 'Active (redirects)'],
  ];
  return (
    <Paper withBorder p="sm" radius="md">
      <Stack gap="sm">
        <Table aria-label="The link found" layout="fixed" verticalSpacing={4}>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th scope="row" w={110} fw={600}>
                  {label}
                </Table.Th>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <LinkVerdict key={`${link.id}-${link.disabledAt ?? 'active'}`} link={link} onChanged={onChanged} />
      </Stack>
    </Paper>
  );
}

/** Abuse reports: any link on the server, found by its short URL, disabled with a reason or enabled again. */
export function LinkAbuseSection() {
  const queries = useQueryClient();
  const [address, setAddress] = useState('');
  const [found, setFound] = useState<AdminLink | null>(null);
  const find = useMutation({
    mutationFn: (url: string) => adminApi.findLink(url),
    onMutate: () => setFound(null),
    onSuccess: setFound,
  });
  const changed = (link: AdminLink) => {
    setFound(link);
    void queries.invalidateQueries({ queryKey: adminKeys.audit });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (address.trim()) find.mutate(address.trim());
  };

  return (
    <Stack gap="sm">
      <form onSubmit={submit}>
        <Group align="flex-end" gap="xs" wrap="wrap">
          <TextInput
            label="Find a link"
            description="A short URL, or the part after the domain (abc123 or team/launch)"
            value={address}
            onChange={(e) => setAddress(e.currentTarget.value)}
            style={{ flex: '1 1 240px' }}
            maw={520}
          />
          <Button type="submit" loading={find.isPending}>
            Find
          </Button>
        </Group>
      </form>
      <AdminError error={find.error} title="No link found" />
      {found && <FoundLink link={found} onChanged={changed} />}
    </Stack>
  );
}
