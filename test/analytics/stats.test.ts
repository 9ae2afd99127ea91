import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { dialectName, useTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import type { AccountAnalytics, AggregatedStats, DetailedStats, LinkStats } from '../helpers/stats-shapes.js';
import { expectError } from '../helpers/api-errors.js';
import { linkApi, LINKS_A, type Caller, type CreatedLinkA, type LinkA } from '../helpers/links.js';

/**
 * Statistics over real HTTP: LinkStats (A's /v1/links/{shortPath}/stats), DetailedStats (/stats/{code} and
 * /ns/stats/{prefix}/{slug}), AggregatedStats (their /aggregate) and Description B's /api/analytics group.
 */

const UA = {
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  chrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
};

const DAY = 86_400_000;
const CLICK_RECORD_KEYS = ['browser', 'city', 'country', 'device', 'os', 'referrer', 'region', 'timestamp'];
const AGGREGATE_KEYS = [
  'browserBreakdown', 'clicksByDay', 'countryBreakdown', 'deviceBreakdown', 'hourBreakdown', 'osBreakdown', 'period',
  'referrerBreakdown', 'short', 'tierLimit', 'totalClicks', 'uniqueVisitors',
];
const HOURS = Array.from({ length: 24 }, (_, h) => String(h));







interface Visit {
  ip?: string;
  ua?: string;
  referer?: string;
}

function client(t: TestApp) {
  const api = linkApi<CreatedLinkA, LinkA>(t, LINKS_A);
  const createLink = (user: TestUser, body: Record<string, unknown> = {}): Promise<CreatedLinkA> =>
    api.create(user, { url: 'https://example.com/stats', ...body });
  const visit = async (shortPath: string, v: Visit = {}): Promise<void> => {
    const headers: Record<string, string> = { 'user-agent': v.ua ?? UA.chrome };
    if (v.ip) headers['x-forwarded-for'] = v.ip;
    if (v.referer) headers.referer = v.referer;
    const res = await t.app.inject({ method: 'GET', url: `/${shortPath}`, headers });
    expect(res.statusCode, res.body).toBe(302);
  };
  const get = (user: Caller, url: string): Promise<LightMyRequestResponse> => t.as(user, { method: 'GET', url });
  const ok = async <T>(user: Caller, url: string): Promise<T> => {
    const res = await get(user, url);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json<T>();
  };
  const linkStatsUrl = (shortPath: string) => `/api/v1/links/${encodeURIComponent(shortPath)}/stats`;
  const details = async (user: TestUser, shortPath: string): Promise<LinkA> => {
    const res = await api.get(user, shortPath);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<LinkA>();
  };
  return { createLink, visit, get, ok, linkStatsUrl, details };
}

/** The `days` UTC dates ending today (by the test clock), oldest first. */
function lastDays(t: TestApp, days: number): string[] {
  const now = t.clock.now();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY).toISOString().slice(0, 10));
}

/** Moves the test clock forward to the next hh:30:00 UTC, so a short test's visits share one hour and day. */
function toMidHour(t: TestApp): void {
  const now = t.clock.now().getTime();
  const hour = 3_600_000;
  const target = Math.floor(now / hour) * hour + hour + hour / 2;
  t.clock.advance(target - now);
}

/** Counts of `keys` (every value counted once per occurrence). */
const tally = (keys: string[]): Record<string, number> => keys.reduce<Record<string, number>>((m, k) => ({ ...m, [k]: (m[k] ?? 0) + 1 }), {});

