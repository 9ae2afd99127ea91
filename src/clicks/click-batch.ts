import { breathe } from '../runtime/breathe.js';
import type { Decision } from '../usage/tracked-clicks.js';
import { cycleOf } from '../usage/tracked-clicks.js';
import { dayOf } from './day.js';
import { KEPT_CLICKS_PER_LINK, type ClickBatch, type RollupRow } from './repository.js';
import { software, type Software } from './user-agent.js';
import type { Visit } from './visit.js';

/** A batch that writes nothing yet: what a ClickBatchBuilder fills. */
export const emptyClickBatch = (): ClickBatch => ({
  clicks: [],
  visitors: [],
  rollups: [],
  linkClicks: new Map(),
  usage: [],
  checkpoint: null,
  events: [],
  agentClicks: [],
  addresses: [],
});

/** Steps between two looks at the clock (a power of two). */
const SLICE = 256;

/**
 * A look at the clock every SLICE steps: an import's history holds thousands of visits, and built in one go it held
 * every redirect waiting. `breathe` decides whether the loop needs a turn. Not an async function: an await on every
 * step cost the quiet redirect half its throughput (bench/under-load.ts).
 */
export const gently = (step: number): Promise<void> | undefined => ((step & (SLICE - 1)) === SLICE - 1 ? breathe() : undefined);

/** The UTC hour of a time, without a Date per visit. */
const hourOf = (ms: number): number => Math.floor(ms / 3_600_000) % 24;

interface Group {
  v: Visit;
  sw: Software;
  day: string;
  grace: string;
  n: number;
}

/**
 * What one commit writes for judged visits, folded in one visit at a time with no I/O: the per-link click counts,
 * the daily rollups (visits that agree on every rolled-up dimension counted as one group, so a rollup costs one
 * update per group, not seven per visit), the day's unique visitors and addresses, and the newest click records of
 * each link (only those are kept, see KEPT_CLICKS_PER_LINK). Folding as visits come keeps nothing per visit but
 * the newest records: the recorder folds each visit when it is journaled, so a flush has little left to build.
 */
export class ClickBatchBuilder {
  readonly groups = new Map<string, Group>();
  readonly visitors = new Map<string, ClickBatch['visitors'][number]>();
  readonly addresses = new Map<string, ClickBatch['addresses'][number]>();
  readonly linkClicks = new Map<string, number>();
  /** The newest visits per link and kind (`v` visible, `g` grace), oldest first; trimmed to KEPT_CLICKS_PER_LINK. */
  readonly newest = new Map<string, { v: Visit; grace: string }[]>();

  /** A visit the link's total must still count (the redirect counts capped links itself), whatever its decision. */
  count(v: Visit): void {
    if (!v.counted) this.linkClicks.set(v.linkId, (this.linkClicks.get(v.linkId) ?? 0) + 1);
  }

  /** A recorded visit: `grace` is the billing cycle of a visit recorded hidden (spec 3.3), '' for a tracked one. */
  add(v: Visit, grace: string): void {
    const day = dayOf(v.atMs);
    const sw = software(v.userAgent);
    const key = `${v.linkId}|${day}|${grace}|${hourOf(v.atMs)}|${v.country}|${sw.device}|${sw.browser}|${sw.os}|${v.referrer}|${v.destination}`;
    const group = this.groups.get(key);
    if (group) group.n += 1;
    else this.groups.set(key, { v, sw, day, grace, n: 1 });
    const visitorKey = `${v.linkId}|${day}|${v.visitor}`;
    if (!this.visitors.has(visitorKey)) this.visitors.set(visitorKey, { link_id: v.linkId, account_id: v.accountId, day, visitor: v.visitor, grace_cycle: grace });
    if (v.address !== '') {
      const addressKey = `${v.linkId}|${day}|${v.address}`;
      if (!this.addresses.has(addressKey)) this.addresses.set(addressKey, { link_id: v.linkId, day, address: v.address, at: new Date(v.atMs).toISOString() });
    }
    const kind = `${grace ? 'g' : 'v'}${v.linkId}`; // visible and hidden records are kept apart
    let newest = this.newest.get(kind);
    if (!newest) this.newest.set(kind, (newest = []));
    newest.push({ v, grace });
    // Trimmed in halves, so a busy link costs a copy per KEPT_CLICKS_PER_LINK visits rather than one per visit.
    if (newest.length >= 2 * KEPT_CLICKS_PER_LINK) newest.splice(0, newest.length - KEPT_CLICKS_PER_LINK);
  }
}

