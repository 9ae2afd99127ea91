import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { CLI_ACTOR } from '../../src/admin/audit.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SourceName } from '../../src/imports/source.js';
import { expectError } from '../helpers/api-errors.js';
import { dialectName, startApp, useTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { startTxtServer, type TxtServer } from '../helpers/dns-txt.js';
import { startFakeSource, type FakeLink, type FakeSource, type FakeSourceOptions } from '../helpers/fake-sources.js';
import type { LinkB, LinkPage } from '../helpers/links.js';
import { BROWSER_UA } from '../helpers/user-agents.js';

/**
 * Importing another shortener's links over the API (issue 31), against local servers that answer as Shlink, Kutt,
 * YOURLS, Bitly and Dub document their APIs: what an account ends up with (its link list, redirects on Snip's host
 * and on a moved custom domain, statistics) and what the import's answer says row by row, through 429s, a source
 * that dies part-way and is run again, a refused key, a dry run, paths already taken, and links ended at the source.
 */

const KEY = 'source-key-1';
const IMPORTS = '/api/imports';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface ImportRow {
  source: string;
  shortUrl: string | null;
  outcome: 'imported' | 'skipped' | 'failed';
  code?: string;
  message?: string;
}

interface ImportSummary {
  from: SourceName;
  dryRun: boolean;
  imported: number;
  skipped: number;
  failed: number;
  clicks: number;
  rows: ImportRow[];
  error?: { code: string; message: string };
}

/** A link as Description B shows it, with the fields an import fills. */
type ImportedLink = LinkB & { domain: string | null; title: string | null; importedFrom: string | null; importedClicks: number };

interface ClickRecord {
  timestamp: string;
  country: string | null;
  referrer: string | null;
}

const started: FakeSource[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((fake) => fake.close()));
});

async function fake(kind: SourceName, options: Partial<FakeSourceOptions> = {}): Promise<FakeSource> {
  const source = await startFakeSource(kind, { key: KEY, links: [], ...options });
  started.push(source);
  return source;
}

const importRes = (t: TestApp, user: TestUser, body: Record<string, unknown>, url = IMPORTS): Promise<LightMyRequestResponse> =>
  t.as(user, { method: 'POST', url, payload: body });

