import { Alert, Button, Group, NumberInput, Paper, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api';
import { ErrorNotice, formatDateTime, formatNumber, Loading } from '../components/ui';
import { tierLabel } from '../session';
import type { Profile } from '../profile';

interface Usage {
  cycle: { start: string; end: string };
  trackedClicks: number;
  includedClicks: number | null;
  overageClicks: number;
  overageChargeCents: number;
  overageLimitCents: number | null;
  capReached: boolean;
  grace: { active: boolean; startedAt: string | null; endsAt: string | null };
  recordingPaused: boolean;
}

const dollars = (cents: number | null) => (cents === null ? 'no cap' : `$${(cents / 100).toFixed(2)}`);
const limitText = (n: number | null) => (n === null ? 'unlimited' : formatNumber(n));

const LIMITS: [keyof Profile['limits'], string][] = [
  ['linksPerDay', 'Links per day'],
  ['trackedClicksPerMonth', 'Tracked clicks per month'],
  ['requestsPerHour', 'API requests per hour'],
  ['requestsPerMonth', 'API requests per month'],
  ['requestsPerMinute', 'Requests per minute'],
  ['bulkRequestsPerHour', 'Bulk requests per hour'],
  ['folders', 'Folders'],
  ['webhooks', 'Webhooks'],
  ['domains', 'Custom domains'],
];

function OverageCap({ usage, profile }: { usage: Usage; profile: Profile }) {
  const queries = useQueryClient();
  const [dollarsValue, setDollars] = useState<number | string>(usage.overageLimitCents === null ? '' : usage.overageLimitCents / 100);
  const save = useMutation({
    mutationFn: () => api('/api/subscription/overage-limit', { method: 'POST', body: { limitCents: Math.round(Number(dollarsValue) * 100) } }),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['usage'] });
      notifications.show({ color: 'teal', message: 'Overage cap saved' });
    },
  });
  if (profile.tier !== 'pro' && profile.tier !== 'builder') {
    return (
      <Text size="sm" c="dimmed">
        {profile.tier === 'free' ? 'The Free plan has no paid overage: past its clicks, a grace period starts, then recording pauses.' : 'Your plan has no overage charge to cap.'}
      </Text>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Group align="flex-end" wrap="wrap" gap="sm">
        <NumberInput label="Monthly overage cap (US dollars)" description="0 stops paid overage; clicks past the cap are not recorded" min={0} decimalScale={2} prefix="$" value={dollarsValue} onChange={setDollars} style={{ flex: '1 1 14rem' }} />
        <Button type="submit" loading={save.isPending} disabled={dollarsValue === ''}>
          Save cap
        </Button>
      </Group>
      <ErrorNotice error={save.error} title="Not saved" />
    </form>
  );
}

/** The plan, this month's tracked clicks and overage, and the cap on what overage may cost. */
export function PlanAndUsage({ profile }: { profile: Profile }) {
  const usage = useQuery({ queryKey: ['usage'], queryFn: () => api<Usage>('/api/usage') });
  const u = usage.data;
  const included = u?.includedClicks ?? profile.limits.trackedClicksPerMonth;
  return (
    <Stack gap="md">
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="sm">
          {tierLabel(profile.tier)} plan
        </Title>
        <Table.ScrollContainer minWidth={300}>
          <Table>
            <Table.Tbody>
              {LIMITS.map(([key, label]) => (
                <Table.Tr key={key}>
                  <Table.Th scope="row" fw={400}>{label}</Table.Th>
                  <Table.Td ta="right">{limitText(profile.limits[key] as number | null)}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Th scope="row" fw={400}>Statistics history</Table.Th>
                <Table.Td ta="right">{profile.limits.historyDays} days</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row" fw={400}>API access and custom slugs</Table.Th>
                <Table.Td ta="right">{profile.limits.apiAccess ? 'yes' : 'no'} / {profile.limits.customSlugs ? 'yes' : 'no'}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Text size="xs" c="dimmed" mt="xs">
          Plans are set by this server's operator.
        </Text>
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Title order={2} size="h4" mb="sm">
          Usage this month
        </Title>
        {usage.isPending ? (
          <Loading label="Loading usage…" />
        ) : usage.isError ? (
          <ErrorNotice error={usage.error} title="Usage unavailable" />
        ) : (
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {formatDateTime(u!.cycle.start)} to {formatDateTime(u!.cycle.end)}
            </Text>
            <div>
              <Group justify="space-between">
                <Text size="sm">Tracked clicks</Text>
                <Text size="sm">
                  {formatNumber(u!.trackedClicks)} of {limitText(included)}
                </Text>
              </Group>
              {included !== null && <Progress value={Math.min(100, (u!.trackedClicks / Math.max(1, included)) * 100)} aria-label="Tracked clicks used" color={u!.trackedClicks > included ? 'orange' : 'indigo'} />}
            </div>
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
              <Text size="sm">Overage clicks: {formatNumber(u!.overageClicks)}</Text>
              <Text size="sm">Overage charge: {dollars(u!.overageChargeCents)}</Text>
              <Text size="sm">Cap: {dollars(u!.overageLimitCents)}</Text>
            </SimpleGrid>
            {u!.grace.active && (
              <Alert color="yellow" title="Grace period">
                Your clicks passed the plan's monthly number; they are still recorded until {formatDateTime(u!.grace.endsAt)}.
              </Alert>
            )}
            {u!.recordingPaused && (
              <Alert color="red" title="Click recording is paused">
                Redirects keep working; clicks are recorded again next month{u!.capReached ? ' or when you raise the cap' : ''}.
              </Alert>
            )}
            <OverageCap usage={u!} profile={profile} />
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
