import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OpenBatch } from '../../src/clicks/open-batch.js';
import { allowanceKey } from '../../src/clicks/visit-profile.js';
import { ClicksRepository } from '../../src/clicks/repository.js';
import type { Visit } from '../../src/clicks/visit.js';
import { limitsOf } from '../../src/plans.js';
import { cycleOf, trackableAhead } from '../../src/usage/tracked-clicks.js';
import { dialectName, useTestApp } from '../helpers/app.js';
import { BROWSER_UA } from '../helpers/user-agents.js';

/**
 * Attack (issue 32): money inflated by instances racing. Each instance of Snip judges its click batches against the
 * account's usage as it read it, so instances committing at the same moment could each spend the same allowance, and
 * with visits folded into batches on what an earlier commit read, each instance folds up to half of what it saw left.
 * A visitor flooding a paid account's links through several instances must still never push its overage charge past
 * the account's cap: the commit holds usage to the bound the batch read, whatever other instances added meanwhile.
 */

const TINY_PLANS = path.join(import.meta.dirname, '..', 'fixtures', 'plans-clicks-tiny.json');

interface Usage {
  trackedClicks: number;
  overageChargeCents: number;
  overageLimitCents: number;
  capReached: boolean;
}

describe(`a paid account's cap holds when instances spend its allowance at once (${dialectName})`, () => {
  // Pro here: 3 included clicks, then 15 cents per 1,000 up to the account's cap.
  const t = useTestApp({ PLANS_FILE: TINY_PLANS });
  const pro = t.user('pro');

  it('two batches closed on the same read of the account, as two instances flush together, charge no more than the cap', async () => {
    const capped = await t.as(pro, { method: 'POST', url: '/api/subscription/overage-limit', payload: { limitCents: 1 } });
    expect(capped.statusCode, capped.body).toBe(200); // 3 included + 66 beyond at 15 cents per 1,000: 0.99 cents
    const caller = await t.core.accounts.callerFor(pro.email);
    const link = await t.core.links.create(caller, { url: 'https://example.com/paid' });
    const repo = new ClicksRepository(t.core.database.db, t.core.database.dialect, t.core.outbox);

    const now = t.clock.now().getTime();
    const cycle = cycleOf(now);
    const [row] = await repo.accountStates([pro.id], cycle);
    const state = { plan: limitsOf(t.config.plans, row!), accountCapCents: row!.overage_limit_cents, tracked: row!.tracked_clicks, graceStartedAtMs: null };
    expect(trackableAhead(state)).toBe(69);
    // Each instance learned the same allowance from its last commit and folds visits on it.
    const known = { state, ahead: trackableAhead(state) };
    const instance = () => new OpenBatch((key) => (key === allowanceKey(pro.id, cycle) ? known : undefined), () => false, () => false);
    const visit = (i: number): Visit => ({
      linkId: link.id,
      accountId: pro.id,
      atMs: now + i,
      visitor: `visitor-${i}`,
      address: `address-${i}`,
      country: null,
      region: null,
      city: null,
      userAgent: BROWSER_UA,
      referrer: null,
      destination: null,
      counted: false,
      agent: null,
    });
    const [a, b] = [instance(), instance()];
    for (let i = 0; i < 50; i++) {
      a.add(visit(i));
      b.add(visit(100 + i));
    }
    // Both read the account before either commits.
    const states = new Map([[cycle, await repo.accountStates([pro.id], cycle)]]);
    let id = 0;
    const nextId = () => `clk_race_${++id}`;
    const [closedA, closedB] = [await a.close(states, t.config.plans, nextId), await b.close(states, t.config.plans, nextId)];
    expect(closedA.batch.usage[0]!.tracked).toBe(50); // each on its own believes 50 of its 69 are tracked
    await repo.commit(closedA.batch);
    await repo.commit(closedB.batch);

    const usage = await t.as(pro, { method: 'GET', url: '/api/usage' });
    expect(usage.statusCode, usage.body).toBe(200);
    const { trackedClicks, overageChargeCents, overageLimitCents, capReached } = usage.json<Usage>();
    expect(overageLimitCents).toBe(1);
    expect(trackedClicks).toBe(69);
    expect(overageChargeCents).toBeLessThanOrEqual(1);
    expect(capReached).toBe(true);
    // Every visit still counts on the link: the cap bounds what is charged, never what is counted.
    const details = await t.as(pro, { method: 'GET', url: `/api/v1/links/${link.code}` });
    expect(details.json<{ clicks: number }>().clicks).toBe(100);
  });
});
