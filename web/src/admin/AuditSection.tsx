import { Button, Paper, Stack, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { EmptyState, formatDateTime, Loading } from '../components/ui';
import { AdminError } from './AdminError';
import { adminApi, adminKeys } from './api';
import { actionText } from './audit-words';

/**
 * Every operator action, newest first, page by page. The table wraps its cells instead of scrolling sideways, so
 * a phone and a keyboard reach every entry; on a phone the target joins the action's cell, as three columns fit.
 */
export function AuditSection() {
  const log = useInfiniteQuery({
    queryKey: adminKeys.audit,
    queryFn: ({ pageParam }) => adminApi.audit(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next ?? undefined,
  });
  if (log.isPending) return <Loading label="Loading the audit log…" />;
  if (log.isError) return <AdminError error={log.error} title="Could not load the audit log" />;
  const entries = log.data.pages.flatMap((page) => page.entries);
  if (entries.length === 0) return <EmptyState title="No operator actions yet">Changes made here or with the command line are listed as they happen.</EmptyState>;
  return (
    <Stack gap="sm">
      <Paper withBorder radius="md">
        <Table aria-label="Audit log" verticalSpacing="xs" style={{ overflowWrap: 'anywhere' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Who</Table.Th>
              <Table.Th>Action</Table.Th>
              <Table.Th visibleFrom="sm">Target</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((entry) => (
              <Table.Tr key={entry.id}>
                <Table.Td>{formatDateTime(entry.at)}</Table.Td>
                <Table.Td>{entry.actor}</Table.Td>
                <Table.Td>
                  {actionText(entry)}
                  {entry.target && (
                    <Text hiddenFrom="sm" size="sm" mt={4}>
                      {entry.target}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td visibleFrom="sm">{entry.target ?? '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
      {log.hasNextPage && (
        <Button variant="default" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage} style={{ alignSelf: 'flex-start' }}>
          Load more
        </Button>
      )}
    </Stack>
  );
}