describe(`LinkStats: GET /api/v1/links/{shortPath}/stats (${dialectName})`, () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  const pro = t.user('pro');
  const other = t.user('pro');
  const free = t.user('free');
  const { createLink, visit, get, ok, linkStatsUrl, details } = client(t);

  it('answers exactly {shortCode, fullPath, totalClicks, clicks, byDestination} with ClickRecords, newest first', async () => {
    const link = await createLink(pro);
    await visit(link.shortCode, { ip: '81.2.69.142', ua: UA.iphone, referer: 'https://news.example.com/a' });
    await visit(link.shortCode, { ip: '8.8.8.8', ua: UA.chrome });
    const body = await ok<LinkStats>(pro, linkStatsUrl(link.shortCode));
    expect(body).toEqual({
      shortCode: link.shortCode,
      fullPath: null,
      totalClicks: 2,
      clicks: [
        { timestamp: expect.any(String), city: expect.any(String), region: expect.any(String), country: 'US', browser: 'Chrome', os: 'Windows', device: 'desktop', referrer: null },
        { timestamp: expect.any(String), city: 'London', region: 'England', country: 'GB', browser: 'Mobile Safari', os: 'iOS', device: 'mobile', referrer: 'news.example.com' },
      ],
      // A link without rules or variants: every click went to its destination.
      byDestination: [{ url: link.long, clicks: 2 }],
    });
    for (const click of body.clicks) {
      expect(Object.keys(click).sort()).toEqual(CLICK_RECORD_KEYS);
      expect(new Date(click.timestamp).toISOString()).toBe(click.timestamp);
    }
    expect(Date.parse(body.clicks[0]!.timestamp)).toBeGreaterThanOrEqual(Date.parse(body.clicks[1]!.timestamp));
  });

  it('a link without clicks has totalClicks 0 and no records', async () => {
    const link = await createLink(pro);
    expect(await ok<LinkStats>(pro, linkStatsUrl(link.shortCode))).toEqual({ shortCode: link.shortCode, fullPath: null, totalClicks: 0, clicks: [], byDestination: [] });
  });

  it('keeps the last 100 clicks: 105 visits give totalClicks 105 and the 100 newest records, newest first', async () => {
    const link = await createLink(pro);
    for (let i = 1; i <= 105; i++) {
      t.clock.advance(1000);
      await visit(link.shortCode, { referer: `https://ref${i}.example/` });
    }
    const body = await ok<LinkStats>(pro, linkStatsUrl(link.shortCode));
    expect(body.totalClicks).toBe(105);
    expect(body.clicks).toHaveLength(100);
    expect(body.clicks.map((c) => c.referrer)).toEqual(Array.from({ length: 100 }, (_, i) => `ref${105 - i}.example`));
    const times = body.clicks.map((c) => Date.parse(c.timestamp));
    for (let i = 1; i < times.length; i++) expect(times[i - 1]!).toBeGreaterThan(times[i]!);
    // The link details count every click, and DetailedStats agree.
    expect((await details(pro, link.shortCode)).clicks).toBe(105);
    const detailed = await ok<DetailedStats>(pro, `/api/stats/${link.shortCode}`);
    expect(detailed.opened).toBe(105);
    expect(detailed.clicks).toEqual(body.clicks);
    // More visits keep the window at the newest 100.
    await visit(link.shortCode, { referer: 'https://ref106.example/' });
    const after = await ok<LinkStats>(pro, linkStatsUrl(link.shortCode));
    expect(after.totalClicks).toBe(106);
    expect(after.clicks).toHaveLength(100);
    expect(after.clicks[0]!.referrer).toBe('ref106.example');
    expect(after.clicks[99]!.referrer).toBe('ref7.example');
  });

  it('answers a namespaced link by prefix%2Fslug and by its code, with fullPath', async () => {
    const link = await createLink(pro, { customSlug: 'stats-ns' });
    await visit(link.fullPath!);
    await visit(link.shortCode);
    const byPath = await ok<LinkStats>(pro, linkStatsUrl(link.fullPath!));
    expect(byPath).toMatchObject({ shortCode: link.shortCode, fullPath: `${pro.namespace}/stats-ns`, totalClicks: 2 });
    expect(byPath.clicks).toHaveLength(2);
    expect(await ok<LinkStats>(pro, linkStatsUrl(link.shortCode))).toEqual(byPath);
  });

  it("refuses another account's link (403), an unknown one (404), no key (401), a bad key (401), a free key (403)", async () => {
    const link = await createLink(pro);
    await visit(link.shortCode);
    expectError(await get(other, linkStatsUrl(link.shortCode)), 403, 'ACCESS_DENIED');
    expectError(await get(pro, linkStatsUrl('Zz9Zz9')), 404, 'NOT_FOUND');
    expectError(await get(pro, linkStatsUrl(`${pro.namespace}/no-such-slug`)), 404, 'NOT_FOUND');
    expectError(await get(null, linkStatsUrl(link.shortCode)), 401, 'API_KEY_REQUIRED');
    expectError(await get('snip_notARealKeyAtAll0000000000000000000000', linkStatsUrl(link.shortCode)), 401, 'INVALID_API_KEY');
    expectError(await get(free, linkStatsUrl(link.shortCode)), 403, 'TIER_REQUIRED');
  });
});

