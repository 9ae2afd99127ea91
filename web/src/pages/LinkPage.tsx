import { Anchor, Badge, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { ApiError, shortPathParams, snip } from '../api';
import { CopyValue, EmptyState, ErrorNotice, formatDateTime, formatNumber, Loading, PageTitle } from '../components/ui';
import { fetchLive, LIVE_REFRESH_MS, PERIOD_DAYS, PERIODS, periodWords, type Period } from '../link-page/api';
import { Breakdown } from '../link-page/Breakdown';
import { ClicksChart } from '../link-page/ClicksChart';
import { QrPanel } from '../link-page/QrPanel';
import { RecentClicks } from '../link-page/RecentClicks';
import { DestinationClicks } from '../link-page/DestinationClicks';
import { DisabledNotice, LinkActions } from '../link-page/LinkActions';
import { disabledReasonOf } from '../links/api';
import { countryName, dailyPoints, hourlyPoints } from '../link-page/series';
import { TrustPanel } from '../link-page/TrustPanel';
import { useProfile } from '../profile';
import { RoutingSection } from '../routing/RoutingSection';

function Stat({ label, value }: { label: string; value: number | undefined }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="sm" c="dimmed" id={`stat-${label.replace(/\W+/g, '-').toLowerCase()}`}>
        {label}
      </Text>
      <Text fz={28} fw={700} aria-labelledby={`stat-${label.replace(/\W+/g, '-').toLowerCase()}`} data-testid={label}>
        {value === undefined ? '…' : formatNumber(value)}
      </Text>
    </Paper>
  );
}

