import { Group, Progress, Stack, Text } from '@mantine/core';
import { percentOf } from './plan-format';

/**
 * One "used of allowed" line with its bar. The bar is a progressbar named by `label`; its value is rounded to one
 * decimal because Mantine reads the raw number out as the bar's spoken text. Without a limit there is no bar, and
 * `noLimit` says why (a plan without the limit, or a cap the account chose not to set).
 */
export function UsageMeter({
  label,
  used,
  limit,
  usedText,
  limitText,
  noLimit = 'No limit on this plan.',
  warnAt = 80,
}: {
  label: string;
  used: number;
  limit: number | null;
  usedText: string;
  limitText: string;
  noLimit?: string;
  warnAt?: number;
}) {
  const value = limit === null ? 0 : Math.round(percentOf(used, limit) * 10) / 10;
  const color = limit !== null && used > limit ? 'red' : value >= warnAt ? 'orange' : 'indigo';
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Text size="sm" c="dimmed">
          {limit === null ? usedText : `${usedText} of ${limitText}`}
        </Text>
      </Group>
      {limit === null ? (
        <Text size="xs" c="dimmed">
          {noLimit}
        </Text>
      ) : (
        <Progress value={value} color={color} size="md" aria-label={label} />
      )}
    </Stack>
  );
}