describe(`DetailedStats: GET /api/stats/{shortCode} and /api/ns/stats/{prefix}/{slug} (${dialectName})`, () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  const pro = t.user('pro');
  const other = t.user('pro');
  const free = t.user('free');
  const { createLink, visit, get, ok, linkStatsUrl } = client(t);

  const expiresIn = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();

  it('without a key: every DetailedStats field, with an empty clicks array', async () => {
    const expiresAt = expiresIn(30 * DAY);
    const link = await createLink(pro, { url: 'https://example.com/detailed?x=1', expiresAt, maxClicks: 50 });
    await visit(link.shortCode, { ip: '81.2.69.142', ua: UA.iphone });
    await visit(link.shortCode, { ip: '8.8.8.8' });
    const body = await ok<DetailedStats>(null, `/api/stats/${link.shortCode}`);
    expect(body).toEqual({
      short: link.shortCode,
      // A capped link's destination is its owner's alone (test/security/one-time-links.test.ts).
      long: null,
      opened: 2,
      created: link.created,
      expiresAt: link.expiresAt,
      maxClicks: 50,
      isCustom: false,
      clicks: [],
    });
    expect(Date.parse(body.expiresAt!)).toBe(Date.parse(expiresAt));
  });

  it("with another account's key: the same basic set, no click details", async () => {
    const link = await createLink(pro);
    await visit(link.shortCode, { ip: '81.2.69.142' });
    const anonymous = await ok<DetailedStats>(null, `/api/stats/${link.shortCode}`);
    const foreign = await ok<DetailedStats>(other, `/api/stats/${link.shortCode}`);
    expect(foreign).toEqual(anonymous);
    expect(foreign).toMatchObject({ opened: 1, clicks: [], expiresAt: null, maxClicks: null });
  });

  it("with the owner's key: the click details, the same records as LinkStats", async () => {
    const link = await createLink(pro);
    await visit(link.shortCode, { ip: '81.2.69.142', ua: UA.ipad, referer: 'https://t.co/abc' });
    await visit(link.shortCode, { ip: '8.8.8.8', ua: UA.chrome });
    const body = await ok<DetailedStats>(pro, `/api/stats/${link.shortCode}`);
    expect(body).toMatchObject({ short: link.shortCode, opened: 2, isCustom: false });
    expect(body.clicks).toHaveLength(2);
    expect(body.clicks[1]).toEqual({
      timestamp: expect.any(String), city: 'London', region: 'England', country: 'GB', browser: 'Mobile Safari', os: 'iOS', device: 'tablet', referrer: 't.co',
    });
    expect(body.clicks).toEqual((await ok<LinkStats>(pro, linkStatsUrl(link.shortCode))).clicks);
    // The basic set is the same with and without the key, apart from the clicks.
    const anonymous = await ok<DetailedStats>(null, `/api/stats/${link.shortCode}`);
    expect({ ...body, clicks: [] }).toEqual(anonymous);
  });

  it("a free owner's key sees its own click details (the route needs no API plan)", async () => {
    const caller = await t.core.accounts.callerFor(free.email);
    const link = await t.core.links.create(caller, { url: 'https://example.com/free-link' });
    await visit(link.code, { ip: '81.2.69.142' });
    const body = await ok<DetailedStats>(free, `/api/stats/${link.code}`);
    expect(body).toMatchObject({ short: link.code, opened: 1 });
    expect(body.clicks).toEqual([expect.objectContaining({ country: 'GB' })]);
    expect((await ok<DetailedStats>(pro, `/api/stats/${link.code}`)).clicks).toEqual([]);
  });

  it('a bad key is 401 even where a key is optional; a malformed code 400; an unknown code 404', async () => {
    const link = await createLink(pro);
    expectError(await get('snip_notARealKeyAtAll0000000000000000000000', `/api/stats/${link.shortCode}`), 401, 'INVALID_API_KEY');
    expectError(await get(null, '/api/stats/abc'), 400, 'INVALID_SHORT_CODE');
    expectError(await get(null, '/api/stats/abc-def'), 400, 'INVALID_SHORT_CODE');
    expectError(await get(null, '/api/stats/Zz9Zz9'), 404, 'NOT_FOUND');
    expectError(await get(pro, '/api/stats/Zz9Zz9'), 404, 'NOT_FOUND');
  });

  it('/api/ns/stats/{prefix}/{slug}: short is the namespaced path, isCustom true, prefix case-insensitive', async () => {
    const link = await createLink(pro, { url: 'https://example.com/ns-detailed', customSlug: 'Detail-Me' });
    await visit(link.fullPath!, { ip: '81.2.69.142' });
    await visit(link.shortCode, { ip: '8.8.8.8' });
    const url = `/api/ns/stats/${pro.namespace}/Detail-Me`;
    const anonymous = await ok<DetailedStats>(null, url);
    expect(anonymous).toEqual({
      short: `${pro.namespace}/Detail-Me`,
      long: 'https://example.com/ns-detailed',
      opened: 2,
      created: link.created,
      expiresAt: null,
      maxClicks: null,
      isCustom: true,
      clicks: [],
    });
    expect(await ok<DetailedStats>(other, url)).toEqual(anonymous);
    const owner = await ok<DetailedStats>(pro, url);
    expect(owner.clicks.map((c) => c.country)).toEqual(['US', 'GB']);
    expect(await ok<DetailedStats>(pro, `/api/ns/stats/${pro.namespace!.toUpperCase()}/Detail-Me`)).toEqual(owner);
    // The code route shows the same link (with its code as `short`).
    expect(await ok<DetailedStats>(pro, `/api/stats/${link.shortCode}`)).toEqual({ ...owner, short: link.shortCode });
    // Slugs are matched exactly; unknown ones are 404.
    expectError(await get(null, `/api/ns/stats/${pro.namespace}/detail-me`), 404, 'NOT_FOUND');
    expectError(await get(null, '/api/ns/stats/nobody-owns-this/Detail-Me'), 404, 'NOT_FOUND');
  });
});

