import { formatNumber } from '../components/ui';

/** A plan limit in words: the API sends null for unlimited. */
export const limitText = (value: number | null): string => (value === null ? 'Unlimited' : formatNumber(value));

const usd = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });
/** US cents as dollars ("$10.00"). */
export const dollars = (cents: number): string => usd.format(cents / 100);

/** Share of `limit` used, for a Progress bar (0-100). */
export const percentOf = (used: number, limit: number): number => (limit <= 0 ? 100 : Math.min(100, (used / limit) * 100));
