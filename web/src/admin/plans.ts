import type { Tier } from '../session';

/** The plans an operator can give, in order (the values the API takes). */
export const TIERS: Tier[] = ['free', 'pro', 'builder', 'enterprise'];
/** A plan's name, as data for the operator choosing one (never to gate a feature on). */
export const planLabel = (tier: Tier): string => tier[0]!.toUpperCase() + tier.slice(1);
export const PLAN_OPTIONS = TIERS.map((tier) => ({ value: tier, label: planLabel(tier) }));
export const isTier = (value: unknown): value is Tier => TIERS.includes(value as Tier);

/** "1 link", "3 links". */
export const count = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString()} ${n === 1 ? one : many}`;