export function LinkPage() {
  const shortPath = useParams()['*'] ?? '';
  const profile = useProfile();
  const [period, setPeriod] = useState<Period>('7d');
  const link = useQuery({ queryKey: ['link', shortPath], queryFn: () => snip.get('/api/links/{shortPath}', { params: shortPathParams(shortPath) }) });
  // One query for every number on the page, asked again every few seconds while the tab is in sight: the totals and
  // the period's counts always come from one reading, and a period switch reads both again. Until the new period's
  // answer comes the previous one stays, labelled with its own period, so a label never sits beside another's number.
  const live = useQuery({
    queryKey: ['link', shortPath, 'live', period],
    queryFn: () => fetchLive(shortPath, period),
    enabled: link.isSuccess,
    refetchInterval: LIVE_REFRESH_MS,
    // Another link's numbers are never a placeholder (the page stays mounted from one link to the next).
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === shortPath ? previous : undefined),
  });

  if (link.isPending) return <Loading label="Loading the link…" />;
  if (link.isError) {
    const missing = link.error instanceof ApiError && link.error.status === 404;
    return (
      <>
        <PageTitle title={missing ? 'Link not found' : 'Could not load the link'} />
        {missing ? <Text>You have no link at {shortPath}.</Text> : <ErrorNotice error={link.error} />}
        <Anchor component={RouterLink} to="/links">
          Back to your links
        </Anchor>
      </>
    );
  }
  const data = link.data;
  const disabledReason = disabledReasonOf(data);
  const historyDays = profile.data?.limits.historyDays ?? 30;
  const shown = live.data;
  const shownPeriod = shown?.period ?? period;
  const points = !shown ? [] : shown.lastDay ? hourlyPoints(shown.lastDay) : dailyPoints(shown.analytics);
  const a = shown?.analytics;
  const stats = shown?.stats;

  return (
    <>
      <Anchor component={RouterLink} to="/links" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden /> All links
        </Group>
      </Anchor>
      <PageTitle
        title={data.fullPath ?? data.shortCode}
        actions={<LinkActions link={data} disabled={disabledReason !== null} />}
        description={
          <Stack gap={4} component="span">
            <Group gap={4} wrap="nowrap" component="span">
              <Text span fw={600} c="indigo" style={{ overflowWrap: 'anywhere' }}>
                {data.url}
              </Text>
              <CopyValue value={data.url} label="Copy short URL" />
            </Group>
            <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
              Redirects to {data.long}
            </Text>
            <Group gap="xs" component="span">
              <Text span size="xs">Created {formatDateTime(data.created)}</Text>
              {data.expiresAt && <Badge size="xs" color="orange" variant="light">Expires {formatDateTime(data.expiresAt)}</Badge>}
              {data.activeFrom && <Badge size="xs" variant="light">Active from {formatDateTime(data.activeFrom)}</Badge>}
              {data.maxClicks !== null && <Badge size="xs" color="orange" variant="light">Max {data.maxClicks} clicks</Badge>}
              {data.tags.map((t) => (
                <Badge key={t} size="xs" variant="outline">{t}</Badge>
              ))}
            </Group>
          </Stack>
        }
      />
      {disabledReason !== null && <DisabledNotice reason={disabledReason} />}
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
          <Stat label="Total clicks" value={stats?.totalClicks} />
          <Stat label={`Clicks in ${periodWords(shownPeriod)}`} value={shown ? (shown.lastDay ?? shown.analytics).totalClicks : undefined} />
          <Stat label={shownPeriod === '24h' ? 'Unique visitors in the last 7 days' : 'Unique visitors'} value={a?.uniqueVisitors} />
        </SimpleGrid>

        <Paper withBorder p="md" radius="md">
          <Group justify="space-between" mb="sm" wrap="wrap">
            <Title order={2} size="h4">
              Clicks over time
            </Title>
            <SegmentedControl
              aria-label="Period"
              value={period}
              onChange={(v) => setPeriod(v as Period)}
              data={PERIODS.map((p) => ({ value: p, label: p, disabled: PERIOD_DAYS[p] > historyDays }))}
            />
          </Group>
          {PERIODS.some((p) => PERIOD_DAYS[p] > historyDays) && (
            <Text size="xs" c="dimmed" mb="xs">
              Your plan keeps {historyDays} days of statistics; longer periods need a higher plan.
            </Text>
          )}
          {live.isError && !shown ? (
            <ErrorNotice error={live.error} title="Statistics unavailable" />
          ) : points.length === 0 ? (
            <Loading label="Loading statistics…" />
          ) : (
            <ClicksChart points={points} label={`Clicks per ${shownPeriod === '24h' ? 'hour, last 24 hours' : `day, last ${PERIOD_DAYS[shownPeriod]} days`}`} />
          )}
        </Paper>

        {a && a.totalClicks === 0 && shownPeriod !== '24h' ? (
          <EmptyState title="No clicks in this period">Share your link: countries, devices and referrers appear here.</EmptyState>
        ) : a ? (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
            <Breakdown title="Countries" counts={a.countryBreakdown} nameOf={countryName} />
            <Breakdown title="Devices" counts={a.deviceBreakdown} />
            <Breakdown title="Browsers" counts={a.browserBreakdown} />
            <Breakdown title="Operating systems" counts={a.osBreakdown} />
            <Breakdown title="Referrers" counts={a.referrerBreakdown} nameOf={(r) => (r === '' || r === 'direct' ? 'Direct' : r)} />
            <Breakdown title="Hours of the day (UTC)" counts={a.hourBreakdown} nameOf={(h) => `${h.padStart(2, '0')}:00`} limit={24} />
          </SimpleGrid>
        ) : null}

        {stats ? <DestinationClicks stats={stats} link={data} /> : null}

        {stats ? <RecentClicks clicks={stats.clicks} /> : null}

        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
          <QrPanel shortPath={shortPath} />
          <TrustPanel shortPath={shortPath} shortUrl={data.url} />
        </SimpleGrid>

        {/* Routing is editing too, and a disabled link cannot be edited. */}
        {disabledReason === null && <RoutingSection link={data} shortPath={shortPath} />}
      </Stack>
    </>
  );
}