/** POSTs an import and answers its summary, asserting a 200. */
async function importFrom(t: TestApp, user: TestUser, body: Record<string, unknown>): Promise<ImportSummary> {
  const res = await importRes(t, user, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ImportSummary>();
}

/** Every link of the account, page after page. */
async function allLinks(t: TestApp, user: TestUser): Promise<ImportedLink[]> {
  const links: ImportedLink[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await t.as(user, { method: 'GET', url: `/api/links?limit=100&offset=${offset}` });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<LinkPage<ImportedLink>>();
    links.push(...page.links);
    if (!page.pagination.hasMore) return links;
  }
}

async function linkImportedFrom(t: TestApp, user: TestUser, sourceUrl: string): Promise<ImportedLink> {
  const link = (await allLinks(t, user)).find((l) => l.importedFrom === sourceUrl);
  if (!link) throw new Error(`no link imported from ${sourceUrl}`);
  return link;
}

const visit = (t: TestApp, host: string | undefined, url: string) =>
  t.app.inject({ method: 'GET', url, headers: { 'user-agent': BROWSER_UA, ...(host === undefined ? {} : { host }) } });

function expectRedirect(res: LightMyRequestResponse, location: string): void {
  expect(res.statusCode, res.body).toBe(302);
  expect(res.headers.location).toBe(location);
}

const sameInstant = (a: string | null, b: string | null | undefined) => expect(a === null ? null : Date.parse(a)).toBe(b ? Date.parse(b) : null);

let dns: TxtServer;
beforeAll(async () => {
  dns = await startTxtServer();
});
afterAll(async () => {
  await dns?.close();
});

/** Per source: its default short domain (which cannot move to Snip), what its listing carries, and where the listing starts. */
const KINDS: {
  kind: SourceName;
  host: string;
  /** The request (counting from 1) that answers the first page of links: Bitly asks for the user first. */
  firstPage: number;
  /** Links on the first page (each adapter's page size). */
  perPage: number;
  tags: boolean;
  expiry: boolean;
  /** The listing carries click totals (Bitly's come only with withClicks, one request per link). */
  clicks: boolean;
  /** The source's own words for a wrong key. */
  refusal: string;
}[] = [
  { kind: 'shlink', host: 'shlink.test', firstPage: 1, perPage: 100, tags: true, expiry: true, clicks: true, refusal: 'Provided API key does not exist or is invalid.' },
  { kind: 'kutt', host: 'kutt.test', firstPage: 1, perPage: 50, tags: false, expiry: true, clicks: true, refusal: 'Unauthorized.' },
  { kind: 'yourls', host: 'yourls.test', firstPage: 1, perPage: 100, tags: false, expiry: false, clicks: true, refusal: 'Please log in' },
  { kind: 'bitly', host: 'bit.ly', firstPage: 2, perPage: 100, tags: true, expiry: true, clicks: false, refusal: 'You are currently forbidden to access this resource.' },
  { kind: 'dub', host: 'dub.sh', firstPage: 1, perPage: 100, tags: true, expiry: true, clicks: true, refusal: 'Unauthorized: Invalid API key.' },
];

const LINK_COUNT = 130;
const EXPIRES = '2099-06-01T12:00:00.000Z';

/** 130 links (two or three pages at every source); every tenth has tags and an expiry, all have titles and clicks. */
const listing = (kind: SourceName): FakeLink[] =>
  Array.from({ length: LINK_COUNT }, (_, i) => ({
    code: `${kind}-${i}`,
    url: `https://example.com/${kind}/${i}`,
    title: `${kind} page ${i}`,
    createdAt: new Date(Date.parse('2023-03-01T08:00:00Z') + i * HOUR).toISOString(),
    clicks: i * 2,
    ...(i % 10 === 0 ? { tags: ['imported', `group-${i / 10}`], expiresAt: EXPIRES } : {}),
  }));

const withDns = () => ({
  IMPORT_ALLOW_PRIVATE: 'true',
  get DNS_RESOLVER() {
    return dns.resolver;
  },
});

describe(`imports from each source over the API (${dialectName})`, () => {
  const t = useTestApp(withDns());

  describe.each(KINDS)('$kind', ({ kind, host, firstPage, perPage, tags, expiry, clicks, refusal }) => {
    const links = listing(kind);
    const sourceUrl = (link: FakeLink) => `https://${host}/${link.code}`;

    it('imports every link of a listing of several pages once, with its fields, on new codes with its old URL kept', async () => {
      const user = await t.createUser('pro');
      const source = await fake(kind, { links });
      const summary = await importFrom(t, user, { from: kind, source: source.base, sourceKey: KEY });
      expect(summary).toMatchObject({ from: kind, dryRun: false, imported: LINK_COUNT, skipped: 0, failed: 0 });
      expect(summary.error).toBeUndefined();
      expect(summary.clicks).toBe(clicks ? links.reduce((sum, l) => sum + (l.clicks ?? 0), 0) : 0);
      expect(summary.rows.map((r) => r.source)).toEqual(links.map(sourceUrl));
      for (const row of summary.rows) {
        expect(row.outcome).toBe('imported');
        expect(row.code).toBeUndefined();
        expect(row.shortUrl).toMatch(/^http:\/\/snip\.test\/[A-Za-z0-9]{6}$/);
      }

      const made = await allLinks(t, user);
      expect(made).toHaveLength(LINK_COUNT);
      const byOrigin = new Map(made.map((l) => [l.importedFrom, l]));
      expect(byOrigin.size).toBe(LINK_COUNT);
      for (const [i, fakeLink] of links.entries()) {
        const link = byOrigin.get(sourceUrl(fakeLink));
        expect(link, sourceUrl(fakeLink)).toBeDefined();
        expect(link!.url).toBe(summary.rows[i]!.shortUrl);
        expect(link!.long).toBe(fakeLink.url);
        expect(link!.title).toBe(fakeLink.title);
        sameInstant(link!.created, fakeLink.createdAt);
        expect(link!.tags).toEqual(tags ? [...(fakeLink.tags ?? [])].sort() : []);
        sameInstant(link!.expiresAt, expiry ? fakeLink.expiresAt : null);
        expect(link!.importedClicks).toBe(clicks ? fakeLink.clicks : 0);
        expect(link!.clicks).toBe(0);
        expect(link!.domain).toBeNull();
      }
      // The new code redirects on Snip's host.
      const first = byOrigin.get(sourceUrl(links[0]!))!;
      expectRedirect(await visit(t, undefined, `/${first.shortCode}`), links[0]!.url);
    });

    it('waits out a 429 (Retry-After: 1) mid-way and loses or doubles nothing', async () => {
      const user = await t.createUser('pro');
      const source = await fake(kind, { links, rateLimitAt: firstPage + 1 });
      const began = Date.now();
      const summary = await importFrom(t, user, { from: kind, source: source.base, sourceKey: KEY });
      expect(Date.now() - began).toBeGreaterThanOrEqual(900);
      expect(summary).toMatchObject({ imported: LINK_COUNT, skipped: 0, failed: 0 });
      expect(summary.error).toBeUndefined();
      expect(summary.rows.map((r) => r.source)).toEqual(links.map(sourceUrl));
      // The refused page was asked again, once.
      expect(source.requests[firstPage + 1]).toBe(source.requests[firstPage]);
      const made = await allLinks(t, user);
      expect(made).toHaveLength(LINK_COUNT);
      expect(new Set(made.map((l) => l.importedFrom)).size).toBe(LINK_COUNT);
    });

    it('keeps what came before a source that dies, and a re-run after it revives imports the rest without duplicates', async () => {
      const user = await t.createUser('pro');
      const source = await fake(kind, { links, dieAfter: firstPage });
      const first = await importFrom(t, user, { from: kind, source: source.base, sourceKey: KEY });
      expect(first.error?.code).toBe('SOURCE_UNREACHABLE');
      expect(first).toMatchObject({ imported: perPage, skipped: 0, failed: 0 });
      expect(first.rows.map((r) => r.source)).toEqual(links.slice(0, perPage).map(sourceUrl));
      expect(await allLinks(t, user)).toHaveLength(perPage);

      source.revive();
      const again = await importFrom(t, user, { from: kind, source: source.base, sourceKey: KEY });
      expect(again.error).toBeUndefined();
      expect(again).toMatchObject({ imported: LINK_COUNT - perPage, skipped: perPage, failed: 0 });
      expect(again.rows.map((r) => r.source)).toEqual(links.map(sourceUrl));
      for (const [i, row] of again.rows.entries()) {
        if (i < perPage) expect(row).toMatchObject({ outcome: 'skipped', code: 'ALREADY_IMPORTED', shortUrl: first.rows[i]!.shortUrl });
        else expect(row.outcome).toBe('imported');
      }
      const made = await allLinks(t, user);
      expect(made).toHaveLength(LINK_COUNT);
      expect(new Set(made.map((l) => l.importedFrom)).size).toBe(LINK_COUNT);
    });

    it('a wrong key: a summary with SOURCE_AUTH_FAILED and the source’s words, and nothing made', async () => {
      const user = await t.createUser('pro');
      const source = await fake(kind, { links });
      const summary = await importFrom(t, user, { from: kind, source: source.base, sourceKey: 'not-the-key' });
      expect(summary).toMatchObject({ imported: 0, skipped: 0, failed: 0, clicks: 0, rows: [] });
      expect(summary.error?.code).toBe('SOURCE_AUTH_FAILED');
      expect(summary.error?.message).toContain(refusal);
      expect(await allLinks(t, user)).toEqual([]);
    });

    it('a dry run makes nothing yet says what would become of every link; a real run after it makes them all', async () => {
      const user = await t.createUser('pro');
      const source = await fake(kind, { links });
      const dry = await importFrom(t, user, { from: kind, source: source.base, sourceKey: KEY, dryRun: true });
      expect(dry).toMatchObject({ from: kind, dryRun: true, imported: LINK_COUNT, skipped: 0, failed: 0 });
      expect(dry.rows.map((r) => [r.source, r.outcome])).toEqual(links.map((l) => [sourceUrl(l), 'imported']));
      expect(await allLinks(t, user)).toEqual([]);

      const real = await importFrom(t, user, { from: kind, source: source.base, sourceKey: KEY });
      expect(real).toMatchObject({ dryRun: false, imported: LINK_COUNT, skipped: 0 });
      expect(await allLinks(t, user)).toHaveLength(LINK_COUNT);
    });
  });
});

/** A Kutt that answers one page of raw Kutt items (the shared fake has no banned or password-protected links). */
async function rawKutt(items: object[]): Promise<{ base: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const ok = req.headers['x-api-key'] === KEY && (req.url ?? '').startsWith('/api/v2/links');
    const body = JSON.stringify(ok ? { limit: 50, skip: 0, total: items.length, data: items } : { error: 'Unauthorized.' });
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const kuttItem = (address: string, target: string, extra: object = {}) => ({
  id: `00000000-0000-4000-8000-${address.padStart(12, '0').slice(-12)}`,
  address,
  banned: false,
  created_at: '2024-02-01T00:00:00.000Z',
  updated_at: '2024-02-01T00:00:00.000Z',
  password: false,
  description: null,
  expire_in: null,
  target,
  visit_count: 0,
  domain: null,
  link: `https://kutt.test/${address}`,
  ...extra,
});

describe(`imports: where links land, conflicts, ended links (${dialectName})`, () => {
  const t = useTestApp(withDns());

  /** Adds, verifies (TXT on the file's DNS server) and activates a domain for the user. */
  async function activeDomain(user: TestUser, domain: string): Promise<void> {
    const added = await t.as(user, { method: 'POST', url: '/api/user/domains', payload: { domain } });
    expect(added.statusCode, added.body).toBe(201);
    const { txtRecord } = added.json<{ txtRecord: { name: string; value: string } }>();
    dns.set(txtRecord.name, [txtRecord.value]);
    const verified = await t.as(user, { method: 'GET', url: `/api/user/domains/${domain}/verify` });
    expect(verified.json(), verified.body).toMatchObject({ verified: true });
    const activated = await t.as(user, { method: 'POST', url: `/api/user/domains/${domain}/activate` });
    expect(activated.statusCode, activated.body).toBe(200);
  }

  /** Only the operator's imports keep paths on Snip's own host (a member could otherwise claim `/login` there). */
  async function operator(): Promise<TestUser> {
    const user = await t.createUser('pro');
    await t.core.admin.setRole(CLI_ACTOR, user.id, 'operator');
    return user;
  }

  it("a member's import gives links on Snip's own host new codes, keeping the old URL in importedFrom", async () => {
    const user = await t.createUser('pro');
    const shlink = await fake('shlink', { defaultDomain: 'snip.test', links: [{ code: 'login', url: 'https://example.com/phish' }] });
    const summary = await importFrom(t, user, { from: 'shlink', source: shlink.base, sourceKey: KEY });
    expect(summary).toMatchObject({ imported: 1, failed: 0 });
    expect(summary.rows[0]!.shortUrl).toMatch(/^http:\/\/snip\.test\/[A-Za-z0-9]{6}$/);
    expect((await visit(t, undefined, '/login')).statusCode).toBe(404);
    expect(await linkImportedFrom(t, user, 'https://snip.test/login')).toMatchObject({ importedFrom: 'https://snip.test/login', domain: null });
  });

  it("keeps a link's exact path on Snip's own host: a Kutt code, and a Shlink 5-character code and custom slug", async () => {
    const user = await operator();
    const kutt = await fake('kutt', { defaultDomain: 'snip.test', links: [{ code: 'aB3xY9', url: 'https://example.com/kutt-kept' }] });
    const fromKutt = await importFrom(t, user, { from: 'kutt', source: kutt.base, sourceKey: KEY });
    expect(fromKutt).toMatchObject({ imported: 1, failed: 0, rows: [{ source: 'https://snip.test/aB3xY9', shortUrl: 'http://snip.test/aB3xY9', outcome: 'imported' }] });
    expect(fromKutt.rows[0]!.code).toBeUndefined();

    const shlink = await fake('shlink', {
      defaultDomain: 'snip.test',
      links: [
        { code: 'abc12', url: 'https://example.com/shlink-five' },
        { code: 'summer-sale', url: 'https://example.com/shlink-slug' },
      ],
    });
    const fromShlink = await importFrom(t, user, { from: 'shlink', source: shlink.base, sourceKey: KEY });
    expect(fromShlink).toMatchObject({ imported: 2, failed: 0 });
    expect(fromShlink.rows.map((r) => [r.shortUrl, r.outcome])).toEqual([
      ['http://snip.test/abc12', 'imported'],
      ['http://snip.test/summer-sale', 'imported'],
    ]);

    expectRedirect(await visit(t, undefined, '/aB3xY9'), 'https://example.com/kutt-kept');
    expectRedirect(await visit(t, 'snip.test', '/aB3xY9'), 'https://example.com/kutt-kept');
    expectRedirect(await visit(t, undefined, '/abc12'), 'https://example.com/shlink-five');
    expectRedirect(await visit(t, 'snip.test', '/summer-sale'), 'https://example.com/shlink-slug');
    const kept = await linkImportedFrom(t, user, 'https://snip.test/aB3xY9');
    expect(kept).toMatchObject({ shortCode: 'aB3xY9', url: 'http://snip.test/aB3xY9', domain: null });
  });

  it("a moved custom domain keeps its Shlink paths there, and withClicks brings the visits into the link's statistics", async () => {
    const user = await t.createUser('pro');
    const domain = 'go.moved-brand.com';
    await activeDomain(user, domain);
    // Whole seconds: Shlink writes its dates without fractions.
    const now = Math.floor(t.clock.now().getTime() / 1000) * 1000;
    const visits = [
      { at: new Date(now - 1 * DAY).toISOString(), referrer: 'https://news.example.org/story', userAgent: BROWSER_UA, country: 'DE' },
      { at: new Date(now - 2 * DAY).toISOString(), referrer: 'https://news.example.org/other', userAgent: BROWSER_UA, country: 'DE' },
      { at: new Date(now - 3 * DAY).toISOString(), referrer: null, userAgent: BROWSER_UA, country: 'FR' },
    ];
    const source = await fake('shlink', {
      links: [
        { code: 'Go5ab', domain, url: 'https://example.com/moved-five', clicks: 3 },
        { code: 'Promo7', domain, url: 'https://example.com/moved-code' },
      ],
      visits: { Go5ab: visits },
    });
    const summary = await importFrom(t, user, { from: 'shlink', source: source.base, sourceKey: KEY, withClicks: true });
    expect(summary).toMatchObject({ imported: 2, failed: 0, clicks: 3 });
    expect(summary.error).toBeUndefined();
    expect(summary.rows.map((r) => r.shortUrl)).toEqual([`http://${domain}/Go5ab`, `http://${domain}/Promo7`]);

    const link = await linkImportedFrom(t, user, `https://${domain}/Go5ab`);
    expect(link).toMatchObject({ domain, clicks: 3, importedClicks: 0, long: 'https://example.com/moved-five' });
    const stats = await t.as(user, { method: 'GET', url: `/api/v1/links/${link.shortCode}/stats` });
    expect(stats.statusCode, stats.body).toBe(200);
    const body = stats.json<{ totalClicks: number; clicks: ClickRecord[] }>();
    expect(body.totalClicks).toBe(3);
    expect(body.clicks.map((c) => [Date.parse(c.timestamp), c.country, c.referrer])).toEqual(
      visits.map((v) => [Date.parse(v.at), v.country, v.referrer === null ? null : 'news.example.org']),
    );
    const aggregate = await t.as(user, { method: 'GET', url: `/api/analytics/links/${link.shortCode}?period=7d` });
    expect(aggregate.statusCode, aggregate.body).toBe(200);
    expect(aggregate.json()).toMatchObject({ totalClicks: 3, countryBreakdown: { DE: 2, FR: 1 }, referrerBreakdown: { 'news.example.org': 2 } });

    expectRedirect(await visit(t, domain, '/Go5ab'), 'https://example.com/moved-five');
    expectRedirect(await visit(t, domain, '/Promo7'), 'https://example.com/moved-code');
    await expect.poll(async () => (await linkImportedFrom(t, user, `https://${domain}/Go5ab`)).clicks).toBe(4);
  });

  it('without withClicks the source total is kept apart as importedClicks, and no visit is asked for or counted', async () => {
    const user = await t.createUser('pro');
    const domain = 'go.kept-apart.com';
    await activeDomain(user, domain);
    const source = await fake('shlink', {
      links: [{ code: 'Nc4ab', domain, url: 'https://example.com/apart', clicks: 7 }],
      visits: { Nc4ab: [{ at: new Date(t.clock.now().getTime() - DAY).toISOString(), country: 'DE' }] },
    });
    const summary = await importFrom(t, user, { from: 'shlink', source: source.base, sourceKey: KEY });
    expect(summary).toMatchObject({ imported: 1, clicks: 7, rows: [{ shortUrl: `http://${domain}/Nc4ab`, outcome: 'imported' }] });
    const link = await linkImportedFrom(t, user, `https://${domain}/Nc4ab`);
    expect(link).toMatchObject({ clicks: 0, importedClicks: 7 });
    expect(source.requests.filter((r) => r.includes('/visits'))).toEqual([]);
    expectRedirect(await visit(t, domain, '/Nc4ab'), 'https://example.com/apart');
  });

  it('a path taken on Snip fails its row with PATH_TAKEN and never overwrites; Snip’s own paths fail PATH_RESERVED', async () => {
    const user = await operator();
    const other = await t.createUser('pro');
    const created = await t.as(other, { method: 'POST', url: '/api/links', payload: { url: 'https://example.com/first-owner' } });
    expect(created.statusCode, created.body).toBe(201);
    const taken = created.json<LinkB>().shortCode;
    const kutt = await fake('kutt', {
      defaultDomain: 'snip.test',
      links: [
        { code: taken, url: 'https://example.com/intruder' },
        { code: 'api', url: 'https://example.com/api' },
        { code: 'app', url: 'https://example.com/app' },
        { code: 'Fine12', url: 'https://example.com/fine' },
      ],
    });
    const summary = await importFrom(t, user, { from: 'kutt', source: kutt.base, sourceKey: KEY });
    expect(summary).toMatchObject({ imported: 1, skipped: 0, failed: 3 });
    // Rows refused while planning come before those a write refuses: compared by source, not by position.
    const bySource = (rows: (string | null)[][]) => [...rows].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(bySource(summary.rows.map((r) => [r.source, r.outcome, r.code ?? null, r.shortUrl]))).toEqual(bySource([
      [`https://snip.test/${taken}`, 'failed', 'PATH_TAKEN', null],
      ['https://snip.test/api', 'failed', 'PATH_RESERVED', null],
      ['https://snip.test/app', 'failed', 'PATH_RESERVED', null],
      ['https://snip.test/Fine12', 'imported', null, 'http://snip.test/Fine12'],
    ]));
    expectRedirect(await visit(t, undefined, `/${taken}`), 'https://example.com/first-owner');
    const theirs = await t.as(other, { method: 'GET', url: `/api/links/${taken}` });
    expect(theirs.json()).toMatchObject({ long: 'https://example.com/first-owner' });
    expect((await allLinks(t, user)).map((l) => l.long)).toEqual(['https://example.com/fine']);

    // The same imported path from a second source: the first stays.
    const shlink = await fake('shlink', { defaultDomain: 'snip.test', links: [{ code: 'spring-sale', url: 'https://example.com/from-shlink' }] });
    const yourls = await fake('yourls', { defaultDomain: 'snip.test', links: [{ code: 'spring-sale', url: 'https://example.com/from-yourls' }] });
    expect(await importFrom(t, user, { from: 'shlink', source: shlink.base, sourceKey: KEY })).toMatchObject({ imported: 1, failed: 0 });
    const second = await importFrom(t, user, { from: 'yourls', source: yourls.base, sourceKey: KEY });
    expect(second).toMatchObject({ imported: 0, failed: 1, rows: [{ source: 'https://snip.test/spring-sale', outcome: 'failed', code: 'PATH_TAKEN', shortUrl: null }] });
    expectRedirect(await visit(t, undefined, '/spring-sale'), 'https://example.com/from-shlink');
    // A dry run reports the clash too.
    const dry = await importFrom(t, user, { from: 'yourls', source: yourls.base, sourceKey: KEY, dryRun: true });
    expect(dry.rows).toMatchObject([{ outcome: 'failed', code: 'PATH_TAKEN' }]);
    expect(await allLinks(t, user)).toHaveLength(2);
  });

  it('links ended at the source are skipped (visits used up, expired, banned); a password-protected one fails', async () => {
    const user = await t.createUser('pro');
    const shlink = await fake('shlink', {
      links: [
        { code: 'used-up', url: 'https://example.com/used-up', maxVisits: 5, clicks: 5 },
        { code: 'gone-by', url: 'https://example.com/gone-by', expiresAt: '2020-01-01T00:00:00Z' },
        { code: 'capped', url: 'https://example.com/capped', maxVisits: 5, clicks: 2 },
      ],
    });
    const fromShlink = await importFrom(t, user, { from: 'shlink', source: shlink.base, sourceKey: KEY });
    expect(fromShlink).toMatchObject({ imported: 1, skipped: 2, failed: 0 });
    expect(fromShlink.rows.map((r) => [r.source, r.outcome, r.code ?? null])).toEqual([
      ['https://shlink.test/used-up', 'skipped', 'ENDED_AT_SOURCE'],
      ['https://shlink.test/gone-by', 'skipped', 'ENDED_AT_SOURCE'],
      ['https://shlink.test/capped', 'imported', null],
    ]);
    // The visits left at the source are what the link has left on Snip.
    expect(await linkImportedFrom(t, user, 'https://shlink.test/capped')).toMatchObject({ maxClicks: 3, importedClicks: 2 });

    const kutt = await rawKutt([
      kuttItem('banned1', 'https://example.com/banned', { banned: true }),
      kuttItem('secret', 'https://example.com/secret', { password: true }),
      kuttItem('open12', 'https://example.com/open'),
    ]);
    try {
      const fromKutt = await importFrom(t, user, { from: 'kutt', source: kutt.base, sourceKey: KEY });
      expect(fromKutt).toMatchObject({ imported: 1, skipped: 1, failed: 1 });
      expect(fromKutt.rows.map((r) => [r.source, r.outcome, r.code ?? null])).toEqual([
        ['https://kutt.test/banned1', 'skipped', 'ENDED_AT_SOURCE'],
        ['https://kutt.test/secret', 'failed', 'PROTECTED_AT_SOURCE'],
        ['https://kutt.test/open12', 'imported', null],
      ]);
    } finally {
      await kutt.close();
    }
    expect((await allLinks(t, user)).map((l) => l.long).sort()).toEqual(['https://example.com/capped', 'https://example.com/open']);
  });

  it('a Free account is refused (403 TIER_REQUIRED) on both routes, and the source is never asked', async () => {
    const free = await t.createUser('free');
    const source = await fake('shlink', { links: [{ code: 'free1', url: 'https://example.com/free' }] });
    expectError(await importRes(t, free, { from: 'shlink', source: source.base, sourceKey: KEY }), 403, 'TIER_REQUIRED');
    expectError(await importRes(t, free, { from: 'shlink', source: source.base, sourceKey: KEY }, '/api/v1/imports'), 403, 'TIER_REQUIRED');
    expect(source.requests).toEqual([]);
  });

  it('a Pro account may not use Description A’s route (Builder and above)', async () => {
    const pro = await t.createUser('pro');
    const source = await fake('shlink', { links: [{ code: 'pro-a', url: 'https://example.com/pro-a' }] });
    expectError(await importRes(t, pro, { from: 'shlink', source: source.base, sourceKey: KEY }, '/api/v1/imports'), 403, 'TIER_REQUIRED');
    const builder = await t.createUser('builder');
    const res = await importRes(t, builder, { from: 'shlink', source: source.base, sourceKey: KEY }, '/api/v1/imports');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ imported: 1 });
  });
});

