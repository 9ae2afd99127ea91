import { limitsOf, type Plans } from '../plans.js';
import { cycleOf, decide, type Decision } from '../usage/tracked-clicks.js';
import type { AccountClickState, ClickBatch } from './repository.js';
import type { Visit } from './visit.js';

/**
 * Judges each visit, in order, against its account's tracked-click allowance (track, grace or pause), and says
 * what usage to add: the rules of spec 3.3, with no I/O (`states` are the accounts' rows, by cycle).
 */
export function judgeAllowance(
  visits: readonly Pick<Visit, 'accountId' | 'atMs'>[],
  states: ReadonlyMap<string, readonly AccountClickState[]>,
  plans: Plans,
): { decisions: Decision[]; usage: ClickBatch['usage'] } {
  type Running = { tracked: number; added: number; graceStartedAtMs: number | null; graceStartedNow: boolean; tier: string; role: string; cap: number | null };
  const running = new Map<string, Running>();
  for (const [cycle, rows] of states) {
    for (const s of rows) {
      running.set(`${s.account_id}|${cycle}`, {
        tracked: s.tracked_clicks,
        added: 0,
        graceStartedAtMs: s.grace_started_at ? Date.parse(s.grace_started_at) : null,
        graceStartedNow: false,
        tier: s.tier,
        role: s.role,
        cap: s.overage_limit_cents,
      });
    }
  }
  const decisions = visits.map((v) => {
    const state = running.get(`${v.accountId}|${cycleOf(v.atMs)}`);
    if (!state) return 'pause' as const; // the account is gone
    const plan = limitsOf(plans, state);
    const included = plan.trackedClicksPerMonth;
    const decision =
      included === null || state.tracked < included
        ? 'track'
        : decide({ plan, accountCapCents: state.cap, tracked: state.tracked, graceStartedAtMs: state.graceStartedAtMs }, v.atMs);
    if (decision === 'pause') return decision;
    state.tracked += 1;
    state.added += 1;
    if (decision === 'grace' && state.graceStartedAtMs === null) {
      state.graceStartedAtMs = v.atMs;
      state.graceStartedNow = true;
    }
    return decision;
  });
  const usage: ClickBatch['usage'] = [];
  for (const [key, s] of running) {
    if (s.added === 0 && !s.graceStartedNow) continue;
    const [accountId, cycle] = key.split('|') as [string, string];
    usage.push({
      account_id: accountId,
      cycle,
      tracked: s.added,
      grace_started_at: s.graceStartedNow && s.graceStartedAtMs !== null ? new Date(s.graceStartedAtMs).toISOString() : null,
    });
  }
  return { decisions, usage };
}
