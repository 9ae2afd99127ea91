import { describe, expect, it } from 'vitest';
import { dialectName, useTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { expectError } from '../helpers/api-errors.js';
import { linkApi, LINKS_A, type CreatedLinkA, type LinkA } from '../helpers/links.js';

/**
 * Bulk creation (spec 2.6, 4.1 and 4.2, issue 3): POST /api/v1/bulk (Description A, Builder+, 1-100 items) and
 * POST /api/bulk (Description B, Pro+, up to 1,000 items, `long` in Base64 allowed). Each item stands alone.
 * The app runs unmetered (test/fixtures/plans-unmetered.json); the limits are in test/usage/rate-limits.test.ts.
 */

const HOUR = 3_600_000;
const BULK_A = '/api/v1/bulk';
const BULK_B = '/api/bulk';

interface BulkResult {
  index: number;
  url: string;
  success: boolean;
  shortUrl?: string;
  shortCode?: string;
  fullPath?: string | null;
  error?: string;
  code?: string;
}

interface BulkResponse {
  success: boolean;
  summary: { total: number; created: number; failed: number };
  results: BulkResult[];
}

const SUCCESS_KEYS = ['fullPath', 'index', 'shortCode', 'shortUrl', 'success', 'url'];
const FAILURE_KEYS = ['code', 'error', 'index', 'success', 'url'];

const b64 = (text: string): string => Buffer.from(text).toString('base64');
const b64url = (text: string): string => Buffer.from(text).toString('base64url');

function client(t: TestApp) {
  const links = linkApi<CreatedLinkA, LinkA>(t, LINKS_A);
  const bulk = (user: TestUser | null, route: string, payload: unknown) => t.as(user, { method: 'POST', url: route, payload: payload as object });
  /** POST a bulk request, asserting 200 and the response's outline: one result per item, in input order. */
  const bulkOk = async (user: TestUser, route: string, urls: unknown[]): Promise<BulkResponse> => {
    const res = await bulk(user, route, { urls });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<BulkResponse>();
    expect(Object.keys(body).sort()).toEqual(['results', 'success', 'summary']);
    expect(body.success).toBe(true);
    expect(body.results.map((r) => r.index)).toEqual(urls.map((_, i) => i));
    const created = body.results.filter((r) => r.success).length;
    expect(body.summary).toEqual({ total: urls.length, created, failed: urls.length - created });
    return body;
  };
  /** Every link of the user, page by page. */
  const allLinks = async (user: TestUser): Promise<LinkA[]> => {
    const all: LinkA[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await links.page(user, `?limit=100&offset=${offset}`);
      all.push(...page.links);
      if (!page.pagination.hasMore) return all;
    }
  };
  return { links, bulk, bulkOk, allLinks };
}

/** A successful result: exactly the success fields, a 6-character code, the short URL built from the base URL. */
function expectCreated(t: TestApp, result: BulkResult | undefined, url: string, fullPath: string | null = null): void {
  expect(result, 'missing result').toBeDefined();
  const r = result!;
  expect(Object.keys(r).sort(), JSON.stringify(r)).toEqual(SUCCESS_KEYS);
  expect(r).toMatchObject({ url, success: true, fullPath });
  expect(r.shortCode).toMatch(/^[A-Za-z0-9]{6}$/);
  expect(r.shortUrl).toBe(`${t.baseUrl}/${fullPath ?? r.shortCode}`);
}

/** A failed result: exactly the failure fields, a readable message and the code. */
function expectFailed(result: BulkResult | undefined, code: string, url?: string): void {
  expect(result, 'missing result').toBeDefined();
  const r = result!;
  expect(Object.keys(r).sort(), JSON.stringify(r)).toEqual(FAILURE_KEYS);
  expect(r, JSON.stringify(r)).toMatchObject({ success: false, code, error: expect.stringMatching(/\S/) });
  if (url !== undefined) expect(r.url).toBe(url);
}

async function expectRedirect(t: TestApp, path: string, location: string): Promise<void> {
  const res = await t.app.inject({ method: 'GET', url: `/${path}` });
  expect(res.statusCode, `${path}: ${res.body}`).toBe(302);
  expect(res.headers.location).toBe(location);
}

describe(`bulk creation, Description A: POST /api/v1/bulk (${dialectName})`, () => {
  const t = useTestApp();
  const builder = t.user('builder');
  const otherBuilder = t.user('builder');
  const pro = t.user('pro');
  const free = t.user('free');
  const api = client(t);

  it('needs Builder or above: Pro and Free get 403 TIER_REQUIRED, no key 401, and nothing is created', async () => {
    const urls = [{ url: 'https://example.com/tier' }];
    expectError(await api.bulk(pro, BULK_A, { urls }), 403, 'TIER_REQUIRED');
    expectError(await api.bulk(free, BULK_A, { urls }), 403, 'TIER_REQUIRED');
    expectError(await api.bulk(null, BULK_A, { urls }), 401, 'API_KEY_REQUIRED');
    expect(await api.links.listAll(pro)).toEqual([]);
    const ent = await t.createUser('enterprise');
    const body = await api.bulkOk(ent, BULK_A, urls);
    expectCreated(t, body.results[0], 'https://example.com/tier');
  });

  it.each([
    ['{}', {}, 'MISSING_URLS'],
    ['{urls: []}', { urls: [] }, 'MISSING_URLS'],
    ['{urls: null}', { urls: null }, 'MISSING_URLS'],
    ['{urls: "x"}', { urls: 'https://example.com' }, 'INVALID_URLS'],
    ['101 items', { urls: Array.from({ length: 101 }, (_, i) => ({ url: `https://example.com/${i}` })) }, 'TOO_MANY_URLS'],
  ])('%s gives 400 %s and creates nothing', async (_label, payload, code) => {
    const user = await t.createUser('builder');
    expectError(await api.bulk(user, BULK_A, payload), 400, code);
    expect(await api.allLinks(user)).toEqual([]);
  });

  it('an empty body gives 400 MISSING_URLS', async () => {
    const res = await t.as(builder, { method: 'POST', url: BULK_A, headers: { 'content-type': 'application/json' }, payload: '' });
    expectError(res, 400, 'MISSING_URLS');
  });

  it('100 items (the maximum) are all created', async () => {
    const user = await t.createUser('builder');
    const urls = Array.from({ length: 100 }, (_, i) => ({ url: `https://example.com/hundred/${i}` }));
    const body = await api.bulkOk(user, BULK_A, urls);
    expect(body.summary).toEqual({ total: 100, created: 100, failed: 0 });
    body.results.forEach((r, i) => expectCreated(t, r, `https://example.com/hundred/${i}`));
    expect(new Set(body.results.map((r) => r.shortCode)).size).toBe(100);
    expect(await api.allLinks(user)).toHaveLength(100);
  });

  it('a mix of good and bad items: 200, each bad item fails alone with its code, in input order', async () => {
    const ns = builder.namespace!;
    await api.links.create(builder, { url: 'https://example.com/existing', customSlug: 'already-taken' });
    await api.links.create(otherBuilder, { url: 'https://example.com/theirs', customSlug: 'theirs' });
    const expiresAt = api.links.inFuture(24 * HOUR);
    const activeFrom = api.links.inFuture(HOUR);
    const items: unknown[] = [
      /* 0 */ { url: 'https://example.com/one' },
      /* 1 */ { url: 'not a url' },
      /* 2 */ { url: 'javascript:alert(1)' },
      /* 3 */ { url: 'https://example.com/slug', customSlug: 'bulk-slug' },
      /* 4 */ { url: 'https://example.com/bad-slug', customSlug: 'no spaces!' },
      /* 5 */ { url: 'https://example.com/dup', customSlug: 'bulk-slug' },
      /* 6 */ { url: 'https://example.com/taken', customSlug: 'already-taken' },
      /* 7 */ { url: 'https://example.com/zero', maxClicks: 0 },
      /* 8 */ { url: 'https://example.com/past', expiresAt: '2020-01-01T00:00:00Z' },
      /* 9 */ 'https://example.com/string-item',
      /* 10 */ null,
      /* 11 */ ['https://example.com/array-item'],
      /* 12 */ { url: 42 },
      /* 13 */ { url: 'https://example.com/types', maxClicks: '3' },
      /* 14 */ { url: 'https://example.com/types', customSlug: 7 },
      /* 15 */ { url: 'https://example.com/types', expiresAt: 1_700_000_000 },
      /* 16 */ { url: 'https://example.com/types', activeFrom: false },
      /* 17 */ {},
      /* 18 */ { url: 'https://example.com/capped', maxClicks: 2, expiresAt },
      /* 19 */ { url: 'https://example.com/mine-too', customSlug: 'theirs' },
      /* 20 */ { url: 'http://snip.test/abcdef' },
      /* 21 */ { url: 'https://example.com/later', activeFrom },
      /* 22 */ { url: 'https://example.com/one' },
      /* 23 */ { url: 'https://example.com/short', customSlug: 'ab' },
      /* 24 */ { url: 'https://example.com/half', maxClicks: 1.5 },
    ];
    const body = await api.bulkOk(builder, BULK_A, items);
    const r = body.results;
    expect(body.summary).toEqual({ total: 25, created: 6, failed: 19 });

    expectCreated(t, r[0], 'https://example.com/one');
    expectFailed(r[1], 'INVALID_URL', 'not a url');
    expectFailed(r[2], 'INVALID_URL', 'javascript:alert(1)');
    expectCreated(t, r[3], 'https://example.com/slug', `${ns}/bulk-slug`);
    expectFailed(r[4], 'INVALID_SLUG', 'https://example.com/bad-slug');
    expectFailed(r[5], 'SLUG_TAKEN', 'https://example.com/dup');
    expectFailed(r[6], 'SLUG_TAKEN', 'https://example.com/taken');
    expectFailed(r[7], 'INVALID_MAX_CLICKS', 'https://example.com/zero');
    expectFailed(r[8], 'EXPIRES_AT_IN_PAST', 'https://example.com/past');
    expectFailed(r[9], 'INVALID_ITEM');
    expectFailed(r[10], 'INVALID_ITEM');
    expectFailed(r[11], 'INVALID_ITEM');
    expectFailed(r[12], 'INVALID_URL');
    expectFailed(r[13], 'INVALID_MAX_CLICKS', 'https://example.com/types');
    expectFailed(r[14], 'INVALID_SLUG', 'https://example.com/types');
    expectFailed(r[15], 'INVALID_EXPIRES_AT', 'https://example.com/types');
    expectFailed(r[16], 'INVALID_ACTIVE_FROM', 'https://example.com/types');
    expectFailed(r[17], 'MISSING_URL');
    expectCreated(t, r[18], 'https://example.com/capped');
    // Slugs are unique per namespace: another account's "theirs" does not stand in the way.
    expectCreated(t, r[19], 'https://example.com/mine-too', `${ns}/theirs`);
    expectFailed(r[20], 'INVALID_URL', 'http://snip.test/abcdef');
    expectCreated(t, r[21], 'https://example.com/later');
    expectCreated(t, r[22], 'https://example.com/one');
    expectFailed(r[23], 'INVALID_SLUG', 'https://example.com/short');
    expectFailed(r[24], 'INVALID_MAX_CLICKS', 'https://example.com/half');
    expect(r[0]!.shortCode).not.toBe(r[22]!.shortCode);

    // Exactly the good items became links (besides the one made before), with their fields.
    const listed = await api.allLinks(builder);
    expect(listed).toHaveLength(7);
    const byCode = new Map(listed.map((l) => [l.shortCode, l]));
    for (const i of [0, 3, 18, 19, 21, 22]) expect(byCode.has(r[i]!.shortCode!), `item ${i}`).toBe(true);
    expect(byCode.get(r[3]!.shortCode!)).toMatchObject({ long: 'https://example.com/slug', fullPath: `${ns}/bulk-slug`, isCustom: true });
    expect(byCode.get(r[18]!.shortCode!)).toMatchObject({ long: 'https://example.com/capped', maxClicks: 2, expiresAt });
    const details = await api.links.get(builder, r[0]!.shortCode!);
    expect(details.statusCode).toBe(200);
    expect(details.json()).toMatchObject({ shortCode: r[0]!.shortCode, long: 'https://example.com/one', isCustom: false });

    // They redirect (the scheduled one only once active).
    await expectRedirect(t, r[0]!.shortCode!, 'https://example.com/one');
    await expectRedirect(t, `${ns}/bulk-slug`, 'https://example.com/slug');
    await expectRedirect(t, r[3]!.shortCode!, 'https://example.com/slug');
    await expectRedirect(t, r[18]!.shortCode!, 'https://example.com/capped');
    await expectRedirect(t, `${ns}/theirs`, 'https://example.com/mine-too');
    await expectRedirect(t, `${otherBuilder.namespace}/theirs`, 'https://example.com/theirs');
    await expectRedirect(t, r[22]!.shortCode!, 'https://example.com/one');
    expect((await t.app.inject({ method: 'GET', url: `/${r[21]!.shortCode}` })).statusCode).toBe(404);
  });

  it('a request whose every item fails still answers 200 with success true and nothing created', async () => {
    const user = await t.createUser('builder');
    const body = await api.bulkOk(user, BULK_A, [{ url: 'nope' }, 7, { url: 'https://example.com', maxClicks: -1 }]);
    expect(body.summary).toEqual({ total: 3, created: 0, failed: 3 });
    expectFailed(body.results[0], 'INVALID_URL', 'nope');
    expectFailed(body.results[1], 'INVALID_ITEM');
    expectFailed(body.results[2], 'INVALID_MAX_CLICKS', 'https://example.com');
    expect(await api.allLinks(user)).toEqual([]);
  });
});

describe(`bulk creation, Description B: POST /api/bulk (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');
  const free = t.user('free');
  const api = client(t);

  it('needs Pro or above: Free gets 403 TIER_REQUIRED and nothing is created; Pro and Builder may', async () => {
    expectError(await api.bulk(free, BULK_B, { urls: [{ url: 'https://example.com/free' }] }), 403, 'TIER_REQUIRED');
    expectError(await api.bulk(null, BULK_B, { urls: [{ url: 'https://example.com/anon' }] }), 401, 'API_KEY_REQUIRED');
    const body = await api.bulkOk(pro, BULK_B, [{ url: 'https://example.com/pro' }]);
    expectCreated(t, body.results[0], 'https://example.com/pro');
    const builder = await t.createUser('builder');
    expectCreated(t, (await api.bulkOk(builder, BULK_B, [{ url: 'https://example.com/builder' }])).results[0], 'https://example.com/builder');
  });

  it.each([
    ['{}', {}, 'MISSING_URLS'],
    ['{urls: []}', { urls: [] }, 'MISSING_URLS'],
    ['1,001 items', { urls: Array.from({ length: 1_001 }, (_, i) => ({ url: `https://example.com/${i}` })) }, 'TOO_MANY_URLS'],
  ])('%s gives 400 %s and creates nothing', async (_label, payload, code) => {
    const user = await t.createUser('pro');
    expectError(await api.bulk(user, BULK_B, payload), 400, code);
    expect(await api.allLinks(user)).toEqual([]);
  });

  it('items may give the destination as Base64 `long` instead of `url`; each item stands alone', async () => {
    const user = await t.createUser('pro');
    const ns = user.namespace!;
    const items: unknown[] = [
      /* 0 */ { long: b64('https://example.com/b64?q=1&r=2') },
      /* 1 */ { long: b64url('https://example.com/b64url?q=ü~~~') },
      /* 2 */ { long: '%%% not base64 %%%' },
      /* 3 */ { long: b64('ftp://example.com/file') },
      /* 4 */ { long: 12345 },
      /* 5 */ { long: b64('https://example.com/custom'), customSlug: 'b-custom', maxClicks: 5 },
      /* 6 */ { url: 'https://example.com/plain' },
      /* 7 */ { long: b64('https://example.com/dup'), customSlug: 'b-custom' },
      /* 8 */ {},
    ];
    const body = await api.bulkOk(user, BULK_B, items);
    const r = body.results;
    expect(body.summary).toEqual({ total: 9, created: 4, failed: 5 });
    for (const i of [0, 1, 5]) expect(r[i]).toMatchObject({ success: true });
    expectFailed(r[2], 'INVALID_BASE64');
    expectFailed(r[3], 'INVALID_URL');
    // A `long` that is no string breaks the schema of B's create, as a single create does: INVALID_URL names it.
    expectFailed(r[4], 'INVALID_URL');
    expectCreated(t, r[6], 'https://example.com/plain');
    expectFailed(r[7], 'SLUG_TAKEN');
    expectFailed(r[8], 'MISSING_URL');
    for (const i of [0, 1, 5]) {
      expect(Object.keys(r[i]!).sort()).toEqual(SUCCESS_KEYS);
      expect(r[i]!.shortCode).toMatch(/^[A-Za-z0-9]{6}$/);
    }
    expect(r[5]).toMatchObject({ fullPath: `${ns}/b-custom`, shortUrl: `${t.baseUrl}/${ns}/b-custom` });

    // The links carry the decoded destinations and redirect there.
    const decoded = new URL('https://example.com/b64url?q=ü~~~').toString();
    await expectRedirect(t, r[0]!.shortCode!, 'https://example.com/b64?q=1&r=2');
    await expectRedirect(t, r[1]!.shortCode!, decoded);
    await expectRedirect(t, `${ns}/b-custom`, 'https://example.com/custom');
    await expectRedirect(t, r[6]!.shortCode!, 'https://example.com/plain');
    const listed = await api.allLinks(user);
    expect(listed).toHaveLength(4);
    expect(listed.find((l) => l.shortCode === r[5]!.shortCode)).toMatchObject({ long: 'https://example.com/custom', maxClicks: 5 });
  });

  it('1,000 items in one request are all created, listed and redirect', async () => {
    const user = await t.createUser('pro');
    const destination = (i: number) => `https://example.com/thousand/${i}`;
    const items = Array.from({ length: 1_000 }, (_, i) => (i % 2 === 0 ? { url: destination(i) } : { long: b64(destination(i)) }));
    const body = await api.bulkOk(user, BULK_B, items);
    expect(body.summary).toEqual({ total: 1_000, created: 1_000, failed: 0 });
    body.results.forEach((r, i) => {
      expect(r.success, `item ${i}: ${JSON.stringify(r)}`).toBe(true);
      if (i % 2 === 0) expectCreated(t, r, destination(i));
    });
    const codes = body.results.map((r) => r.shortCode!);
    expect(new Set(codes).size).toBe(1_000);

    const listed = await api.allLinks(user);
    expect(listed).toHaveLength(1_000);
    const byCode = new Map(listed.map((l) => [l.shortCode, l.long]));
    codes.forEach((code, i) => expect(byCode.get(code), `item ${i}`).toBe(destination(i)));
    for (const i of [0, 1, 499, 998, 999]) await expectRedirect(t, codes[i]!, destination(i));
  });
});