describe(`imports: sources on private addresses without IMPORT_ALLOW_PRIVATE (${dialectName})`, () => {
  const t = useTestApp();

  it.each([
    ['an IP address', (base: string) => base],
    ['a name that resolves to one', (base: string) => base.replace('127.0.0.1', 'localhost')],
  ])('a source on 127.0.0.1 (%s) is refused with SOURCE_UNREACHABLE, and never asked', async (_, address) => {
    const user = await t.createUser('pro');
    const source = await fake('shlink', { links: [{ code: 'private1', url: 'https://example.com/private' }] });
    const summary = await importFrom(t, user, { from: 'shlink', source: address(source.base), sourceKey: KEY });
    expect(summary).toMatchObject({ imported: 0, rows: [] });
    expect(summary.error?.code).toBe('SOURCE_UNREACHABLE');
    expect(source.requests).toEqual([]);
    expect(await allLinks(t, user)).toEqual([]);
  });
});

describe(`imports count against the daily link limit (${dialectName})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    // Pro: 5 links a day.
    t = await startApp({ IMPORT_ALLOW_PRIVATE: 'true', PLANS_FILE: path.join(import.meta.dirname, '..', 'fixtures', 'plans-links-per-day.json') });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('makes the pages that fit, then stops with RATE_LIMITED; the links made use up the day’s allowance', async () => {
    const user = await t.createUser('pro');
    const links = Array.from({ length: 8 }, (_, i) => ({ code: `daily-${i}`, url: `https://example.com/daily/${i}` }));
    const source = await fake('shlink', { links, pageSize: 3 });
    const summary = await importFrom(t, user, { from: 'shlink', source: source.base, sourceKey: KEY });
    expect(summary.error?.code).toBe('RATE_LIMITED');
    expect(summary).toMatchObject({ imported: 3, failed: 0 });
    expect(await allLinks(t, user)).toHaveLength(3);
    for (const n of ['one', 'two']) {
      const more = await t.as(user, { method: 'POST', url: '/api/links', payload: { url: `https://example.com/${n}-more` } });
      expect(more.statusCode, more.body).toBe(201);
    }
    const refused = await t.as(user, { method: 'POST', url: '/api/links', payload: { url: 'https://example.com/three-more' } });
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('a dry run stops where the real run would, on the same code, and uses none of the day’s allowance', async () => {
    const user = await t.createUser('pro');
    const links = Array.from({ length: 8 }, (_, i) => ({ code: `dry-daily-${i}`, url: `https://example.com/dry-daily/${i}` }));
    const source = await fake('shlink', { links, pageSize: 3 });
    const dry = await importFrom(t, user, { from: 'shlink', source: source.base, sourceKey: KEY, dryRun: true });
    expect(dry.error?.code).toBe('RATE_LIMITED');
    expect(dry).toMatchObject({ dryRun: true, imported: 3, failed: 0 });
    expect(await allLinks(t, user)).toHaveLength(0);
    const real = await importFrom(t, user, { from: 'shlink', source: source.base, sourceKey: KEY });
    expect(real.error?.code).toBe('RATE_LIMITED');
    expect(real).toMatchObject({ imported: dry.imported, failed: 0 });
    expect(real.rows.map((r) => r.source)).toEqual(dry.rows.map((r) => r.source));
  });

  it('a dry run that fits says so, with no error', async () => {
    const user = await t.createUser('pro');
    const links = Array.from({ length: 5 }, (_, i) => ({ code: `fits-${i}`, url: `https://example.com/fits/${i}` }));
    const source = await fake('shlink', { links, pageSize: 3 });
    const dry = await importFrom(t, user, { from: 'shlink', source: source.base, sourceKey: KEY, dryRun: true });
    expect(dry.error).toBeUndefined();
    expect(dry).toMatchObject({ imported: 5, failed: 0 });
  });
});

