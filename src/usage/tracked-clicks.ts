import type { PlanLimits } from '../plans.js';

export const GRACE_DAYS = 7;
const DAY_MS = 86_400_000;

let lastCycle = { fromMs: 0, toMs: -1, text: '' };

/** The billing cycle of a moment: the calendar month in UTC, as `YYYY-MM` (remembered: it changes monthly). */
export function cycleOf(ms: number): string {
  if (ms < lastCycle.fromMs || ms >= lastCycle.toMs) {
    const d = new Date(ms);
    lastCycle = {
      fromMs: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1),
      toMs: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
      text: d.toISOString().slice(0, 7),
    };
  }
  return lastCycle.text;
}

export function cycleBounds(cycle: string): { start: string; end: string } {
  const [year, month] = cycle.split('-').map(Number) as [number, number];
  return { start: new Date(Date.UTC(year, month - 1, 1)).toISOString(), end: new Date(Date.UTC(year, month, 1)).toISOString() };
}

/** An account's tracked-click position in the current cycle. */
export interface TrackedState {
  plan: PlanLimits;
  /** The account's own cap (POST /subscription/overage-limit), or null for the plan's default. */
  accountCapCents: number | null;
  tracked: number;
  graceStartedAtMs: number | null;
}

/** What happens to the next click: recorded, recorded but hidden (grace), or not recorded (paused). */
export type Decision = 'track' | 'grace' | 'pause';

/** The cap in force, in cents; null when there is none (0 means "no cap"). */
export function effectiveCapCents(plan: PlanLimits, accountCapCents: number | null): number | null {
  const cap = accountCapCents ?? plan.overageCapCents;
  return cap ? cap : null;
}

/** Overage charge so far in cents (fractional): clicks beyond the included ones, priced per 1,000. */
export function overageChargeCents(plan: PlanLimits, tracked: number): number {
  if (plan.trackedClicksPerMonth === null || plan.overageCentsPer1000 === null) return 0;
  return (Math.max(0, tracked - plan.trackedClicksPerMonth) * plan.overageCentsPer1000) / 1000;
}

/**
 * Spec 3.3: within the included clicks, record. Beyond them, plans with paid overage record until the overage
 * charge would pass the cap, then pause; plans without (Free) record into a grace period of up to 7 days whose
 * clicks stay hidden, then pause. Links redirect in every case.
 */
export function decide(state: TrackedState, nowMs: number): Decision {
  const included = state.plan.trackedClicksPerMonth;
  if (included === null || state.tracked < included) return 'track';
  if (state.plan.overageCentsPer1000 !== null) {
    const cap = effectiveCapCents(state.plan, state.accountCapCents);
    return cap === null || overageChargeCents(state.plan, state.tracked + 1) <= cap ? 'track' : 'pause';
  }
  const started = state.graceStartedAtMs ?? nowMs;
  return nowMs - started < GRACE_DAYS * DAY_MS ? 'grace' : 'pause';
}

/**
 * How many more clicks `decide` records as tracked from `state` on, whatever their time: Infinity without a limit or
 * a cap. The click recorder folds that many of an account's visits without judging each (src/clicks/open-batch.ts).
 */
export function trackableAhead(state: TrackedState): number {
  const { plan, tracked } = state;
  const included = plan.trackedClicksPerMonth;
  if (included === null) return Infinity;
  const within = Math.max(0, included - tracked);
  const per1000 = plan.overageCentsPer1000;
  if (per1000 === null) return within;
  const cap = effectiveCapCents(plan, state.accountCapCents);
  if (cap === null || per1000 <= 0) return Infinity;
  let ahead = Math.max(within, included + Math.floor((cap * 1000) / per1000) - tracked);
  // The division is in floating point, decide's comparison too: the boundary is what decide says it is.
  const tracks = (n: number) => decide({ ...state, tracked: n }, 0) === 'track';
  while (ahead > 0 && !tracks(tracked + ahead - 1)) ahead -= 1;
  while (tracks(tracked + ahead)) ahead += 1;
  return ahead;
}
