import { Button, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatNumber, Loading } from '../components/ui';
import { AdminError } from './AdminError';
import { adminApi, adminKeys } from './api';
import type { ServerStatus } from './types';

const DATABASES: Record<ServerStatus['database'], string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const REDIS: Record<ServerStatus['redis'], string> = { connected: 'Connected', unavailable: 'Unavailable', 'not configured': 'Not configured' };

function facts(status: ServerStatus): [string, string, string?][] {
  return [
    ['Version', status.version],
    ['Database', DATABASES[status.database] ?? status.database],
    ['Redis', REDIS[status.redis] ?? status.redis, status.redis === 'unavailable' ? 'Configured but not answering: redirects still work, from this server alone.' : undefined],
    ['Click-journal lag', formatNumber(status.journalLag), 'Clicks recorded but not yet written to the database'],
    ['Webhook backlog', formatNumber(status.webhookBacklog), 'Deliveries waiting to be sent'],
    ['Accounts', formatNumber(status.accounts)],
    ['Links', formatNumber(status.links)],
  ];
}

/** The server's health at a glance, read again every 15 seconds while shown. */
export function StatusSection() {
  const status = useQuery({ queryKey: adminKeys.status, queryFn: adminApi.status, refetchInterval: 15_000 });
  if (status.isPending) return <Loading label="Loading the server's status…" />;
  if (status.isError) return <AdminError error={status.error} title="Could not read the server's status" />;
  return (
    <Stack gap="sm">
      <SimpleGrid component="dl" cols={{ base: 1, xs: 2, md: 4 }} spacing="xs" m={0}>
        {facts(status.data).map(([label, value, note]) => (
          <Paper key={label} withBorder p="sm" radius="md">
            <Text component="dt" size="sm" fw={600}>
              {label}
            </Text>
            <Text component="dd" m={0} size="lg" fw={700} data-testid={label}>
              {value}
            </Text>
            {note && (
              <Text component="dd" m={0} size="xs">
                {note}
              </Text>
            )}
          </Paper>
        ))}
      </SimpleGrid>
      <Group>
        <Button variant="default" size="xs" onClick={() => void status.refetch()} loading={status.isFetching}>
          Refresh status
        </Button>
      </Group>
    </Stack>
  );
}
