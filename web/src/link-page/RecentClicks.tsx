import { Paper, Table, Title } from '@mantine/core';
import { EmptyState, formatDateTime } from '../components/ui';
import type { RecentClick } from './api';

/** The last 100 clicks (the statistics route keeps no more per answer), newest first. */
export function RecentClicks({ clicks }: { clicks: RecentClick[] }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        Recent clicks
      </Title>
      {clicks.length === 0 ? (
        <EmptyState title="No clicks yet">Share your link: each visit appears here.</EmptyState>
      ) : (
        <Table.ScrollContainer minWidth={560} maxHeight={420} scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Recent clicks' } }}>
          <Table striped stickyHeader>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Time</Table.Th>
                <Table.Th>Place</Table.Th>
                <Table.Th>Device</Table.Th>
                <Table.Th>Browser</Table.Th>
                <Table.Th>Referrer</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {clicks.map((click, i) => (
                <Table.Tr key={`${click.timestamp}-${i}`}>
                  <Table.Td>{formatDateTime(click.timestamp)}</Table.Td>
                  <Table.Td>{[click.city, click.country].filter(Boolean).join(', ') || '—'}</Table.Td>
                  <Table.Td>{click.device ?? '—'}</Table.Td>
                  <Table.Td>{[click.browser, click.os].filter(Boolean).join(' on ') || '—'}</Table.Td>
                  <Table.Td style={{ maxWidth: 220, overflowWrap: 'anywhere' }}>{click.referrer || 'direct'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
