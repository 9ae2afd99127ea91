import { Anchor, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorNotice, formatDateTime } from '../components/ui';
import { fetchTrust } from './api';

const COLORS = { safe: 'teal', warning: 'yellow', unsafe: 'red' } as const;

/** The public trust score of the destination, and the preview page visitors can open by adding `+`. */
export function TrustPanel({ shortPath, shortUrl }: { shortPath: string; shortUrl: string }) {
  const trust = useQuery({ queryKey: ['trust', shortPath], queryFn: () => fetchTrust(shortPath) });
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        Trust
      </Title>
      {trust.isError ? (
        <ErrorNotice error={trust.error} title="Trust score unavailable" />
      ) : (
        <Stack gap="xs">
          <Group gap="xs">
            <Text size="sm">Status</Text>
            {trust.data?.trustStatus ? (
              <Badge color={COLORS[trust.data.trustStatus]}>{trust.data.trustStatus}</Badge>
            ) : (
              <Badge color="gray">{trust.isPending ? 'checking' : 'not scanned yet'}</Badge>
            )}
            {trust.data?.trustScore !== null && trust.data?.trustScore !== undefined && <Text size="sm">score {trust.data.trustScore} / 100</Text>}
          </Group>
          {trust.data?.threats.length ? <Text size="sm">Threats: {trust.data.threats.join(', ')}</Text> : null}
          {trust.data?.scannedAt && (
            <Text size="xs" c="dimmed">
              Scanned {formatDateTime(trust.data.scannedAt)}
              {trust.data.source ? ` by ${trust.data.source}` : ''}
            </Text>
          )}
          <Anchor href={`${shortUrl}+`} target="_blank" rel="noopener noreferrer" size="sm">
            Open the preview page
          </Anchor>
        </Stack>
      )}
    </Paper>
  );
}