describe(`imports: a long Shlink history (${dialectName})`, () => {
  const t = useTestApp({ IMPORT_ALLOW_PRIVATE: 'true' });

  it('5,000 visits over 50 days all count, in one commit with the settled total, and the newest 100 are the records kept', { timeout: 60_000 }, async () => {
    const user = await t.createUser('pro');
    const newest = Date.parse('2026-11-20T12:00:00Z');
    // Shlink lists visits newest first.
    const visits = Array.from({ length: 5_000 }, (_, i) => ({ at: new Date(newest - i * 864_000).toISOString(), country: i % 2 ? 'DE' : 'FR', referrer: null, userAgent: BROWSER_UA }));
    const source = await fake('shlink', { links: [{ code: 'hist1', domain: 'old.example', url: 'https://example.com/history', clicks: 5_000 }], visits: { hist1: visits } });
    const summary = await importFrom(t, user, { from: 'shlink', source: source.base, sourceKey: KEY, withClicks: true });
    expect(summary).toMatchObject({ imported: 1, clicks: 5_000 });
    const link = await linkImportedFrom(t, user, 'https://old.example/hist1');
    expect(link).toMatchObject({ clicks: 5_000, importedClicks: 0 });
    const stats = (await t.as(user, { method: 'GET', url: `/api/v1/links/${link.shortCode}/stats` })).json<{ totalClicks: number; clicks: ClickRecord[] }>();
    expect(stats.totalClicks).toBe(5_000);
    expect(stats.clicks).toHaveLength(100);
    const kept = stats.clicks.map((c) => Date.parse(c.timestamp)).sort((a, b) => b - a);
    expect(kept[0]).toBe(newest);
    expect(kept.at(-1)).toBe(newest - 99 * 864_000);
  });
});
