export const TIERS = ['free', 'pro', 'builder', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export const isTier = (value: string): value is Tier => (TIERS as readonly string[]).includes(value);

/** True when `tier` is `needed` or above it. */
export const tierAtLeast = (tier: Tier, needed: Tier): boolean => TIERS.indexOf(tier) >= TIERS.indexOf(needed);

export const tierLabel = (tier: Tier): string => tier[0]!.toUpperCase() + tier.slice(1);

/** `null` means unlimited. */
export interface PlanLimits {
  apiAccess: boolean;
  customSlugs: boolean;
  requestsPerHour: number | null;
  requestsPerMonth: number | null;
  requestsPerMinute: number | null;
  linksPerDay: number | null;
  bulkRequestsPerHour: number | null;
  trackedClicksPerMonth: number | null;
  historyDays: number;
  webhooks: number | null;
  folders: number | null;
}

/** The plans of spec section 8; limits a later feature does not enforce yet are still shown to the account. */
export const PLANS: Record<Tier, PlanLimits> = {
  free: {
    apiAccess: false,
    customSlugs: false,
    requestsPerHour: 0,
    requestsPerMonth: 0,
    requestsPerMinute: 30,
    linksPerDay: 25,
    bulkRequestsPerHour: 0,
    trackedClicksPerMonth: 1_000,
    historyDays: 30,
    webhooks: 0,
    folders: 5,
  },
  pro: {
    apiAccess: true,
    customSlugs: true,
    requestsPerHour: 50,
    requestsPerMonth: 1_000,
    requestsPerMinute: 300,
    linksPerDay: 10_000,
    bulkRequestsPerHour: 10,
    trackedClicksPerMonth: 50_000,
    historyDays: 90,
    webhooks: 2,
    folders: null,
  },
  builder: {
    apiAccess: true,
    customSlugs: true,
    requestsPerHour: 500,
    requestsPerMonth: 10_000,
    requestsPerMinute: 1_000,
    linksPerDay: null,
    bulkRequestsPerHour: 50,
    trackedClicksPerMonth: 500_000,
    historyDays: 365,
    webhooks: 10,
    folders: null,
  },
  enterprise: {
    apiAccess: true,
    customSlugs: true,
    requestsPerHour: null,
    requestsPerMonth: null,
    requestsPerMinute: null,
    linksPerDay: null,
    bulkRequestsPerHour: null,
    trackedClicksPerMonth: null,
    historyDays: 365,
    webhooks: null,
    folders: null,
  },
};
