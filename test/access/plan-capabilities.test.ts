import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/api-errors.js';
import { dialectName, useTestApp } from '../helpers/app.js';

/**
 * Capabilities come from the plans, never from tier names: an operator's PLANS_FILE that moves app targets or paid
 * overage to other plans moves what the API allows with them (issue 28: drafts.ts and the overage cap had named tiers).
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-plans-'));
const PLANS_FILE = path.join(dir, 'plans.json');
fs.writeFileSync(
  PLANS_FILE,
  JSON.stringify({
    free: { apiAccess: true, requestsPerHour: null, requestsPerMonth: null, appLinks: true, overageCentsPer1000: 20 },
    pro: { appLinks: false, overageCentsPer1000: null },
    builder: { appLinks: false },
  }),
);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const APP_LINKS = { ios: { deepLink: 'shop://product/42', storeUrl: 'https://apps.apple.com/app/id123456789' } };

describe(`plan capabilities follow PLANS_FILE, not tier names (${dialectName})`, () => {
  const t = useTestApp({ PLANS_FILE });
  const free = t.user('free');
  const pro = t.user('pro');
  const builder = t.user('builder');

  const create = (user: typeof free) => t.as(user, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://shop.example.com/p/42', appLinks: APP_LINKS } });
  const setCap = (user: typeof free) => t.as(user, { method: 'POST', url: '/api/subscription/overage-limit', payload: { limitCents: 300 } });

  it('app targets: a plan given them may set them, a plan without them is refused naming the lowest plan that has them', async () => {
    const made = await create(free);
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ appLinks: APP_LINKS });
    for (const user of [pro, builder]) {
      const refused = await create(user);
      expectError(refused, 403, 'TIER_REQUIRED');
      expect(refused.json<{ message: string }>().message).toMatch(/Free/);
    }
  });

  it('the overage cap: a plan that pays for overage may set one, a plan that does not is refused', async () => {
    const set = await setCap(free);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toEqual({ success: true, limitCents: 300 });
    expectError(await setCap(pro), 403, 'PLAN_NOT_ELIGIBLE');
    expect((await setCap(builder)).statusCode).toBe(200);
  });
});
