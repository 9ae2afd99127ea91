import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PLANS, isTier, loadPlans, lowestTierWith, tierAtLeast, tierLabel, TIERS } from '../../src/plans.js';

describe('tiers', () => {
  it('orders free < pro < builder < enterprise, each at least itself', () => {
    expect(TIERS).toEqual(['free', 'pro', 'builder', 'enterprise']);
    for (const [i, tier] of TIERS.entries()) {
      for (const [j, needed] of TIERS.entries()) expect(tierAtLeast(tier, needed), `${tier} >= ${needed}`).toBe(i >= j);
    }
  });

  it('knows only its four tiers, in lower case', () => {
    expect(isTier('builder')).toBe(true);
    expect(isTier('Pro')).toBe(false);
    expect(isTier('gold')).toBe(false);
    expect(isTier('')).toBe(false);
  });

  it('labels a tier as a word in a sentence starts it', () => {
    expect(TIERS.map(tierLabel)).toEqual(['Free', 'Pro', 'Builder', 'Enterprise']);
  });

  it('names the lowest tier whose plan has a feature, or none', () => {
    expect(lowestTierWith(DEFAULT_PLANS, (plan) => plan.apiAccess)).toBe('pro');
    expect(lowestTierWith(DEFAULT_PLANS, (plan) => plan.webhooks === null || plan.webhooks >= 10)).toBe('builder');
    expect(lowestTierWith(DEFAULT_PLANS, (plan) => plan.folders !== 0)).toBe('free');
    expect(lowestTierWith(DEFAULT_PLANS, (plan) => plan.historyDays > 365)).toBeNull();
    // An operator's plans decide, not the defaults: webhooks on Free make Free the tier to name.
    expect(lowestTierWith({ ...DEFAULT_PLANS, free: { ...DEFAULT_PLANS.free, webhooks: 1 } }, (plan) => plan.webhooks !== 0)).toBe('free');
  });
});

describe('loadPlans', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-unit-plans-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, content: string) => {
    const where = path.join(dir, name);
    fs.writeFileSync(where, content);
    return where;
  };

  it('gives the defaults when no file is named', () => {
    expect(loadPlans(null)).toBe(DEFAULT_PLANS);
  });

  it('replaces what the file names and keeps every other default, null meaning unlimited', () => {
    const plans = loadPlans(file('some.json', JSON.stringify({ pro: { requestsPerHour: 100, linksPerDay: null }, free: {} })));
    expect(plans.pro).toEqual({ ...DEFAULT_PLANS.pro, requestsPerHour: 100, linksPerDay: null });
    expect(plans.free).toEqual(DEFAULT_PLANS.free);
    expect(plans.builder).toEqual(DEFAULT_PLANS.builder);
    expect(DEFAULT_PLANS.pro.requestsPerHour).toBe(50); // the defaults themselves are not changed
  });

  it.each([
    ['a list', '[]', 'the file must be a JSON object of plans, like {"pro": {"requestsPerHour": 100}}'],
    ['a plan that is no object', '{"pro": 5}', 'pro must be an object of settings, like {"requestsPerHour": 100}'],
    ['a setting of the wrong type', '{"free": {"apiAccess": "yes"}}', 'free.apiAccess must be true or false'],
    ['history of zero days', '{"builder": {"historyDays": 0}}', 'builder.historyDays must be a whole number of 1 or more'],
    ['a fractional overage price', '{"pro": {"overageCentsPer1000": 1.5}}', 'pro.overageCentsPer1000 must be a whole number of 0 or more, or null for no paid overage'],
  ])('refuses %s, naming the plan and the setting', (_, content, problem) => {
    const where = file('bad.json', content);
    expect(() => loadPlans(where)).toThrow(`${where}: ${problem}`);
  });

  it('says which file it could not read', () => {
    const missing = path.join(dir, 'missing.json');
    expect(() => loadPlans(missing)).toThrow(`cannot read ${missing}: ENOENT`);
  });
});
