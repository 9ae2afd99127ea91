import { Text } from '@mantine/core';
import { formatNumber } from '../components/ui';

const usd = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });

/** "1 of 3 domains · included in your plan": the plan's maximum (null: no maximum) and the list's monthly price. */
export function DomainsSummary({ used, limit, monthlyPrice }: { used: number; limit: number | null | undefined; monthlyPrice: number | undefined }) {
  const domains = (n: number) => (n === 1 ? 'domain' : 'domains');
  // "1 domain", "0 of 1 domain", "1 of 3 domains": the noun agrees with the number it follows last.
  const count =
    limit === undefined
      ? `${formatNumber(used)} ${domains(used)}`
      : limit === null
        ? `${formatNumber(used)} ${domains(used)} (no maximum on your plan)`
        : `${formatNumber(used)} of ${formatNumber(limit)} ${domains(limit)}`;
  const price = monthlyPrice === undefined ? '' : monthlyPrice === 0 ? ' · Monthly price: included in your plan' : ` · Monthly price: ${usd.format(monthlyPrice)}`;
  return (
    <Text size="sm" c="dimmed" data-testid="domains-summary">
      {count}
      {price}
    </Text>
  );
}
