import { breathe } from '../runtime/breathe.js';
import type { Decision } from '../usage/tracked-clicks.js';
import { KEPT_CLICKS_PER_LINK, type ClickBatch, type RollupRow } from './repository.js';
import type { Visit } from './visit.js';
import { foldedOf, type FoldedVisit, type VisitProfile } from './visit-profile.js';

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

/** How many visits of one profile a builder took, and when the first came (an address's first visit). */
interface Tally {
  n: number;
  firstAtMs: number;
}

/** What a builder folded of one kind of visit: tracked ones, or those recorded hidden (grace, spec 3.3). */
class Kind {
  readonly tallies = new Map<VisitProfile, Tally>();
  /** The newest visits per link, oldest first; trimmed to KEPT_CLICKS_PER_LINK. */
  readonly newest = new Map<string, FoldedVisit[]>();

  add(v: FoldedVisit): void {
    const tally = this.tallies.get(v.profile);
    if (tally) tally.n += 1;
    else this.tallies.set(v.profile, { n: 1, firstAtMs: v.atMs });
    let newest = this.newest.get(v.profile.linkId);
    if (!newest) this.newest.set(v.profile.linkId, (newest = []));
    newest.push(v);
    // Trimmed in halves, so a busy link costs a copy per KEPT_CLICKS_PER_LINK visits rather than one per visit.
    if (newest.length >= 2 * KEPT_CLICKS_PER_LINK) newest.splice(0, newest.length - KEPT_CLICKS_PER_LINK);
  }
}

/**
 * What one commit writes for judged visits, folded in one visit at a time with no I/O and no key built: visits are
 * tallied by their profile (src/clicks/visit-profile.ts), which the recorder hands over the same for a visitor's
 * repeat visits, and the newest visits of each link are kept (only those become click records, see
 * KEPT_CLICKS_PER_LINK). `finishClickBatch` turns the tallies into the per-link click counts, the daily rollups and
 * the day's unique visitors and addresses.
 */
export class ClickBatchBuilder {
  readonly tracked = new Kind();
  readonly hidden = new Kind();
  readonly linkClicks = new Map<string, number>();

  /** A visit the link's total must still count (the redirect counts capped links itself), whatever its decision. */
  count(v: FoldedVisit): void {
    if (!v.counted) this.linkClicks.set(v.profile.linkId, (this.linkClicks.get(v.profile.linkId) ?? 0) + 1);
  }

  /** A recorded visit: `grace` when it is recorded hidden, in its billing cycle (spec 3.3). */
  add(v: FoldedVisit, grace: boolean): void {
    (grace ? this.hidden : this.tracked).add(v);
  }
}

/** A profile's keys in a batch (its rollup group, visitor and address of the day), made once per profile. */
const keysOf = (p: VisitProfile): NonNullable<VisitProfile['keys']> =>
  (p.keys ??= {
    group: `${p.linkId}|${p.day}|${p.hour}|${p.country}|${p.sw.device}|${p.sw.browser}|${p.sw.os}|${p.referrer}|${p.destination}`,
    visitor: `${p.linkId}|${p.day}|${p.visitor}`,
    address: `${p.linkId}|${p.day}|${p.address}`,
  });

/**
 * Fills `batch` with what `builders` folded in, as if one builder had seen their visits in their order (the recorder
 * folds a batch's visits as they come and judges some at the flush, in a builder of their own): rollups, visitors,
 * addresses, link counts and the newest click records of each link. A builder's tracked visits count before its
 * hidden ones: an account's visits are tracked until its allowance runs out, then hidden.
 */
export function finishClickBatch(builders: readonly ClickBatchBuilder[], batch: ClickBatch, nextId: () => string): ClickBatch {
  const rollups = new Map<string, RollupRow>();
  const visitors = new Map<string, ClickBatch['visitors'][number]>();
  const addresses = new Map<string, ClickBatch['addresses'][number]>();
  const newest = new Map<string, FoldedVisit[]>();
  // Visits that agree on every rolled-up dimension count as one group: a rollup costs one update per group.
  const groups = { tracked: new Map<string, { p: VisitProfile; n: number }>(), hidden: new Map<string, { p: VisitProfile; n: number }>() };
  for (const b of builders) {
    for (const [kind, hidden] of [[b.tracked, false], [b.hidden, true]] as const) {
      const grace = (p: VisitProfile) => (hidden ? p.cycle : '');
      const byGroup = hidden ? groups.hidden : groups.tracked;
      for (const [p, { n, firstAtMs }] of kind.tallies) {
        const keys = keysOf(p);
        const group = byGroup.get(keys.group);
        if (group) group.n += n;
        else byGroup.set(keys.group, { p, n });
        if (!visitors.has(keys.visitor)) visitors.set(keys.visitor, { link_id: p.linkId, account_id: p.accountId, day: p.day, visitor: p.visitor, grace_cycle: grace(p) });
        if (p.address !== '') {
          const known = addresses.get(keys.address);
          if (!known) addresses.set(keys.address, { link_id: p.linkId, day: p.day, address: p.address, at: new Date(firstAtMs).toISOString() });
          else if (firstAtMs < Date.parse(known.at)) known.at = new Date(firstAtMs).toISOString();
        }
      }
      // Visible and hidden records are kept apart.
      for (const [linkId, visits] of kind.newest) {
        const key = `${hidden ? 'g' : 'v'}${linkId}`;
        newest.set(key, [...(newest.get(key) ?? []), ...visits]);
      }
    }
    for (const [id, n] of b.linkClicks) batch.linkClicks.set(id, (batch.linkClicks.get(id) ?? 0) + n);
  }
  for (const [hidden, byGroup] of [[false, groups.tracked], [true, groups.hidden]] as const) {
    for (const { p, n } of byGroup.values()) {
      const grace = hidden ? p.cycle : '';
      const add = (dimension: string, value: string) => {
        const key = `${p.linkId}|${p.day}|${dimension}|${value}|${grace}`;
        const row = rollups.get(key);
        if (row) row.clicks += n;
        else rollups.set(key, { link_id: p.linkId, account_id: p.accountId, day: p.day, dimension, value, grace_cycle: grace, clicks: n });
      };
      add('total', '');
      add('country', p.country ?? '');
      add('device', p.sw.device);
      add('browser', p.sw.browser);
      add('os', p.sw.os);
      add('referrer', p.referrer ?? '');
      add('hour', String(p.hour));
      // Only links with rules or variants record where a visit went (byDestination); the rest went to their url.
      if (p.destination !== null) add('destination', p.destination);
    }
  }
  batch.rollups = [...rollups.values()];
  batch.visitors = [...visitors.values()];
  batch.addresses = [...addresses.values()];
  for (const [key, visits] of newest) {
    for (const { profile: p, atMs } of visits.slice(-KEPT_CLICKS_PER_LINK)) {
      batch.clicks.push({
        id: nextId(),
        link_id: p.linkId,
        account_id: p.accountId,
        at: new Date(atMs).toISOString(),
        country: p.country,
        region: p.region,
        city: p.city,
        browser: p.sw.browser,
        os: p.sw.os,
        device: p.sw.device,
        referrer: p.referrer,
        visitor: p.visitor,
        grace_cycle: key[0] === 'g' ? p.cycle : null,
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
    const v = foldedOf(visits[i]!);
    builder.count(v);
    const decision = decisions[i]!;
    if (decision !== 'pause') builder.add(v, decision === 'grace');
  }
  return finishClickBatch([builder], batch, nextId);
}
