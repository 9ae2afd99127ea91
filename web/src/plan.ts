import { useProfile, type Profile } from './profile';
import type { SessionAccount } from './session';

/**
 * What the signed-in account's plan allows, as the server answers it (GET /api/user `limits`; null: unlimited).
 * Pages gate features on these capabilities, never on tier names: an operator may redefine every plan
 * (PLANS_FILE), and an operator's own account has no plan limits, which the server answers as unlimited.
 */
export type PlanLimits = Profile['limits'];

/** A capability read from the limits, such as `(limits) => limits.domains !== 0`. */
export type Capability = (limits: PlanLimits) => boolean;

export interface PlanLimitsState {
  /** The plan's limits; undefined while loading or when the profile could not be read. */
  limits: PlanLimits | undefined;
  isPending: boolean;
  error: unknown;
}

/** The signed-in account's plan limits (pages behind RequireSession only). */
export function usePlanLimits(): PlanLimitsState {
  const profile = useProfile();
  return { limits: profile.data?.limits, isPending: profile.isPending, error: profile.error };
}

/**
 * True, false, or undefined while the limits are not known. A failed read answers undefined too: the page then
 * lets the API's own refusal speak rather than hiding a feature the plan may allow.
 */
export function useAllows(allows: Capability): boolean | undefined {
  const { limits } = usePlanLimits();
  return limits ? allows(limits) : undefined;
}

/** The name of the account's plan, for showing as data (never for gating). */
export function planName(account: Pick<SessionAccount, 'tier'> & { role?: SessionAccount['role'] }): string {
  if (account.role === 'operator') return 'Operator, no plan limits';
  return account.tier[0]!.toUpperCase() + account.tier.slice(1);
}

/** "Custom domains" as it reads inside a sentence ("custom domains"); "API access" keeps its capitals. */
export const inSentence = (feature: string): string => (/^[A-Z]{2}/.test(feature) ? feature : feature[0]!.toLowerCase() + feature.slice(1));