describe(`AggregatedStats: /api/stats/{shortCode}/aggregate and /api/ns/stats/.../aggregate (${dialectName})`, () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  const pro = t.user('pro');
  const other = t.user('pro');
  const builder = t.user('builder');
  const enterprise = t.user('enterprise');
  const free = t.user('free');
  const { createLink, visit, get, ok, linkStatsUrl } = client(t);

  it('answers every breakdown: days, devices, countries, referrers, browsers, OSes, hours, unique visitors, tierLimit', async () => {
    toMidHour(t);
    const link = await createLink(pro);
    await visit(link.shortCode, { ip: '81.2.69.142', ua: UA.iphone, referer: 'https://news.example.com/x' });
    await visit(link.shortCode, { ip: '81.2.69.142', ua: UA.iphone, referer: 'https://news.example.com/y' });
    await visit(link.shortCode, { ip: '81.2.69.142', ua: UA.ipad, referer: 'https://t.co/z' });
    await visit(link.shortCode, { ip: '8.8.8.8', ua: UA.chrome });
    await visit(link.shortCode, { ip: '10.0.0.1', ua: UA.chrome });
    const records = (await ok<LinkStats>(pro, linkStatsUrl(link.shortCode))).clicks;
    const body = await ok<AggregatedStats>(pro, `/api/stats/${link.shortCode}/aggregate`);
    expect(Object.keys(body).sort()).toEqual(AGGREGATE_KEYS);

    const days = lastDays(t, 7);
    const byDay = tally(records.map((c) => c.timestamp.slice(0, 10)));
    const byHour = tally(records.map((c) => String(new Date(c.timestamp).getUTCHours())));
    expect(body).toEqual({
      short: link.shortCode,
      period: '7d',
      totalClicks: 5,
      clicksByDay: days.map((date) => ({ date, clicks: byDay[date] ?? 0 })),
      deviceBreakdown: { mobile: 2, desktop: 2, tablet: 1 },
      countryBreakdown: { GB: 3, US: 1, unknown: 1 },
      referrerBreakdown: { 'news.example.com': 2, 't.co': 1, direct: 2 },
      browserBreakdown: { 'Mobile Safari': 3, Chrome: 2 },
      osBreakdown: { iOS: 3, Windows: 2 },
      hourBreakdown: Object.fromEntries(HOURS.map((h) => [h, byHour[h] ?? 0])),
      uniqueVisitors: 4,
      tierLimit: 90,
    });
    expect(body.clicksByDay.at(-1)!.clicks).toBe(5);
    expect(Object.keys(body.hourBreakdown).sort((a, b) => Number(a) - Number(b))).toEqual(HOURS);
    expect(Object.keys(body.deviceBreakdown).sort()).toEqual(['desktop', 'mobile', 'tablet']);
  });

  it('a link without clicks still lists every day, hour and device, at zero', async () => {
    const link = await createLink(pro);
    const body = await ok<AggregatedStats>(pro, `/api/stats/${link.shortCode}/aggregate?period=30d`);
    expect(body).toEqual({
      short: link.shortCode,
      period: '30d',
      totalClicks: 0,
      clicksByDay: lastDays(t, 30).map((date) => ({ date, clicks: 0 })),
      deviceBreakdown: { mobile: 0, desktop: 0, tablet: 0 },
      countryBreakdown: {},
      referrerBreakdown: {},
      browserBreakdown: {},
      osBreakdown: {},
      hourBreakdown: Object.fromEntries(HOURS.map((h) => [h, 0])),
      uniqueVisitors: 0,
      tierLimit: 90,
    });
  });

  it('period defaults to 7d; clicksByDay has one entry per day of the period, ending today', async () => {
    const link = await createLink(pro);
    await visit(link.shortCode);
    const byDefault = await ok<AggregatedStats>(pro, `/api/stats/${link.shortCode}/aggregate`);
    expect(await ok<AggregatedStats>(pro, `/api/stats/${link.shortCode}/aggregate?period=7d`)).toEqual(byDefault);
    for (const [period, days] of [['7d', 7], ['30d', 30], ['90d', 90]] as const) {
      const body = await ok<AggregatedStats>(pro, `/api/stats/${link.shortCode}/aggregate?period=${period}`);
      expect(body.period).toBe(period);
      expect(body.totalClicks).toBe(1);
      expect(body.clicksByDay.map((d) => d.date)).toEqual(lastDays(t, days));
      expect(body.clicksByDay.reduce((n, d) => n + d.clicks, 0)).toBe(1);
    }
  });

  it.each(['14d', '1y', 'abc', '7', '365D', ''])('period=%s is 400 INVALID_PERIOD', async (period) => {
    const link = await createLink(pro);
    expectError(await get(pro, `/api/stats/${link.shortCode}/aggregate?period=${period}`), 400, 'INVALID_PERIOD');
  });

  it('a period beyond the plan history is 403 PERIOD_EXCEEDS_PLAN: pro keeps 90 days, builder and enterprise 365', async () => {
    const proLink = await createLink(pro);
    expectError(await get(pro, `/api/stats/${proLink.shortCode}/aggregate?period=365d`), 403, 'PERIOD_EXCEEDS_PLAN');
    expect((await ok<AggregatedStats>(pro, `/api/stats/${proLink.shortCode}/aggregate?period=90d`)).tierLimit).toBe(90);

    const builderLink = await createLink(builder);
    await visit(builderLink.shortCode);
    const year = await ok<AggregatedStats>(builder, `/api/stats/${builderLink.shortCode}/aggregate?period=365d`);
    expect(year).toMatchObject({ period: '365d', totalClicks: 1, tierLimit: 365 });
    expect(year.clicksByDay).toHaveLength(365);
    expect((await ok<AggregatedStats>(builder, `/api/stats/${builderLink.shortCode}/aggregate`)).tierLimit).toBe(365);

    const enterpriseLink = await createLink(enterprise);
    expect(await ok<AggregatedStats>(enterprise, `/api/stats/${enterpriseLink.shortCode}/aggregate?period=365d`)).toMatchObject({ tierLimit: 365 });
  });

  it('a period above the plan is refused even for a link of the caller with no clicks, and for namespaced links', async () => {
    const link = await createLink(pro, { customSlug: 'too-far-back' });
    expectError(await get(pro, `/api/ns/stats/${pro.namespace}/too-far-back/aggregate?period=365d`), 403, 'PERIOD_EXCEEDS_PLAN');
    expectError(await get(pro, `/api/analytics/links/${encodeURIComponent(link.fullPath!)}?period=365d`), 403, 'PERIOD_EXCEEDS_PLAN');
  });

  it('a free key is refused with 403 (free accounts have no API access), whatever the period', async () => {
    const caller = await t.core.accounts.callerFor(free.email);
    const link = await t.core.links.create(caller, { url: 'https://example.com/free-agg' });
    for (const period of ['7d', '30d', '90d', '365d']) {
      expectError(await get(free, `/api/stats/${link.code}/aggregate?period=${period}`), 403, 'TIER_REQUIRED');
    }
    // Free's 30 days of history (spec 8.4) hold in the service every surface uses: 30d is answered, 90d is not.
    expect((await t.core.analytics.aggregate(caller, { linkId: link.id }, '30d')).tierLimit).toBe(30);
    await expect(t.core.analytics.aggregate(caller, { linkId: link.id }, '90d')).rejects.toMatchObject({ status: 403, code: 'PERIOD_EXCEEDS_PLAN' });
  });

  it("refuses another account's link (403), an unknown link (404), no key (401), a malformed code (400)", async () => {
    const link = await createLink(pro, { customSlug: 'agg-mine' });
    expectError(await get(other, `/api/stats/${link.shortCode}/aggregate`), 403, 'ACCESS_DENIED');
    expectError(await get(other, `/api/ns/stats/${pro.namespace}/agg-mine/aggregate`), 403, 'ACCESS_DENIED');
    expectError(await get(pro, '/api/stats/Zz9Zz9/aggregate'), 404, 'NOT_FOUND');
    expectError(await get(pro, `/api/ns/stats/${pro.namespace}/agg-nothing/aggregate`), 404, 'NOT_FOUND');
    expectError(await get(null, `/api/stats/${link.shortCode}/aggregate`), 401, 'API_KEY_REQUIRED');
    expectError(await get(null, `/api/ns/stats/${pro.namespace}/agg-mine/aggregate`), 401, 'API_KEY_REQUIRED');
    expectError(await get(pro, '/api/stats/abc/aggregate'), 400, 'INVALID_SHORT_CODE');
  });

  it('the namespaced aggregate answers the same numbers with the namespaced path as short', async () => {
    const link = await createLink(pro, { customSlug: 'agg-ns' });
    await visit(link.fullPath!, { ip: '81.2.69.142', ua: UA.iphone });
    await visit(link.shortCode, { ip: '8.8.8.8' });
    const byCode = await ok<AggregatedStats>(pro, `/api/stats/${link.shortCode}/aggregate?period=30d`);
    const byPath = await ok<AggregatedStats>(pro, `/api/ns/stats/${pro.namespace}/agg-ns/aggregate?period=30d`);
    expect(byPath).toEqual({ ...byCode, short: `${pro.namespace}/agg-ns` });
    expect(byPath).toMatchObject({ totalClicks: 2, countryBreakdown: { GB: 1, US: 1 }, deviceBreakdown: { mobile: 1, desktop: 1, tablet: 0 } });
    expect(await ok<AggregatedStats>(pro, `/api/ns/stats/${pro.namespace!.toUpperCase()}/agg-ns/aggregate?period=30d`)).toEqual(byPath);
  });
});

