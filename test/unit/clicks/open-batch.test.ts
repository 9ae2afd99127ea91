import { describe, expect, it } from 'vitest';
import { judgeAllowance } from '../../../src/clicks/allowance.js';
import { buildClickBatch, emptyClickBatch } from '../../../src/clicks/click-batch.js';
import { OpenBatch, type KnownAllowance } from '../../../src/clicks/open-batch.js';
import { allowanceKey } from '../../../src/clicks/visit-profile.js';
import type { AccountClickState, ClickBatch } from '../../../src/clicks/repository.js';
import type { Visit } from '../../../src/clicks/visit.js';
import { DEFAULT_PLANS, limitsOf } from '../../../src/plans.js';
import { trackableAhead } from '../../../src/usage/tracked-clicks.js';
import { account as row, IPHONE, visit } from './visits.js';

const may = Date.parse('2026-05-20T10:00:00Z');
const CYCLE = '2026-05';

/** What an earlier commit would have taught the batch about `r`. */
const knownFrom = (r: AccountClickState): KnownAllowance => {
  const state = { plan: limitsOf(DEFAULT_PLANS, r), accountCapCents: r.overage_limit_cents, tracked: r.tracked_clicks, graceStartedAtMs: null };
  return { state, ahead: trackableAhead(state) };
};

function openBatch(known: AccountClickState[]): OpenBatch {
  const byKey = new Map(known.map((r) => [allowanceKey(r.account_id, CYCLE), knownFrom(r)]));
  return new OpenBatch((key) => byKey.get(key), () => false, () => false);
}

/** A batch as the database sees it: rows sorted, click records without their ids. */
const written = (b: ClickBatch) => ({
  rollups: b.rollups.map((r) => `${r.link_id} ${r.day} ${r.dimension}=${r.value}${r.grace_cycle ? `~${r.grace_cycle}` : ''}: ${r.clicks}`).sort(),
  visitors: b.visitors.map((v) => `${v.link_id} ${v.visitor} ${v.grace_cycle}`).sort(),
  addresses: b.addresses.map((a) => `${a.link_id} ${a.address} ${a.at}`).sort(),
  clicks: b.clicks.map(({ id: _, ...c }) => JSON.stringify(c)).sort(),
  linkClicks: [...b.linkClicks].sort(),
  usage: [...b.usage].sort((x, y) => x.account_id.localeCompare(y.account_id)).map(({ trackedAtMost: _, ...u }) => u),
});

/** The same visits judged one by one, as every visit was before batches were folded. */
async function judgedOneByOne(visits: Visit[], rows: AccountClickState[]): Promise<ClickBatch> {
  const { decisions, usage } = judgeAllowance(visits, new Map([[CYCLE, rows]]), DEFAULT_PLANS);
  const batch = emptyClickBatch();
  batch.usage = usage;
  let id = 0;
  return buildClickBatch(visits, decisions, batch, () => `c${++id}`);
}

async function close(open: OpenBatch, rows: AccountClickState[]) {
  let id = 0;
  return open.close(new Map([[CYCLE, rows]]), DEFAULT_PLANS, () => `c${++id}`);
}

describe('OpenBatch', () => {
  it('writes what judging every visit in order writes, for accounts far from, near and past their limits', async () => {
    const visits: Visit[] = [];
    for (let i = 0; i < 40; i++) {
      const atMs = may + i * 1_000;
      visits.push(visit({ accountId: 'far', linkId: 'far-link', atMs, visitor: `v${i % 7}`, address: `a${i % 5}`, userAgent: i % 3 ? IPHONE : visit().userAgent }));
      visits.push(visit({ accountId: 'near', linkId: 'near-link', atMs, visitor: `v${i % 4}`, counted: i % 2 === 0 }));
      visits.push(visit({ accountId: 'unseen', linkId: 'unseen-link', atMs, referrer: i % 2 ? null : 'news.example' }));
    }
    // `near` is a free account with 10 clicks to go when the batch opens, and 6 by the flush (another instance
    // recorded 4 meanwhile): its first 5 are folded, the rest judged, 6 tracked and 34 in grace (which counts too).
    const rows = [row('far', 'pro', 10), row('near', 'free', 994), row('unseen', 'free', 0)];
    const open = openBatch([row('far', 'pro', 10), row('near', 'free', 990)]);
    for (const v of visits) open.add(v);
    const { batch, allowances } = await close(open, rows);
    expect(written(batch)).toEqual(written(await judgedOneByOne(visits, rows)));
    expect(batch.usage).toEqual([
      // Pro's bound is money (50,000 included, then 15 cents per 1,000 up to its 1,000-cent cap): the commit holds
      // usage to it. Free's is not: its clicks past the included go on counting, into grace.
      { account_id: 'far', cycle: CYCLE, tracked: 40, grace_started_at: null, trackedAtMost: 116_666 },
      { account_id: 'near', cycle: CYCLE, tracked: 40, grace_started_at: new Date(may + 6_000).toISOString(), trackedAtMost: null },
      { account_id: 'unseen', cycle: CYCLE, tracked: 40, grace_started_at: null, trackedAtMost: null },
    ]);
    // What the next batch folds on: the rows plus what this one added.
    expect(allowances.get(allowanceKey('far', CYCLE))!.state.tracked).toBe(50);
    expect(allowances.get(allowanceKey('near', CYCLE))!.ahead).toBe(0);
    expect(allowances.get(allowanceKey('unseen', CYCLE))!.ahead).toBe(960);
  });

  it('charges folded visits only as far as the allowance went, when another instance used it up meanwhile', async () => {
    const open = openBatch([row('acct-1', 'free', 900)]);
    for (let i = 0; i < 5; i++) open.add(visit({ atMs: may + i }));
    const { batch } = await close(open, [row('acct-1', 'free', 999)]);
    // Recorded as they were folded (visible), but only one is charged: nothing is tracked past the limit.
    expect(batch.usage).toEqual([{ account_id: 'acct-1', cycle: CYCLE, tracked: 1, grace_started_at: null, trackedAtMost: null }]);
    expect(batch.rollups.find((r) => r.dimension === 'total')).toMatchObject({ clicks: 5, grace_cycle: '' });
  });

  it('closes again against fresh rows, unchanged by an earlier close (a failed commit is retried)', async () => {
    const open = openBatch([]);
    for (let i = 0; i < 3; i++) open.add(visit({ atMs: may + i }));
    const first = await close(open, [row('acct-1', 'free', 0)]);
    const retried = await close(open, [row('acct-1', 'free', 999)]);
    expect(first.batch.usage).toEqual([{ account_id: 'acct-1', cycle: CYCLE, tracked: 3, grace_started_at: null, trackedAtMost: null }]);
    expect(retried.batch.usage).toEqual([{ account_id: 'acct-1', cycle: CYCLE, tracked: 3, grace_started_at: new Date(may + 1).toISOString(), trackedAtMost: null }]);
    expect(written(retried.batch).rollups).toContain(`link-1 2026-05-20 total=~${CYCLE}: 2`);
    expect(written(first.batch).rollups).toContain('link-1 2026-05-20 total=: 3');
  });

  it("records nothing but the link's count for an account that is gone", async () => {
    const open = openBatch([row('acct-1', 'pro', 0)]);
    open.add(visit());
    const { batch } = await close(open, []);
    expect(written(batch)).toMatchObject({ rollups: [], visitors: [], clicks: [], usage: [], linkClicks: [['link-1', 1]] });
  });
});
