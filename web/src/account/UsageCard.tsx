import { Alert, Divider, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconPlayerPause } from '@tabler/icons-react';
import { formatDateTime, formatNumber, Loading } from '../components/ui';
import type { Profile } from '../profile';
import { OverageCapForm } from './OverageCapForm';
import { dollars, limitText } from './plan-format';
import { UsageMeter } from './UsageMeter';
import { useUsage, type Usage } from './usage';
import { LoadError } from '../organize/LoadError';

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </div>
  );
}

/** Time gone in the grace period, so the bar shows how close recording is to pausing. */
function GraceMeter({ grace }: { grace: Usage['grace'] }) {
  if (!grace.startedAt || !grace.endsAt) return null;
  const start = Date.parse(grace.startedAt);
  const end = Date.parse(grace.endsAt);
  const days = (ms: number) => Math.max(0, Math.round(ms / 86_400_000));
  return <UsageMeter label="Grace period" used={Date.now() - start} limit={end - start} usedText={`${days(Date.now() - start)} days`} limitText={`${days(end - start)} days`} warnAt={50} />;
}

function UsageDetails({ usage, profile }: { usage: Usage; profile: Profile }) {
  const included = usage.includedClicks;
  const paidOverage = profile.limits.overageCentsPer1000 !== null;
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        Billing cycle {formatDateTime(usage.cycle.start)} to {formatDateTime(usage.cycle.end)}
      </Text>
      <UsageMeter label="Tracked clicks" used={usage.trackedClicks} limit={included} usedText={formatNumber(usage.trackedClicks)} limitText={limitText(included)} />
      {paidOverage && (
        <UsageMeter
          label="Overage charge"
          used={usage.overageChargeCents}
          limit={usage.overageLimitCents || null}
          usedText={dollars(usage.overageChargeCents)}
          limitText={`${dollars(usage.overageLimitCents ?? 0)} cap`}
          noLimit="No cap set: overage is charged without a limit."
        />
      )}
      {usage.grace.active && <GraceMeter grace={usage.grace} />}
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
        <Figure label="Clicks past the monthly number" value={formatNumber(usage.overageClicks)} />
        {paidOverage && <Figure label="Overage so far" value={dollars(usage.overageChargeCents)} />}
        <Figure label="Recording" value={usage.recordingPaused ? 'Paused' : 'On'} />
      </SimpleGrid>
      {usage.grace.active && (
        <Alert color="yellow" title="Grace period" icon={<IconAlertTriangle aria-hidden />}>
          This month's clicks passed the plan's number. Until {formatDateTime(usage.grace.endsAt)}, clicks are still recorded, but statistics leave them out until
          the plan is upgraded or the next cycle starts.
        </Alert>
      )}
      {usage.recordingPaused && (
        <Alert color="red" title="Click recording is paused" icon={<IconPlayerPause aria-hidden />}>
          Links keep redirecting; clicks are not counted until the next cycle{usage.capReached ? ' or until you raise the overage cap' : ''}.
        </Alert>
      )}
      <Text size="xs" c="dimmed">
        API requests are not counted here: a key over its hourly or monthly number gets a 429 answer with X-RateLimit-* headers. The dashboard does not use up
        the API allowance.
      </Text>
      <Divider />
      <Title order={3} size="h5">
        Overage cap
      </Title>
      <OverageCapForm limits={profile.limits} capCents={usage.overageLimitCents} />
    </Stack>
  );
}

/** This billing cycle: tracked clicks against the plan, overage, grace, and the cap editor. */
export function UsageCard({ profile }: { profile: Profile }) {
  const usage = useUsage();
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        Usage this month
      </Title>
      {usage.isPending ? (
        <Loading label="Loading usage…" />
      ) : usage.isError ? (
        <LoadError error={usage.error} title="Could not load your usage" onRetry={() => void usage.refetch()} />
      ) : (
        <UsageDetails usage={usage.data} profile={profile} />
      )}
    </Paper>
  );
}