describe(`aggregates over time (${dialectName})`, () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  const pro = t.user('pro');
  const { createLink, visit, ok, linkStatsUrl } = client(t);

  it('a period counts the clicks of its days only; older clicks stay in the totals', async () => {
    const link = await createLink(pro);
    await visit(link.shortCode, { ip: '81.2.69.142' });
    await visit(link.shortCode, { ip: '81.2.69.142' });
    const firstDay = lastDays(t, 1)[0]!;
    t.clock.advance(10 * DAY);
    await visit(link.shortCode, { ip: '8.8.8.8', ua: UA.iphone });

    const week = await ok<AggregatedStats>(pro, `/api/stats/${link.shortCode}/aggregate?period=7d`);
    expect(week).toMatchObject({ totalClicks: 1, countryBreakdown: { US: 1 }, deviceBreakdown: { mobile: 1, desktop: 0, tablet: 0 }, uniqueVisitors: 1 });
    expect(week.clicksByDay.map((d) => d.clicks)).toEqual([0, 0, 0, 0, 0, 0, 1]);

    const month = await ok<AggregatedStats>(pro, `/api/stats/${link.shortCode}/aggregate?period=30d`);
    expect(month).toMatchObject({ totalClicks: 3, countryBreakdown: { GB: 2, US: 1 }, uniqueVisitors: 2 });
    expect(month.clicksByDay.find((d) => d.date === firstDay)?.clicks).toBe(2);
    expect(month.clicksByDay.at(-1)?.clicks).toBe(1);

    // LinkStats and DetailedStats count every visible click, whatever its age.
    expect((await ok<LinkStats>(pro, linkStatsUrl(link.shortCode))).totalClicks).toBe(3);
    expect((await ok<DetailedStats>(pro, `/api/stats/${link.shortCode}`)).opened).toBe(3);

    // 100 days on, the 90-day window no longer holds the first two.
    t.clock.advance(85 * DAY);
    expect((await ok<AggregatedStats>(pro, `/api/stats/${link.shortCode}/aggregate?period=90d`)).totalClicks).toBe(1);
  });
});

