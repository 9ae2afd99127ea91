import { limitsOf, tierAtLeast, tierLabel, type Plans, type Tier } from '../plans.js';
import { actsAsOperator, type Caller } from '../caller.js';
import { AppError, errors } from '../errors.js';
import { rateLimitHeaders, type LimitState, type UsageService } from '../usage/service.js';

/** What admission asks of the usage counters (src/usage/service.ts): to charge a request, refundably. */
export type RequestCharges = Pick<UsageService, 'chargeRequest'>;

/**
 * Who may call an operation and what a call costs, whatever the surface (REST A, REST B, an MCP tool):
 * `api` needs the plan's API access (Pro and up by default), a tier needs that tier or above, `any` is every
 * account. Every call of an operation that needs more than `any` counts against the hourly and monthly API
 * quotas; `bulk` calls also against bulk requests per hour; every call against requests per minute.
 */
export interface Policy {
  minTier: 'any' | 'api' | Tier;
  bulk?: boolean;
  /** The 403 code a route family uses for "upgrade needed" (default TIER_REQUIRED). */
  tierCode?: string;
  /**
   * Anyone may call it over REST, without a key (the trust score): such a route is neither authenticated nor charged.
   * Over MCP, where every call has a key, it is an `any` operation like the others.
   */
  public?: true;
  /**
   * One of the operator's admin operations: only an operator may call it, from the dashboard or with a key made with
   * the admin scope; never over MCP or an OAuth grant (src/caller.ts `actsAsOperator`).
   */
  operator?: true;
}

export interface Admission {
  /** The window closest to running out, for X-RateLimit-* headers; null when nothing is limited. */
  state: LimitState | null;
  /** Gives the charge back; see `settle`. */
  refund: () => Promise<void>;
}

/** The 403 for a caller whose plan is below the policy's, or null when the plan suffices. */
export function tierRefusal(plans: Plans, caller: Caller, policy: Policy): AppError | null {
  if (policy.operator) return actsAsOperator(caller) ? null : errors.operatorRequired();
  if (policy.minTier === 'any' || caller.role === 'operator') return null;
  // API access is what a plan sells for keys; a signed-in browser (the dashboard) uses the same operations without it.
  if (policy.minTier === 'api') return limitsOf(plans, caller).apiAccess || caller.via === 'session' ? null : errors.tierRequired('Pro', policy.tierCode);
  return tierAtLeast(caller.tier, policy.minTier) ? null : errors.tierRequired(tierLabel(policy.minTier), policy.tierCode);
}

/**
 * Admits one call: the plan check, then the one charge every surface makes for it. Throws the 403 or the 429;
 * a refused call is charged nothing.
 */
export async function admit(plans: Plans, usage: RequestCharges, caller: Caller, policy: Policy): Promise<Admission> {
  const refusal = tierRefusal(plans, caller, policy);
  if (refusal) throw refusal;
  // The plan's request quotas (per minute, hour and month) count API use. A page of the dashboard makes several
  // calls at once, so a session is limited per client address instead (src/http/access.ts); every other limit
  // (links per day, bulk requests per hour, folders, ...) counts as for a key.
  const viaKey = caller.via !== 'session';
  return usage.chargeRequest(caller, { apiQuota: viaKey && policy.minTier !== 'any', perMinute: viaKey, bulk: policy.bulk === true });
}

/** A call that ends refused for a limit (a 429, such as the daily link limit checked later) costs nothing. */
export async function settle(error: unknown, admission: Pick<Admission, 'refund'> | null): Promise<void> {
  if (admission && error instanceof AppError && error.status === 429) await admission.refund();
}

/** The X-RateLimit-* headers of an admitted call, for the limit it came closest to; none when nothing limits it. */
export const admissionHeaders = (admission: Pick<Admission, 'state'>): Record<string, string> => (admission.state ? rateLimitHeaders(admission.state) : {});
