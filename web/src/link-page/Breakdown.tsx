import { Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { formatNumber } from '../components/ui';

/** One breakdown (country, device, ...) as labelled bars, largest first. */
export function Breakdown({ title, counts, nameOf = (k) => k, limit = 8 }: { title: string; counts: Record<string, number>; nameOf?: (key: string) => string; limit?: number }) {
  const entries = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1]);
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={3} size="h5" mb="sm">
        {title}
      </Title>
      {entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          No clicks in this period
        </Text>
      ) : (
        <Stack gap={8}>
          {entries.slice(0, limit).map(([key, n]) => (
            <div key={key}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm" truncate>
                  {nameOf(key)}
                </Text>
                <Text size="sm" c="dimmed">
                  {formatNumber(n)}
                </Text>
              </Group>
              <Progress value={(n / total) * 100} size="sm" aria-label={`${nameOf(key)}: ${n} of ${total} clicks`} />
            </div>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
