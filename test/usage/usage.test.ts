import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvents } from '../../src/events/bus.js';
import { dialectName, useTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import type { Usage } from '../helpers/stats-shapes.js';
import { expectError } from '../helpers/api-errors.js';
import { linkApi, LINKS_A, type Caller, type CreatedLinkA, type LinkA } from '../helpers/links.js';

/**
 * Tracked clicks per billing cycle (GET /api/usage), the overage cap (POST /api/subscription/overage-limit), the
 * free plan's grace period (spec 3.3), and link.expired from the expiry sweeper.
 */

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Free and Pro (and Builder) include 3 tracked clicks a month; request limits are off. */
const TINY_PLANS = path.join(import.meta.dirname, '..', 'fixtures', 'plans-clicks-tiny.json');


interface DetailedStats {
  opened: number;
  clicks: unknown[];
}

/** The billing cycle (calendar month, UTC) the test clock is in. */
function cycleNow(t: TestApp): { start: string; end: string } {
  const now = t.clock.now();
  return {
    start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
    end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
  };
}

/** Moves the test clock to `day` of next month at noon UTC, so a test's days of grace stay inside one cycle. */
function toNextMonth(t: TestApp, day = 2): void {
  const now = t.clock.now();
  t.clock.advance(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, day, 12) - now.getTime());
}

