import { breathe } from '../runtime/breathe.js';
import type { Decision } from '../usage/tracked-clicks.js';
import { cycleOf } from '../usage/tracked-clicks.js';
import { dayOf } from './day.js';
import { KEPT_CLICKS_PER_LINK, type ClickBatch, type RollupRow } from './repository.js';
import { software, type Software } from './user-agent.js';
import type { Visit } from './visit.js';

/** A batch that writes nothing yet: what `buildClickBatch` fills. */
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
 * A look at the clock every SLICE steps: a 100 ms batch of a busy server, or an import's history, holds thousands of
 * visits, and built in one go it held every redirect waiting. `breathe` decides whether the loop needs a turn. Not an
 * async function: an await on every step cost the quiet redirect half its throughput (bench/under-load.ts).
 */
const gently = (step: number): Promise<void> | undefined => ((step & (SLICE - 1)) === SLICE - 1 ? breathe() : undefined);

/** The UTC hour of a time, without a Date per visit. */
const hourOf = (ms: number): number => Math.floor(ms / 3_600_000) % 24;

/**
 * What one commit writes for a batch of judged visits, with no I/O: the per-link click counts, the daily rollups
 * (visits that agree on every rolled-up dimension counted as one group, so a rollup costs one update per group,
 * not seven per visit), the day's unique visitors and addresses, and the newest click records of each link (only
 * those are kept, see KEPT_CLICKS_PER_LINK).
 */
export async function buildClickBatch(
  visits: readonly Visit[],
  decisions: readonly Decision[],
  batch: ClickBatch,
  /** A unique id for each click record kept. */
  nextId: () => string,
): Promise<ClickBatch> {
    // Visits that agree on every rolled-up dimension are counted as one group, so the rollups cost one
    // update per group, not seven per visit.
    const groups = new Map<string, { v: Visit; sw: Software; day: string; grace: string; n: number }>();
    const visitors = new Map<string, ClickBatch['visitors'][number]>();
    const addresses = new Map<string, ClickBatch['addresses'][number]>();
    const graces: string[] = new Array(visits.length);
    for (let i = 0; i < visits.length; i++) {
      const pause = gently(i);
      if (pause) await pause;
      const v = visits[i]!;
      if (!v.counted) batch.linkClicks.set(v.linkId, (batch.linkClicks.get(v.linkId) ?? 0) + 1);
      const decision = decisions[i]!;
      if (decision === 'pause') continue;
      const grace = decision === 'grace' ? cycleOf(v.atMs) : '';
      graces[i] = grace;
      const day = dayOf(v.atMs);
      const sw = software(v.userAgent);
      const hour = hourOf(v.atMs);
      const key = `${v.linkId}|${day}|${grace}|${hour}|${v.country}|${sw.device}|${sw.browser}|${sw.os}|${v.referrer}|${v.destination}`;
      const group = groups.get(key);
      if (group) group.n += 1;
      else groups.set(key, { v, sw, day, grace, n: 1 });
      const visitorKey = `${v.linkId}|${day}|${v.visitor}`;
      if (!visitors.has(visitorKey)) visitors.set(visitorKey, { link_id: v.linkId, account_id: v.accountId, day, visitor: v.visitor, grace_cycle: grace });
      const addressKey = `${v.linkId}|${day}|${v.address}`;
      if (v.address !== '' && !addresses.has(addressKey)) addresses.set(addressKey, { link_id: v.linkId, day, address: v.address, at: new Date(v.atMs).toISOString() });
    }
    batch.visitors = [...visitors.values()];
    batch.addresses = [...addresses.values()];

    const rollups = new Map<string, RollupRow>();
    let g = 0;
    for (const { v, sw, day, grace, n } of groups.values()) {
      const pause = gently(g++);
      if (pause) await pause;
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
    batch.rollups = [...rollups.values()];

    // Only the newest click records of each link are kept (see KEPT_CLICKS_PER_LINK), so only those are built.
    const perLink = new Map<string, number>();
    const kept: number[] = [];
    for (let i = visits.length - 1; i >= 0; i--) {
      const pause = gently(i);
      if (pause) await pause;
      if (decisions[i] === 'pause') continue;
      const kind = `${graces[i] ? 'g' : 'v'}${visits[i]!.linkId}`; // visible and hidden records are kept apart
      const n = perLink.get(kind) ?? 0;
      if (n >= KEPT_CLICKS_PER_LINK) continue;
      perLink.set(kind, n + 1);
      kept.push(i);
    }
    for (const i of kept.reverse()) {
      const v = visits[i]!;
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
        grace_cycle: graces[i] || null,
      });
    }
  return batch;
}