describe(`Description B: /api/analytics/links/{shortPath} and /api/analytics (${dialectName})`, () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  const pro = t.user('pro');
  const other = t.user('pro');
  const free = t.user('free');
  const { createLink, visit, get, ok } = client(t);

  it('/api/analytics/links/{shortPath} is the AggregatedStats of one link, by code or prefix%2Fslug', async () => {
    const link = await createLink(pro, { customSlug: 'b-analytics' });
    await visit(link.shortCode, { ip: '81.2.69.142', ua: UA.iphone, referer: 'https://t.co/1' });
    await visit(link.fullPath!, { ip: '8.8.8.8' });
    const a = await ok<AggregatedStats>(pro, `/api/stats/${link.shortCode}/aggregate?period=30d`);
    const byPath = await ok<AggregatedStats>(pro, `/api/analytics/links/${encodeURIComponent(link.fullPath!)}?period=30d`);
    expect(Object.keys(byPath).sort()).toEqual(AGGREGATE_KEYS);
    expect(byPath).toEqual({ ...a, short: link.fullPath });
    const byCode = await ok<AggregatedStats>(pro, `/api/analytics/links/${link.shortCode}?period=30d`);
    expect(byCode).toEqual(byPath);
    const byDefault = await ok<AggregatedStats>(pro, `/api/analytics/links/${link.shortCode}`);
    expect(byDefault).toMatchObject({ period: '7d', totalClicks: 2 });
    expect(byDefault.clicksByDay).toHaveLength(7);
  });

  it('/api/analytics/links refuses like A: 403 other account, 404 unknown, 401 no key, 400 bad period, 403 free', async () => {
    const link = await createLink(pro);
    expectError(await get(other, `/api/analytics/links/${link.shortCode}`), 403, 'ACCESS_DENIED');
    expectError(await get(pro, '/api/analytics/links/Zz9Zz9'), 404, 'NOT_FOUND');
    expectError(await get(null, `/api/analytics/links/${link.shortCode}`), 401, 'API_KEY_REQUIRED');
    expectError(await get(pro, `/api/analytics/links/${link.shortCode}?period=2w`), 400, 'INVALID_PERIOD');
    expectError(await get(free, `/api/analytics/links/${link.shortCode}`), 403, 'TIER_REQUIRED');
  });

  it('/api/analytics sums the whole account and lists topLinks, most clicked first, without links of no clicks', async () => {
    const user = await t.createUser('pro');
    const a = await createLink(user, { url: 'https://example.com/a' });
    const b = await createLink(user, { url: 'https://example.com/b', customSlug: 'top-b' });
    const c = await createLink(user, { url: 'https://example.com/c' });
    await createLink(user, { url: 'https://example.com/never' });
    for (let i = 0; i < 3; i++) await visit(a.shortCode, { ip: '81.2.69.142', ua: UA.iphone });
    await visit(b.fullPath!, { ip: '8.8.8.8', referer: 'https://news.example.com/' });
    await visit(b.shortCode, { ip: '8.8.8.8', referer: 'https://news.example.com/' });
    await visit(c.shortCode, { ip: '1.1.1.1', ua: UA.ipad });
    // Another account's clicks stay out.
    const foreign = await createLink(other);
    await visit(foreign.shortCode);

    const body = await ok<AccountAnalytics>(user, '/api/analytics');
    expect(Object.keys(body).sort()).toEqual([...AGGREGATE_KEYS.filter((k) => k !== 'short'), 'topLinks'].sort());
    const days = lastDays(t, 7);
    expect(body).toMatchObject({
      period: '7d',
      totalClicks: 6,
      deviceBreakdown: { mobile: 3, desktop: 2, tablet: 1 },
      countryBreakdown: { GB: 3, US: 2, AU: 1 },
      referrerBreakdown: { 'news.example.com': 2, direct: 4 },
      browserBreakdown: { 'Mobile Safari': 4, Chrome: 2 },
      osBreakdown: { iOS: 4, Windows: 2 },
      uniqueVisitors: 3,
      tierLimit: 90,
    });
    expect(body.clicksByDay.map((d) => d.date)).toEqual(days);
    expect(body.clicksByDay.reduce((n, d) => n + d.clicks, 0)).toBe(6);
    expect(Object.keys(body.hourBreakdown).sort((x, y) => Number(x) - Number(y))).toEqual(HOURS);
    expect(Object.values(body.hourBreakdown).reduce((n, v) => n + v, 0)).toBe(6);
    expect(body.topLinks).toEqual([
      { shortCode: a.shortCode, fullPath: null, shortUrl: `http://snip.test/${a.shortCode}`, clicks: 3 },
      { shortCode: b.shortCode, fullPath: b.fullPath, shortUrl: `http://snip.test/${b.fullPath}`, clicks: 2 },
      { shortCode: c.shortCode, fullPath: null, shortUrl: `http://snip.test/${c.shortCode}`, clicks: 1 },
    ]);

    const month = await ok<AccountAnalytics>(user, '/api/analytics?period=90d');
    expect(month).toMatchObject({ period: '90d', totalClicks: 6 });
    expect(month.clicksByDay).toHaveLength(90);
    expect(month.topLinks).toEqual(body.topLinks);
  });

  it('/api/analytics lists at most 10 top links', async () => {
    const user = await t.createUser('pro');
    const links: CreatedLinkA[] = [];
    for (let i = 0; i < 12; i++) links.push(await createLink(user, { url: `https://example.com/many/${i}` }));
    // Link i gets i + 1 clicks, so the top ten are links 11 down to 2.
    for (const [i, link] of links.entries()) for (let n = 0; n <= i; n++) await visit(link.shortCode);
    const body = await ok<AccountAnalytics>(user, '/api/analytics');
    expect(body.totalClicks).toBe(78);
    expect(body.topLinks.map((l) => [l.shortCode, l.clicks])).toEqual(links.slice(2).reverse().map((l, i) => [l.shortCode, 12 - i]));
  });

  it('/api/analytics: a fresh account has zeros; 365d is 403 for pro; a bad period 400; no key 401; free 403', async () => {
    const user = await t.createUser('pro');
    const body = await ok<AccountAnalytics>(user, '/api/analytics?period=30d');
    expect(body).toEqual({
      period: '30d',
      totalClicks: 0,
      clicksByDay: lastDays(t, 30).map((date) => ({ date, clicks: 0 })),
      deviceBreakdown: { mobile: 0, desktop: 0, tablet: 0 },
      countryBreakdown: {},
      referrerBreakdown: {},
      browserBreakdown: {},
      osBreakdown: {},
      hourBreakdown: Object.fromEntries(HOURS.map((h) => [h, 0])),
      uniqueVisitors: 0,
      tierLimit: 90,
      topLinks: [],
    });
    expectError(await get(user, '/api/analytics?period=365d'), 403, 'PERIOD_EXCEEDS_PLAN');
    expectError(await get(user, '/api/analytics?period=10d'), 400, 'INVALID_PERIOD');
    expectError(await get(null, '/api/analytics'), 401, 'API_KEY_REQUIRED');
    expectError(await get(free, '/api/analytics'), 403, 'TIER_REQUIRED');
    const builder = await t.createUser('builder');
    expect(await ok<AccountAnalytics>(builder, '/api/analytics?period=365d')).toMatchObject({ period: '365d', tierLimit: 365, topLinks: [] });
  });
});