function client(t: TestApp) {
  const api = linkApi<CreatedLinkA, LinkA>(t, LINKS_A);
  /** A link of `user` with its short code; made through the links service so free accounts (no API) have some too. */
  const createLink = async (user: TestUser, body: Record<string, unknown> = {}): Promise<{ code: string; id: string }> => {
    const caller = await t.core.accounts.callerFor(user.email);
    const link = await t.core.links.create(caller, { url: 'https://example.com/usage', ...body });
    return { code: link.code, id: link.id };
  };
  const visit = (code: string, ua = BROWSER, method: 'GET' | 'HEAD' = 'GET'): Promise<LightMyRequestResponse> =>
    t.app.inject({ method, url: `/${code}`, headers: { 'user-agent': ua } });
  const visits = async (code: string, n: number): Promise<void> => {
    for (let i = 0; i < n; i++) {
      const res = await visit(code);
      expect(res.statusCode, res.body).toBe(302);
      expect(res.headers.location).toBe('https://example.com/usage');
    }
  };
  const usageRes = (user: Caller) => t.as(user, { method: 'GET', url: '/api/usage' });
  const usage = async (user: TestUser): Promise<Usage> => {
    const res = await usageRes(user);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Usage>();
  };
  /** The usage as the service computes it, for accounts whose HTTP access is under test elsewhere. */
  const usageInCore = async (user: TestUser): Promise<Usage> => t.core.analytics.usage(await t.core.accounts.callerFor(user.email));
  const setLimit = (user: Caller, payload: unknown) => t.as(user, { method: 'POST', url: '/api/subscription/overage-limit', payload: payload as object });
  /** DetailedStats as the owner sees them (the route takes any plan's key). */
  const detailed = async (user: TestUser, code: string): Promise<DetailedStats> => {
    const res = await t.as(user, { method: 'GET', url: `/api/stats/${code}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<DetailedStats>();
  };
  const linkStatsTotal = async (user: TestUser, code: string): Promise<number> => {
    const res = await t.as(user, { method: 'GET', url: `/api/v1/links/${code}/stats` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ totalClicks: number }>().totalClicks;
  };
  const aggregateTotal = async (user: TestUser, code: string): Promise<number> => {
    const res = await t.as(user, { method: 'GET', url: `/api/stats/${code}/aggregate?period=30d` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ totalClicks: number }>().totalClicks;
  };
  const linkClicks = async (user: TestUser, code: string): Promise<number> => {
    const res = await api.get(user, code);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<LinkA>().clicks;
  };
  return { createLink, visit, visits, usageRes, usage, usageInCore, setLimit, detailed, linkStatsTotal, aggregateTotal, linkClicks };
}

describe(`GET /api/usage with the default plans (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');
  const builder = t.user('builder');
  const enterprise = t.user('enterprise');
  const free = t.user('free');
  const { createLink, visit, visits, usageRes, usage } = client(t);

  it('answers a fresh pro account every field: this cycle, 50,000 included, no overage, the 1,000-cent default cap', async () => {
    expect(await usage(pro)).toEqual({
      cycle: cycleNow(t),
      trackedClicks: 0,
      includedClicks: 50_000,
      overageClicks: 0,
      overageChargeCents: 0,
      overageLimitCents: 1_000,
      capReached: false,
      grace: { active: false, startedAt: null, endsAt: null },
      recordingPaused: false,
    });
  });

  it('counts tracked clicks of every link of the account; bots and HEAD are not tracked', async () => {
    const a = await createLink(pro);
    const b = await createLink(pro);
    await visits(a.code, 2);
    await visits(b.code, 1);
    expect((await visit(a.code, GOOGLEBOT)).statusCode).toBe(302);
    expect((await visit(b.code, BROWSER, 'HEAD')).statusCode).toBe(302);
    expect(await usage(pro)).toMatchObject({ trackedClicks: 3, overageClicks: 0, overageChargeCents: 0 });
  });

  it('builder: 500,000 included and no cap by default', async () => {
    expect(await usage(builder)).toMatchObject({ includedClicks: 500_000, overageLimitCents: null, capReached: false, recordingPaused: false });
  });

  it('enterprise: unlimited clicks, no overage, no cap', async () => {
    const link = await createLink(enterprise);
    await visits(link.code, 2);
    expect(await usage(enterprise)).toEqual({
      cycle: cycleNow(t),
      trackedClicks: 2,
      includedClicks: null,
      overageClicks: 0,
      overageChargeCents: 0,
      overageLimitCents: null,
      capReached: false,
      grace: { active: false, startedAt: null, endsAt: null },
      recordingPaused: false,
    });
  });

  it('a free account reads its own usage (1,000 included clicks; the grace state is reported only here)', async () => {
    expect(await usage(free)).toEqual({
      cycle: cycleNow(t),
      trackedClicks: 0,
      includedClicks: 1_000,
      overageClicks: 0,
      overageChargeCents: 0,
      overageLimitCents: null,
      capReached: false,
      grace: { active: false, startedAt: null, endsAt: null },
      recordingPaused: false,
    });
  });

  it('needs a key', async () => {
    expectError(await usageRes(null), 401, 'API_KEY_REQUIRED');
  });
});

describe(`POST /api/subscription/overage-limit (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');
  const otherPro = t.user('pro');
  const builder = t.user('builder');
  const enterprise = t.user('enterprise');
  const free = t.user('free');
  const { usage, setLimit } = client(t);

  it('pro sets its cap: {success: true, limitCents}, and usage shows it', async () => {
    const res = await setLimit(pro, { limitCents: 500 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, limitCents: 500 });
    expect((await usage(pro)).overageLimitCents).toBe(500);
    // Another pro account keeps the default.
    expect((await usage(otherPro)).overageLimitCents).toBe(1_000);
  });

  it('0 means no cap', async () => {
    const res = await setLimit(pro, { limitCents: 0 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, limitCents: 0 });
    expect(await usage(pro)).toMatchObject({ overageLimitCents: null, capReached: false });
    // And a cap can be set again.
    expect((await setLimit(pro, { limitCents: 2_500 })).json()).toEqual({ success: true, limitCents: 2_500 });
    expect((await usage(pro)).overageLimitCents).toBe(2_500);
  });

  it('builder sets a cap where it had none', async () => {
    expect((await usage(builder)).overageLimitCents).toBeNull();
    const res = await setLimit(builder, { limitCents: 250 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, limitCents: 250 });
    expect((await usage(builder)).overageLimitCents).toBe(250);
  });

  it('free and enterprise are refused with 403 and their cap is unchanged', async () => {
    const refusedFree = await setLimit(free, { limitCents: 100 });
    expect(refusedFree.statusCode, refusedFree.body).toBe(403);
    expect(refusedFree.json()).toMatchObject({ error: true, code: expect.any(String) });
    expectError(await setLimit(enterprise, { limitCents: 100 }), 403, 'PLAN_NOT_ELIGIBLE');
    expect((await usage(enterprise)).overageLimitCents).toBeNull();
  });

  it.each<[string, unknown, string]>([
    ['a negative value', { limitCents: -1 }, 'INVALID_LIMIT_CENTS'],
    ['a fraction', { limitCents: 1.5 }, 'INVALID_LIMIT_CENTS'],
    ['text', { limitCents: 'lots' }, 'INVALID_LIMIT_CENTS'],
    ['an object', { limitCents: { cents: 5 } }, 'INVALID_LIMIT_CENTS'],
    ['no limitCents', {}, 'MISSING_LIMIT_CENTS'],
  ])('%s is 400 and changes nothing', async (_name, payload, code) => {
    const before = (await usage(otherPro)).overageLimitCents;
    expectError(await setLimit(otherPro, payload), 400, code);
    expect((await usage(otherPro)).overageLimitCents).toBe(before);
  });

  it('needs a key', async () => {
    expectError(await setLimit(null, { limitCents: 100 }), 401, 'API_KEY_REQUIRED');
  });
});

describe(`the free plan's grace period (${dialectName}, 3 included clicks)`, () => {
  const t = useTestApp({ PLANS_FILE: TINY_PLANS });
  const upgrader = t.user('free');
  const waiter = t.user('free');
  const late = t.user('free');
  const { createLink, visits, usage, usageInCore, detailed, linkStatsTotal, aggregateTotal, linkClicks } = client(t);
  const links: Record<string, string> = {};

  beforeAll(() => toNextMonth(t));

  it('clicks past the included ones still redirect but are hidden from statistics', async () => {
    const link = await createLink(upgrader);
    links.upgrader = link.code;
    await visits(link.code, 3);
    const within = await detailed(upgrader, link.code);
    expect(within.opened).toBe(3);
    expect(within.clicks).toHaveLength(3);
    await visits(link.code, 3);
    const beyond = await detailed(upgrader, link.code);
    expect(beyond.opened).toBe(3);
    expect(beyond.clicks).toEqual(within.clicks);
  });

  it('the grace period starts with the first click over the limit and lasts 7 days', async () => {
    const before = t.clock.now().getTime();
    const state = await usageInCore(upgrader);
    expect(state).toMatchObject({ trackedClicks: 6, includedClicks: 3, overageClicks: 0, overageChargeCents: 0, overageLimitCents: null, capReached: false, recordingPaused: false });
    expect(state.grace.active).toBe(true);
    const started = Date.parse(state.grace.startedAt!);
    expect(started).toBeLessThanOrEqual(before);
    expect(Date.parse(state.grace.endsAt!)).toBe(started + 7 * DAY);
  });

  it('GET /api/usage reports the grace period to the free account', async () => {
    expect(await usage(upgrader)).toEqual(await usageInCore(upgrader));
    expect((await usage(upgrader)).grace.active).toBe(true);
  });

  it('upgrading to pro makes the hidden clicks appear at once', async () => {
    await t.core.accounts.setTier(upgrader.email, 'pro');
    const stats = await detailed(upgrader, links.upgrader!);
    expect(stats.opened).toBe(6);
    expect(stats.clicks).toHaveLength(6);
    expect(await linkStatsTotal(upgrader, links.upgrader!)).toBe(6);
    expect(await aggregateTotal(upgrader, links.upgrader!)).toBe(6);
    // As pro the clicks beyond the included ones are paid overage and recorded in the open.
    await visits(links.upgrader!, 1);
    expect(await linkStatsTotal(upgrader, links.upgrader!)).toBe(7);
    expect(await usage(upgrader)).toMatchObject({ trackedClicks: 7, includedClicks: 3, overageClicks: 4, recordingPaused: false });
  });

  it('after the 7 days recording pauses for the rest of the cycle; links keep redirecting', async () => {
    const waiting = await createLink(waiter);
    const upgradeLater = await createLink(late);
    links.waiter = waiting.code;
    links.late = upgradeLater.code;
    for (const code of [waiting.code, upgradeLater.code]) await visits(code, 5); // 3 tracked, 2 in grace
    expect((await detailed(waiter, waiting.code)).opened).toBe(3);

    t.clock.advance(7 * DAY - HOUR);
    await visits(waiting.code, 1); // still in grace: recorded, hidden
    expect((await usageInCore(waiter)).grace.active).toBe(true);

    t.clock.advance(2 * HOUR);
    for (const code of [waiting.code, upgradeLater.code]) await visits(code, 3); // paused: not recorded
    expect((await detailed(waiter, waiting.code)).opened).toBe(3);
    const state = await usageInCore(waiter);
    expect(state).toMatchObject({ trackedClicks: 6, recordingPaused: true, capReached: false, grace: { active: false } });
    expect(Date.parse(state.grace.endsAt!)).toBeLessThanOrEqual(t.clock.now().getTime());

    // Upgrading shows what the grace period recorded, and nothing from the pause.
    await t.core.accounts.setTier(late.email, 'pro');
    expect((await detailed(late, upgradeLater.code)).opened).toBe(5);
    expect(await aggregateTotal(late, upgradeLater.code)).toBe(5);
    // Link details count every redirect, recorded or not (docs/decisions.md).
    expect(await linkClicks(late, upgradeLater.code)).toBe(8);
  });

  it('an account upgraded to pro records again once the grace days are over, and usage says so', async () => {
    // `late` was upgraded after its pause; `upgrader` during its grace, whose 7 days have passed meanwhile.
    await visits(links.late!, 2);
    expect((await detailed(late, links.late!)).opened).toBe(7);
    await visits(links.upgrader!, 1);
    expect(await linkStatsTotal(upgrader, links.upgrader!)).toBe(8);
    expect(await usage(late)).toMatchObject({ trackedClicks: 7, overageClicks: 4, capReached: false, recordingPaused: false });
    expect(await usage(upgrader)).toMatchObject({ trackedClicks: 8, overageClicks: 5, capReached: false, recordingPaused: false });
  });

  it('GET /api/usage reports the pause to the free account', async () => {
    expect(await usage(waiter)).toMatchObject({ trackedClicks: 6, recordingPaused: true, grace: { active: false } });
  });

  it('the next cycle shows the last cycle\'s grace clicks and records again', async () => {
    toNextMonth(t);
    const stats = await detailed(waiter, links.waiter!);
    expect(stats.opened).toBe(6);
    expect(stats.clicks).toHaveLength(6);
    const fresh = await usageInCore(waiter);
    expect(fresh).toEqual({
      cycle: cycleNow(t),
      trackedClicks: 0,
      includedClicks: 3,
      overageClicks: 0,
      overageChargeCents: 0,
      overageLimitCents: null,
      capReached: false,
      grace: { active: false, startedAt: null, endsAt: null },
      recordingPaused: false,
    });
    await visits(links.waiter!, 1);
    expect((await detailed(waiter, links.waiter!)).opened).toBe(7);
  });
});

describe(`the overage cap (${dialectName}, 3 included clicks, 15 cents per 1,000 beyond)`, () => {
  const t = useTestApp({ PLANS_FILE: TINY_PLANS });
  const pro = t.user('pro');
  const builder = t.user('builder');
  const { createLink, visits, usage, setLimit, detailed, linkStatsTotal, aggregateTotal, linkClicks } = client(t);

  beforeAll(() => toNextMonth(t));

  it('pro with a 1-cent cap records 3 included + 66 overage clicks (0.99 cents), then pauses while links redirect', async () => {
    expect((await setLimit(pro, { limitCents: 1 })).statusCode).toBe(200);
    const link = await createLink(pro);

    await visits(link.code, 68);
    const nearly = await usage(pro);
    expect(nearly).toMatchObject({ trackedClicks: 68, includedClicks: 3, overageClicks: 65, overageLimitCents: 1, capReached: false, recordingPaused: false });
    expect(nearly.overageChargeCents).toBeCloseTo(0.975, 1);

    await visits(link.code, 1);
    const reached = await usage(pro);
    expect(reached).toMatchObject({
      trackedClicks: 69,
      overageClicks: 66,
      overageLimitCents: 1,
      capReached: true,
      recordingPaused: true,
      grace: { active: false, startedAt: null, endsAt: null },
    });
    expect(reached.overageChargeCents).toBeCloseTo(0.99, 2);
    expect(await linkStatsTotal(pro, link.code)).toBe(69);

    await visits(link.code, 5); // every one still redirects (asserted in `visits`)
    expect(await linkStatsTotal(pro, link.code)).toBe(69);
    expect(await aggregateTotal(pro, link.code)).toBe(69);
    expect((await detailed(pro, link.code)).opened).toBe(69);
    expect((await usage(pro)).trackedClicks).toBe(69);
    // Link details count every redirect (docs/decisions.md).
    expect(await linkClicks(pro, link.code)).toBe(74);
  });

  it('the pause covers every link of the account', async () => {
    const another = await createLink(pro);
    await visits(another.code, 3);
    expect(await linkStatsTotal(pro, another.code)).toBe(0);
  });

  it('removing the cap (0) resumes recording', async () => {
    expect((await setLimit(pro, { limitCents: 0 })).json()).toEqual({ success: true, limitCents: 0 });
    expect(await usage(pro)).toMatchObject({ overageLimitCents: null, capReached: false, recordingPaused: false });
    const link = await createLink(pro);
    await visits(link.code, 2);
    expect(await linkStatsTotal(pro, link.code)).toBe(2);
    expect((await usage(pro)).trackedClicks).toBe(71);
  });

  it('builder has no cap by default: every click past the included ones is recorded and charged', async () => {
    const link = await createLink(builder);
    await visits(link.code, 10);
    const state = await usage(builder);
    expect(state).toMatchObject({ trackedClicks: 10, includedClicks: 3, overageClicks: 7, overageLimitCents: null, capReached: false, recordingPaused: false });
    expect(state.overageChargeCents).toBeCloseTo(0.105, 1);
    expect(await linkStatsTotal(builder, link.code)).toBe(10);
  });

  it('the cap counts per cycle: the next month records again', async () => {
    expect((await setLimit(pro, { limitCents: 1 })).statusCode).toBe(200);
    expect(await usage(pro)).toMatchObject({ capReached: true, recordingPaused: true });
    toNextMonth(t);
    expect(await usage(pro)).toMatchObject({ trackedClicks: 0, capReached: false, recordingPaused: false, cycle: cycleNow(t) });
    const link = await createLink(pro);
    await visits(link.code, 4);
    expect(await linkStatsTotal(pro, link.code)).toBe(4);
  });
});

describe(`link.expired (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');
  const api = linkApi<CreatedLinkA, LinkA>(t, LINKS_A);

  it('is emitted once by the expiry sweep after the clock passes expiresAt', async () => {
    const expired: DomainEvents['link.expired'][] = [];
    t.core.bus.on('link.expired', (e) => expired.push(e));
    const mine = (code: string) => expired.filter((e) => e.link.code === code);

    const link = await api.create(pro, { url: 'https://example.com/expiring', expiresAt: api.inFuture(HOUR) });
    const later = await api.create(pro, { url: 'https://example.com/later', expiresAt: api.inFuture(3 * HOUR) });
    const never = await api.create(pro, { url: 'https://example.com/never' });

    await t.core.expiry.sweep();
    expect(mine(link.shortCode)).toEqual([]);

    t.clock.advance(HOUR + 1000);
    await t.core.expiry.sweep();
    expect(mine(link.shortCode)).toEqual([
      { link: expect.objectContaining({ code: link.shortCode, accountId: pro.id, url: 'https://example.com/expiring', expiresAt: link.expiresAt }) },
    ]);
    expect(mine(later.shortCode)).toEqual([]);
    expect((await api.visit(link.shortCode)).statusCode).toBe(410);

    await t.core.expiry.sweep();
    await t.core.expiry.sweep();
    expect(mine(link.shortCode)).toHaveLength(1);

    t.clock.advance(2 * HOUR);
    await t.core.expiry.sweep();
    await t.core.expiry.sweep();
    expect(mine(later.shortCode)).toHaveLength(1);
    expect(mine(link.shortCode)).toHaveLength(1);
    expect(mine(never.shortCode)).toEqual([]);
  });

  it('a new expiresAt set by an update is announced again when it comes', async () => {
    const expired: DomainEvents['link.expired'][] = [];
    t.core.bus.on('link.expired', (e) => expired.push(e));
    const link = await api.create(pro, { url: 'https://example.com/again', expiresAt: api.inFuture(HOUR) });
    t.clock.advance(HOUR + 1000);
    await t.core.expiry.sweep();
    expect(expired.filter((e) => e.link.code === link.shortCode)).toHaveLength(1);

    const res = await api.patch(pro, link.shortCode, { expiresAt: api.inFuture(HOUR) });
    expect(res.statusCode, res.body).toBe(200);
    await t.core.expiry.sweep();
    expect(expired.filter((e) => e.link.code === link.shortCode)).toHaveLength(1);
    t.clock.advance(HOUR + 1000);
    await t.core.expiry.sweep();
    await t.core.expiry.sweep();
    expect(expired.filter((e) => e.link.code === link.shortCode)).toHaveLength(2);
  });
});
