import { Text } from '@mantine/core';
import { formatNumber } from '../components/ui';

/** "2 of 5 webhooks": the list's count against the plan's maximum (null: no maximum). */
export function WebhooksCount({ used, limit }: { used: number; limit: number | null }) {
  const noun = (n: number) => (n === 1 ? 'webhook' : 'webhooks');
  return (
    <Text size="sm" c="dimmed" data-testid="webhooks-count">
      {limit === null ? `${formatNumber(used)} ${noun(used)} (no maximum on your plan)` : `${formatNumber(used)} of ${formatNumber(limit)} ${noun(limit)}`}
    </Text>
  );
}