/**
 * Fills `batch` with what `builders` folded in, as if one builder had seen their visits in their order (the recorder
 * folds a batch's visits as they come and judges some at the flush, in a builder of their own): rollups, visitors,
 * addresses, link counts and the newest click records of each link.
 */
export function finishClickBatch(builders: readonly ClickBatchBuilder[], batch: ClickBatch, nextId: () => string): ClickBatch {
  const rollups = new Map<string, RollupRow>();
  const visitors = new Map<string, ClickBatch['visitors'][number]>();
  const addresses = new Map<string, ClickBatch['addresses'][number]>();
  const newest = new Map<string, { v: Visit; grace: string }[]>();
  for (const b of builders) {
    for (const { v, sw, day, grace, n } of b.groups.values()) {
      const add = (dimension: string, value: string) => {
        const key = `${v.linkId}|${day}|${dimension}|${value}|${grace}`;
        const row = rollups.get(key);
        if (row) row.clicks += n;
        else rollups.set(key, { link_id: v.linkId, account_id: v.accountId, day, dimension, value, grace_cycle: grace, clicks: n });
      };
      add('total', '');
      add('country', v.country ?? '');
      add('device', sw.device);
      add('browser', sw.browser);
      add('os', sw.os);
      add('referrer', v.referrer ?? '');
      add('hour', String(hourOf(v.atMs)));
      // Only links with rules or variants record where a visit went (byDestination); the rest went to their url.
      if (v.destination !== null) add('destination', v.destination);
    }
    for (const [key, row] of b.visitors) if (!visitors.has(key)) visitors.set(key, row);
    for (const [key, row] of b.addresses) if (!addresses.has(key)) addresses.set(key, row);
    for (const [id, n] of b.linkClicks) batch.linkClicks.set(id, (batch.linkClicks.get(id) ?? 0) + n);
    for (const [kind, records] of b.newest) newest.set(kind, [...(newest.get(kind) ?? []), ...records]);
  }
  batch.rollups = [...rollups.values()];
  batch.visitors = [...visitors.values()];
  batch.addresses = [...addresses.values()];
  for (const records of newest.values()) {
    for (const { v, grace } of records.slice(-KEPT_CLICKS_PER_LINK)) {
      const sw = software(v.userAgent);
      batch.clicks.push({
        id: nextId(),
        link_id: v.linkId,
        account_id: v.accountId,
        at: new Date(v.atMs).toISOString(),
        country: v.country,
        region: v.region,
        city: v.city,
        browser: sw.browser,
        os: sw.os,
        device: sw.device,
        referrer: v.referrer,
        visitor: v.visitor,
        grace_cycle: grace || null,
      });
    }
  }
  return batch;
}

/** Judged visits, in order, into `batch` (an import's history; the recorder folds its visits as they come). */
export async function buildClickBatch(
  visits: readonly Visit[],
  decisions: readonly Decision[],
  batch: ClickBatch,
  /** A unique id for each click record kept. */
  nextId: () => string,
): Promise<ClickBatch> {
  const builder = new ClickBatchBuilder();
  for (let i = 0; i < visits.length; i++) {
    const pause = gently(i);
    if (pause) await pause;
    const v = visits[i]!;
    builder.count(v);
    const decision = decisions[i]!;
    if (decision !== 'pause') builder.add(v, decision === 'grace' ? cycleOf(v.atMs) : '');
  }
  return finishClickBatch([builder], batch, nextId);
}
