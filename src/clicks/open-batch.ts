import { limitsOf, type Plans } from '../plans.js';
import type { DomainEvents } from '../events/bus.js';
import { trackableAhead, type TrackedState } from '../usage/tracked-clicks.js';
import { judgeAllowance } from './allowance.js';
import { ClickBatchBuilder, emptyClickBatch, finishClickBatch, gently } from './click-batch.js';
import type { AccountClickState, ClickBatch } from './repository.js';
import type { Visit } from './visit.js';
import { allowanceKey, foldedOf, type FoldedVisit } from './visit-profile.js';

/** What the recorder learned of an account's allowance in a cycle when it last committed the account's clicks. */
export interface KnownAllowance {
  state: TrackedState;
  /** trackableAhead(state): how many more clicks are tracked for sure. */
  ahead: number;
}

/**
 * How a batch takes an account's visits in one cycle:
 * - `track`: folded in as tracked as they come, while the last known allowance leaves twice as many;
 * - `judge`: kept, and judged one by one at the flush against the account's row (an account not seen lately, near
 *   its limit or past it): what every visit went through before visits were folded. A paused account's visits are
 *   judged too: a raised cap or a new plan records the very next visit.
 */
type Mode = 'track' | 'judge';

interface Part {
  accountId: string;
  cycle: string;
  mode: Mode;
  /** How many visits `track` may fold before the rest are judged. */
  limit: number;
  tracked: number;
  builder: ClickBatchBuilder;
  judge: FoldedVisit[];
}

/** What a closed batch writes, and what it teaches about each account's allowance once it is committed. */
export interface ClosedBatch {
  batch: ClickBatch;
  allowances: Map<string, KnownAllowance>;
}

/**
 * The visits of one flush interval, folded into what their commit writes as each is journaled: the redirect's
 * recording then costs a few map updates per visit (by its profile, src/clicks/visit-profile.ts), and a flush has
 * nothing to build but the visits it must judge.
 * A visit is judged against its account's tracked-click allowance in order (spec 3.3); most accounts are far from
 * their limit, and their visits are folded as tracked on the strength of what the last commit read, then checked at
 * the flush against the account's row, read afresh (docs/decisions.md, Clicks, says what happens in the rare case
 * another instance used the allowance up in between).
 */
export class OpenBatch {
  private readonly parts = new Map<string, Part>();
  private readonly linkClicks = new ClickBatchBuilder();
  private readonly agentClicks = new Map<string, ClickBatch['agentClicks'][number]>();
  /** `link.click` events for the outbox (accounts with a click webhook) and for in-process listeners. */
  readonly events: DomainEvents['link.click'][] = [];
  readonly heard: DomainEvents['link.click'][] = [];
  size = 0;

  constructor(
    private readonly known: (key: string) => KnownAllowance | undefined,
    private readonly wantsEvent: (accountId: string) => boolean,
    private readonly listening: () => boolean,
  ) {}

  /** A visit read back (a journal being recovered, a test). */
  add(v: Visit): void {
    this.fold(foldedOf(v));
  }

  /** A journaled visit: the redirect's recording, a few map updates. */
  fold(v: FoldedVisit): void {
    this.size += 1;
    const p = v.profile;
    if (p.agent !== null) {
      // An agent's visit is only counted, by agent and day.
      const key = `${p.linkId}|${p.day}|${p.agent}`;
      const row = this.agentClicks.get(key);
      if (row) row.clicks += 1;
      else this.agentClicks.set(key, { link_id: p.linkId, account_id: p.accountId, day: p.day, agent: p.agent, clicks: 1 });
      return;
    }
    if (this.wantsEvent(p.accountId)) this.events.push(clickEvent(v));
    if (this.listening()) this.heard.push(clickEvent(v));
    this.linkClicks.count(v);
    let part = this.parts.get(p.allowance);
    if (!part) this.parts.set(p.allowance, (part = this.open(p.accountId, p.cycle, p.allowance)));
    if (part.mode === 'track') {
      if (part.tracked < part.limit) {
        part.tracked += 1;
        part.builder.add(v, false);
        return;
      }
      part.mode = 'judge';
    }
    part.judge.push(v);
  }