describe(`a free key on the statistics routes with a plans file granting Free API access (${dialectName})`, () => {
  const t = useTestApp({ PLANS_FILE: path.join(import.meta.dirname, '..', 'fixtures', 'plans-clicks-free-api.json') });
  const free = t.user('free');
  const { get } = client(t);

  it('may use the key routes, within Free history: 30d answers, 90d is 403 PERIOD_EXCEEDS_PLAN', async () => {
    const caller = await t.core.accounts.callerFor(free.email);
    const link = await t.core.links.create(caller, { url: 'https://example.com/free-api' });
    const month = await get(free, `/api/stats/${link.code}/aggregate?period=30d`);
    expect(month.statusCode, month.body).toBe(200);
    expect(month.json().tierLimit).toBe(30);
    expectError(await get(free, `/api/stats/${link.code}/aggregate?period=90d`), 403, 'PERIOD_EXCEEDS_PLAN');
    expect((await get(free, `/api/v1/links/${link.code}/stats`)).statusCode).toBe(200);
    expect((await get(free, `/api/analytics/links/${link.code}?period=30d`)).statusCode).toBe(200);
    expect((await get(free, '/api/analytics?period=30d')).statusCode).toBe(200);
    // The optional-key route answers the owner.
    const res = await get(free, `/api/stats/${link.code}`);
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('GET /api/analytics/links/{shortPath}/hourly (the dashboard\'s 24h chart)', () => {
  const t = useTestApp();
  const owner = t.user('pro');
  const other = t.user('pro');

  it('answers the last 24 hours hour by hour, the clicks counted in the hour under way; another account gets 403', async () => {
    const created = await t.as(owner, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/hourly' } });
    const code = created.json<{ shortCode: string }>().shortCode;
    const ua = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
    for (let i = 0; i < 3; i++) expect((await t.app.inject({ method: 'GET', url: `/${code}`, headers: { 'user-agent': ua } })).statusCode).toBe(302);
    const res = await t.as(owner, { method: 'GET', url: `/api/analytics/links/${code}/hourly` });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ period: string; totalClicks: number; clicksByHour: { hour: string; clicks: number }[] }>();
    expect(body.period).toBe('24h');
    expect(body.clicksByHour).toHaveLength(24);
    // The hour under way, or the one before when the clock turned an hour between the visits and the read.
    expect(body.clicksByHour.slice(-2).reduce((sum, h) => sum + h.clicks, 0)).toBe(3);
    expect(body.totalClicks).toBe(3);
    expect(Date.parse(body.clicksByHour.at(-1)!.hour)).toBeLessThanOrEqual(Date.now());
    expect((await t.as(other, { method: 'GET', url: `/api/analytics/links/${code}/hourly` })).statusCode).toBe(403);
  });
});
