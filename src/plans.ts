import fs from 'node:fs';
import { KindGuard, Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value, ValuePointer } from '@sinclair/typebox/value';

export const TIERS = ['free', 'pro', 'builder', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export const isTier = (value: string): value is Tier => (TIERS as readonly string[]).includes(value);

/** True when `tier` is `needed` or above it. */
export const tierAtLeast = (tier: Tier, needed: Tier): boolean => TIERS.indexOf(tier) >= TIERS.indexOf(needed);

export const tierLabel = (tier: Tier): string => tier[0]!.toUpperCase() + tier.slice(1);

/** The lowest tier whose plan has `feature` (what a refusal tells the caller to move to); null when no plan has it. */
export const lowestTierWith = (plans: Plans, feature: (plan: PlanLimits) => boolean): Tier | null => TIERS.find((tier) => feature(plans[tier])) ?? null;

const Limit = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]);

/** Every limit of a plan; `null` means unlimited. */
export const PlanLimitsSchema = Type.Object({
  apiAccess: Type.Boolean(),
  customSlugs: Type.Boolean(),
  /** App targets on links (web2app: `appLinks`). */
  appLinks: Type.Boolean(),
  requestsPerHour: Limit,
  requestsPerMonth: Limit,
  requestsPerMinute: Limit,
  linksPerDay: Limit,
  bulkRequestsPerHour: Limit,
  trackedClicksPerMonth: Limit,
  historyDays: Type.Integer({ minimum: 1 }),
  webhooks: Limit,
  folders: Limit,
  domains: Limit,
  /** Price of tracked clicks beyond the monthly limit, in US cents per 1,000; null: no paid overage (grace). */
  overageCentsPer1000: Limit,
  /** Default monthly cap on the overage charge in cents; null or 0: no cap. */
  overageCapCents: Limit,
});
export type PlanLimits = Static<typeof PlanLimitsSchema>;
export type Plans = Record<Tier, PlanLimits>;

/** The limits an account works under: its plan's, or none for an operator. Every limit check asks this. */
export function limitsOf(plans: Plans, who: { tier: string; role?: string | null }): PlanLimits {
  if (who.role === 'operator') return OPERATOR_LIMITS;
  return plans[isTier(who.tier) ? who.tier : 'free'];
}

/** The plans of spec section 8 (the defaults an operator's PLANS_FILE may override). */
export const DEFAULT_PLANS: Plans = {
  free: {
    apiAccess: false,
    customSlugs: false,
    appLinks: false,
    requestsPerHour: 0,
    requestsPerMonth: 0,
    requestsPerMinute: 30,
    linksPerDay: 25,
    bulkRequestsPerHour: 0,
    trackedClicksPerMonth: 1_000,
    historyDays: 30,
    webhooks: 0,
    folders: 5,
    domains: 0,
    overageCentsPer1000: null,
    overageCapCents: null,
  },
  pro: {
    apiAccess: true,
    customSlugs: true,
    appLinks: true,
    requestsPerHour: 50,
    requestsPerMonth: 1_000,
    requestsPerMinute: 300,
    linksPerDay: 10_000,
    bulkRequestsPerHour: 10,
    trackedClicksPerMonth: 50_000,
    historyDays: 90,
    webhooks: 2,
    folders: null,
    domains: 3,
    overageCentsPer1000: 15,
    overageCapCents: 1_000,
  },
  builder: {
    apiAccess: true,
    customSlugs: true,
    appLinks: true,
    requestsPerHour: 500,
    requestsPerMonth: 10_000,
    requestsPerMinute: 1_000,
    linksPerDay: null,
    bulkRequestsPerHour: 50,
    trackedClicksPerMonth: 500_000,
    historyDays: 365,
    webhooks: 10,
    folders: null,
    domains: 10,
    overageCentsPer1000: 15,
    overageCapCents: null,
  },
  enterprise: {
    apiAccess: true,
    customSlugs: true,
    appLinks: true,
    requestsPerHour: null,
    requestsPerMonth: null,
    requestsPerMinute: null,
    linksPerDay: null,
    bulkRequestsPerHour: null,
    trackedClicksPerMonth: null,
    historyDays: 365,
    webhooks: null,
    folders: null,
    domains: null,
    overageCentsPer1000: null,
    overageCapCents: null,
  },
};

/**
 * What an operator's own account may do: no plan limits (issue 29), whatever its tier says or a PLANS_FILE makes of
 * Enterprise; history as long as a click is kept.
 */
const OPERATOR_LIMITS: PlanLimits = { ...DEFAULT_PLANS.enterprise, historyDays: 3650 };

const PlansFileSchema = Type.Partial(
  Type.Object(Object.fromEntries(TIERS.map((t) => [t, Type.Partial(PlanLimitsSchema, { additionalProperties: false })]))),
  { additionalProperties: false },
);

/** What `null` means for a limit: unlimited, but for the overage settings, which it turns off. */
const NULL_MEANS: Partial<Record<string, string>> = { overageCentsPer1000: 'no paid overage', overageCapCents: 'no overage cap' };

/** What a setting takes, in an operator's words, read from its schema. */
function expected(setting: string, schema: TSchema): string {
  if (KindGuard.IsBoolean(schema)) return 'true or false';
  if (KindGuard.IsInteger(schema)) return `a whole number of ${schema.minimum} or more`;
  if (KindGuard.IsUnion(schema)) {
    const value = schema.anyOf.find((s) => !KindGuard.IsNull(s))!;
    return `${expected(setting, value)}, or null for ${NULL_MEANS[setting] ?? 'unlimited'}`;
  }
  return 'valid';
}

/** The first problem of a plans file, naming the plan and the setting, as `pro.requestsPerHour must be ...`. */
function problemOf(parsed: unknown): string {
  const [tier, setting] = [...ValuePointer.Format(Value.Errors(PlansFileSchema, parsed).First()?.path ?? '')];
  if (tier === undefined) return 'the file must be a JSON object of plans, like {"pro": {"requestsPerHour": 100}}';
  if (!isTier(tier)) return `unknown plan "${tier}"; the plans are ${TIERS.join(', ')}`;
  if (setting === undefined) return `${tier} must be an object of settings, like {"requestsPerHour": 100}`;
  const schema = PlanLimitsSchema.properties[setting as keyof PlanLimits] as TSchema | undefined;
  if (!schema) return `unknown setting ${tier}.${setting}; the settings are ${Object.keys(PlanLimitsSchema.properties).join(', ')}`;
  return `${tier}.${setting} must be ${expected(setting, schema)}`;
}

/**
 * Reads an operator's plans file: JSON like {"pro": {"requestsPerHour": 100}}; what it names replaces the
 * default, the rest stays. Throws with a readable reason (the caller names the setting).
 */
export function loadPlans(file: string | null): Plans {
  if (!file) return DEFAULT_PLANS;
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (!Value.Check(PlansFileSchema, parsed)) throw new Error(`${file}: ${problemOf(parsed)}`);
  const overrides = parsed as Partial<Record<Tier, Partial<PlanLimits>>>;
  return Object.fromEntries(TIERS.map((t) => [t, { ...DEFAULT_PLANS[t], ...overrides[t] }])) as Plans;
}