  private open(accountId: string, cycle: string, key: string): Part {
    const part: Part = { accountId, cycle, mode: 'judge', limit: 0, tracked: 0, builder: new ClickBatchBuilder(), judge: [] };
    const known = this.known(key);
    if (!known) return part;
    // Half of what was left: another instance may be using the same allowance meanwhile.
    return known.ahead > 1 ? { ...part, mode: 'track', limit: Math.floor(known.ahead / 2) } : part;
  }

  /** The accounts visited, by billing cycle: whose rows the flush reads. */
  accountsByCycle(): Map<string, string[]> {
    const cycles = new Map<string, string[]>();
    for (const { accountId, cycle } of this.parts.values()) {
      const accounts = cycles.get(cycle);
      if (accounts) accounts.push(accountId);
      else cycles.set(cycle, [accountId]);
    }
    return cycles;
  }

  /**
   * What the batch writes, given the visited accounts' rows (by cycle) as they are now: folded visits checked
   * against them, kept visits judged in order after the folded ones. Changes nothing here, so a batch whose commit
   * failed is closed again, against fresh rows, when it is retried.
   */
  async close(states: ReadonlyMap<string, readonly AccountClickState[]>, plans: Plans, nextId: () => string): Promise<ClosedBatch> {
    const rows = new Map<string, AccountClickState>();
    for (const [cycle, list] of states) for (const row of list) rows.set(allowanceKey(row.account_id, cycle), row);
    const builders: ClickBatchBuilder[] = [this.linkClicks];
    const usage: ClickBatch['usage'] = [];
    const allowances = new Map<string, KnownAllowance>();
    let step = 0;
    for (const [key, part] of this.parts) {
      const row = rows.get(key);
      if (!row) continue; // the account is gone: nothing of its visits is recorded
      const state: TrackedState = {
        plan: limitsOf(plans, row),
        accountCapCents: row.overage_limit_cents,
        tracked: row.tracked_clicks,
        graceStartedAtMs: row.grace_started_at ? Date.parse(row.grace_started_at) : null,
      };
      // Folded as tracked: charged for as far as the allowance really went (another instance may have used it).
      const ahead = trackableAhead(state);
      const charged = Math.min(part.tracked, ahead);
      if (part.tracked > 0) builders.push(part.builder);
      const judged = new ClickBatchBuilder();
      let added = charged;
      let graceStartedAt: string | null = null;
      if (part.judge.length > 0) {
        const judging = part.judge.map(({ atMs }) => ({ accountId: part.accountId, atMs }));
        const { decisions, usage: judgedUsage } = judgeAllowance(judging, new Map([[part.cycle, [{ ...row, tracked_clicks: row.tracked_clicks + charged }]]]), plans);
        for (let i = 0; i < part.judge.length; i++) {
          const pause = gently(step++);
          if (pause) await pause;
          const decision = decisions[i]!;
          if (decision !== 'pause') judged.add(part.judge[i]!, decision === 'grace');
        }
        builders.push(judged);
        added += judgedUsage[0]?.tracked ?? 0;
        graceStartedAt = judgedUsage[0]?.grace_started_at ?? null;
      }
      // Where the bound is money (a paid overage with a cap), the commit holds usage to it whatever other instances add.
      const trackedAtMost = state.plan.overageCentsPer1000 !== null && Number.isFinite(ahead) ? state.tracked + ahead : null;
      if (added > 0 || graceStartedAt !== null) usage.push({ account_id: part.accountId, cycle: part.cycle, tracked: added, grace_started_at: graceStartedAt, trackedAtMost });
      const next: TrackedState = {
        ...state,
        tracked: state.tracked + added,
        graceStartedAtMs: state.graceStartedAtMs ?? (graceStartedAt === null ? null : Date.parse(graceStartedAt)),
      };
      allowances.set(key, { state: next, ahead: trackableAhead(next) });
    }
    const batch = emptyClickBatch();
    batch.usage = usage;
    batch.events = this.events;
    batch.agentClicks = [...this.agentClicks.values()];
    return { batch: finishClickBatch(builders, batch, nextId), allowances };
  }
}

export const clickEvent = ({ profile: p, atMs }: FoldedVisit): DomainEvents['link.click'] => ({
  linkId: p.linkId,
  accountId: p.accountId,
  at: new Date(atMs).toISOString(),
  country: p.country,
  device: p.sw.device,
  referrer: p.referrer,
  userAgent: p.userAgent,
});
