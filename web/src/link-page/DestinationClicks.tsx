import { Paper, Progress, Stack, Table, Text, Title } from '@mantine/core';
import type { LinkStats } from './api';
import type { Link } from '../links/api';

/** What each destination is to the owner: a variant with its weight, a rule, or the link's own destination. */
function roleOf(url: string, link: Pick<Link, 'url' | 'long' | 'rules' | 'variants'>): string {
  const variant = link.variants?.findIndex((v) => v.url === url) ?? -1;
  if (variant >= 0) return `Variant ${String.fromCharCode(65 + variant)} (${link.variants![variant]!.weight}%)`;
  const rule = link.rules?.findIndex((r) => r.url === url) ?? -1;
  if (rule >= 0) return `Rule ${rule + 1}`;
  return url === link.long ? 'Destination' : 'Earlier destination';
}

/**
 * Counted clicks per destination reached (the statistics' byDestination), so an A/B test reads side by side: shown
 * for links with rules or variants.
 */
export function DestinationClicks({ stats, link }: { stats: Pick<LinkStats, 'byDestination' | 'totalClicks'>; link: Pick<Link, 'url' | 'long' | 'rules' | 'variants'> }) {
  if (!link.rules && !link.variants) return null;
  const total = stats.byDestination.reduce((n, d) => n + d.clicks, 0);
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        Clicks by destination
      </Title>
      {total === 0 ? (
        <Text size="sm">No clicks yet: each destination's clicks appear here, side by side.</Text>
      ) : (
        <Table.ScrollContainer minWidth={320} scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Clicks per destination' } }}>
          <Table aria-label="Clicks by destination">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Destination</Table.Th>
                <Table.Th>Clicks</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {stats.byDestination.map((d) => (
                <Table.Tr key={d.url}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <Stack gap={2}>
                      <Text size="sm" fw={600}>{roleOf(d.url, link)}</Text>
                      <Text size="xs">{d.url}</Text>
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {d.clicks} ({Math.round((100 * d.clicks) / total)}%)
                    </Text>
                    <Progress value={(100 * d.clicks) / total} aria-label={`${roleOf(d.url, link)}: ${Math.round((100 * d.clicks) / total)}% of clicks`} size="sm" />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
