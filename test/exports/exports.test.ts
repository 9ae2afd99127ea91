import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLinks } from '../../src/cli/links-import.js';
import { protectFormula, toCsv, unprotectFormula } from '../../src/exports/csv.js';
import { dialectName, useTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { expectError } from '../helpers/api-errors.js';
import { linkApi, LINKS_A, LINKS_B, type Caller, type CreatedLinkA, type LinkA, type LinkB } from '../helpers/links.js';
import type { AggregatedStats } from '../helpers/stats-shapes.js';

/**
 * Exports over real HTTP (spec 4.3 `export_links`, `export_link_stats`): GET /api/v1/export/links (A) and
 * /api/export/links (B) as CSV or JSON, and a link's statistics at .../links/{shortPath}/stats.
 */

const EXPORT = { A: '/api/v1/export/links', B: '/api/export/links' } as const;
const statsUrl = (surface: keyof typeof EXPORT, shortPath: string, query = '') => `${EXPORT[surface]}/${encodeURIComponent(shortPath)}/stats${query}`;

const LINK_COLUMNS = [
  'shortCode', 'shortUrl', 'fullPath', 'destination', 'clicks', 'createdAt', 'expiresAt', 'maxClicks', 'activeFrom',
  'folderId', 'blockedCountries', 'domain',
];
const STATS_JSON_KEYS = [
  'browserBreakdown', 'clicksByDay', 'countryBreakdown', 'deviceBreakdown', 'fullPath', 'hourBreakdown', 'osBreakdown', 'period',
  'referrerBreakdown', 'shortCode', 'shortUrl', 'tierLimit', 'totalClicks', 'uniqueVisitors',
];
const UA = {
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  chrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
};
const DAY = 86_400_000;

interface ExportedLink {
  shortCode: string;
  shortUrl: string;
  fullPath: string | null;
  destination: string;
  clicks: number;
  createdAt: string;
  expiresAt: string | null;
  maxClicks: number | null;
  activeFrom: string | null;
  folderId: string | null;
  blockedCountries: string[];
  domain: string | null;
}
type ExportedStats = Omit<AggregatedStats, 'short'> & { shortCode: string; fullPath: string | null; shortUrl: string };

function client(t: TestApp) {
  const a = linkApi<CreatedLinkA, LinkA>(t, LINKS_A);
  const b = linkApi<CreatedLinkA, LinkB>(t, LINKS_B);
  const get = (user: Caller, url: string): Promise<LightMyRequestResponse> => t.as(user, { method: 'GET', url });
  /** GET an export, asserting 200, the content type and an attachment named `<prefix>...<ext>`. */
  const download = async (user: Caller, url: string, format: 'csv' | 'json', prefix: string): Promise<LightMyRequestResponse> => {
    const res = await get(user, url);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    expect(res.headers['content-type']).toBe(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
    const today = t.clock.now().toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="${prefix}[A-Za-z0-9_-]*${today}\\.${format}"$`));
    return res;
  };
  const visit = async (shortPath: string, v: { ip?: string; ua?: string; referer?: string } = {}): Promise<void> => {
    const headers: Record<string, string> = { 'user-agent': v.ua ?? UA.chrome };
    if (v.ip) headers['x-forwarded-for'] = v.ip;
    if (v.referer) headers.referer = v.referer;
    const res = await t.app.inject({ method: 'GET', url: `/${shortPath}`, headers });
    expect(res.statusCode, res.body).toBe(302);
  };
  /** Every link of the user as Description B lists them (newest first), page by page. */
  const listAll = async (user: TestUser): Promise<LinkB[]> => {
    const all: LinkB[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await b.page(user, `?limit=100&offset=${offset}`);
      all.push(...page.links);
      if (!page.pagination.hasMore) return all;
    }
  };
  /** Sets a column of a link straight in the database: data the create rules would not let in today. */
  const plant = async (code: string, values: { url?: string; domain?: string }) => {
    await t.core.database.db.updateTable('links').set(values).where('code', '=', code).execute();
  };
  return { a, b, get, download, visit, listAll, plant };
}

/** What the export should say about a link, from Description B's view of it (which has activeFrom). */
const expected = (l: LinkB): ExportedLink => ({
  shortCode: l.shortCode,
  shortUrl: l.url,
  fullPath: l.fullPath,
  destination: l.long,
  clicks: l.clicks,
  createdAt: l.created,
  expiresAt: l.expiresAt,
  maxClicks: l.maxClicks,
  activeFrom: l.activeFrom,
  folderId: l.folderId,
  blockedCountries: l.blockedCountries,
  domain: l.domain,
});

/** The same as CSV cells: text, null as empty, blocked countries comma-joined. */
const asCsvRecord = (l: ExportedLink): Record<string, string> =>
  Object.fromEntries(
    Object.entries(l).map(([k, v]) => [k, v === null ? '' : Array.isArray(v) ? v.join(',') : String(v)]),
  );

describe(`links export: GET /api/v1/export/links and /api/export/links (${dialectName})`, () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  const pro = t.user('pro');
  const other = t.user('pro');
  const free = t.user('free');
  const builder = t.user('builder');
  const { a, b, get, download, visit, listAll, plant } = client(t);
  let codes: string[] = [];

  beforeAll(async () => {
    const plain = await a.create(pro, { url: 'https://example.com/plain' });
    const slugged = await a.create(pro, {
      url: 'https://example.com/a,b?x=1,2',
      customSlug: 'export-me',
      maxClicks: 5,
      expiresAt: a.inFuture(30 * DAY),
      blockedCountries: ['GB', 'us'],
    });
    const scheduled = await a.create(pro, { url: 'https://example.com/later', activeFrom: a.inFuture(DAY) });
    const onDomain = await a.create(pro, { url: 'https://example.com/on-domain' });
    await plant(onDomain.shortCode, { domain: 'go.example.org' });
    const folder = await t.as(pro, { method: 'POST', url: '/api/v1/folders', payload: { name: 'Exported' } });
    expect(folder.statusCode, folder.body).toBe(201);
    const filed = await t.as(pro, { method: 'POST', url: `/api/v1/links/${plain.shortCode}/folder`, payload: { folderId: folder.json<{ id: string }>().id } });
    expect(filed.statusCode, filed.body).toBe(200);
    await visit(plain.shortCode);
    await visit(plain.shortCode, { ip: '81.2.69.142', ua: UA.iphone });
    await visit(slugged.fullPath!);
    codes = [plain, slugged, scheduled, onDomain].map((l) => l.shortCode);
  });

  it.each(['A', 'B'] as const)('%s: CSV has the header row and one row per link, newest first, as the links list shows them', async (surface) => {
    const res = await download(pro, `${EXPORT[surface]}?format=csv`, 'csv', 'snip-links-');
    const rows = parse(res.body) as string[][];
    expect(rows[0]).toEqual(LINK_COLUMNS);
    const records = parse(res.body, { columns: true }) as Record<string, string>[];
    const links = await listAll(pro);
    expect(links.map((l) => l.shortCode).sort()).toEqual([...codes].sort());
    expect(records).toEqual(links.map((l) => asCsvRecord(expected(l))));

    const byCode = new Map(records.map((r) => [r.shortCode!, r]));
    const [plain, slugged, scheduled, onDomain] = codes.map((c) => byCode.get(c)!);
    expect(plain).toMatchObject({ clicks: '2', shortUrl: `http://snip.test/${plain!.shortCode}`, fullPath: '', folderId: expect.stringMatching(/.+/) });
    expect(slugged).toMatchObject({
      shortUrl: `http://snip.test/${pro.namespace}/export-me`,
      fullPath: `${pro.namespace}/export-me`,
      destination: 'https://example.com/a,b?x=1,2',
      clicks: '1',
      maxClicks: '5',
      blockedCountries: 'GB,US',
      folderId: '',
    });
    expect(scheduled!.activeFrom).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(onDomain).toMatchObject({ shortUrl: `http://go.example.org/${onDomain!.shortCode}`, domain: 'go.example.org' });
    // Cells with commas are quoted (RFC 4180).
    expect(res.body).toContain('"https://example.com/a,b?x=1,2"');
    expect(res.body).toContain('"GB,US"');
  });

  it('A and B answer the same file; without format it is CSV', async () => {
    const [fromA, fromB, byDefault] = await Promise.all([
      download(pro, `${EXPORT.A}?format=csv`, 'csv', 'snip-links-'),
      download(pro, `${EXPORT.B}?format=csv`, 'csv', 'snip-links-'),
      download(pro, EXPORT.B, 'csv', 'snip-links-'),
    ]);
    expect(fromB.body).toBe(fromA.body);
    expect(byDefault.body).toBe(fromA.body);
    expect(fromB.headers['content-disposition']).toBe(fromA.headers['content-disposition']);
  });

  it.each(['A', 'B'] as const)('%s: JSON is {links: [...]} with every field typed, newest first', async (surface) => {
    const res = await download(pro, `${EXPORT[surface]}?format=json`, 'json', 'snip-links-');
    const body = res.json<{ links: ExportedLink[] }>();
    expect(Object.keys(body)).toEqual(['links']);
    for (const link of body.links) expect(Object.keys(link)).toEqual(LINK_COLUMNS);
    expect(body.links).toEqual((await listAll(pro)).map(expected));
    const slugged = body.links.find((l) => l.fullPath !== null)!;
    expect(slugged).toMatchObject({ blockedCountries: ['GB', 'US'], maxClicks: 5, clicks: 1, domain: null, folderId: null });
  });

  it('CSV quotes quotes, commas and line breaks, and defuses cells a spreadsheet would run as formulas; JSON keeps values as they are', async () => {
    const hostile = await t.createUser('pro');
    const destinations = [
      '=HYPERLINK("http://evil.example","click")',
      '+1+cmd|\' /C calc\'!A0',
      '-2+3',
      '@SUM(A1:A9)',
      '\tindented',
      '\rcarriage',
      'https://example.com/"quoted",\nsecond line',
      'https://example.com/safe=1+2-3@4',
    ];
    for (const destination of destinations) {
      t.clock.advance(1000); // distinct creation times, so newest-first is the reverse of this order
      const link = await a.create(hostile, { url: 'https://example.com/placeholder' });
      await plant(link.shortCode, { url: destination });
    }
    const csv = await download(hostile, `${EXPORT.A}?format=csv`, 'csv', 'snip-links-');
    const cells = (parse(csv.body, { columns: true }) as Record<string, string>[]).map((r) => r.destination).reverse();
    expect(cells).toEqual([
      '\'=HYPERLINK("http://evil.example","click")',
      '\'+1+cmd|\' /C calc\'!A0',
      "'-2+3",
      "'@SUM(A1:A9)",
      "'\tindented",
      "'\rcarriage",
      'https://example.com/"quoted",\nsecond line',
      'https://example.com/safe=1+2-3@4',
    ]);
    expect(csv.body).toContain('"\'=HYPERLINK(""http://evil.example"",""click"")"');
    expect(csv.body).toContain('"https://example.com/""quoted"",\nsecond line"');
    const json = await download(hostile, `${EXPORT.B}?format=json`, 'json', 'snip-links-');
    expect(json.json<{ links: ExportedLink[] }>().links.map((l) => l.destination).reverse()).toEqual(destinations);
  });

  it('an account sees only its own links: no links is a header-only CSV and an empty JSON list', async () => {
    const csv = await download(other, EXPORT.A, 'csv', 'snip-links-');
    expect(csv.body).toBe(`${LINK_COLUMNS.join(',')}\n`);
    expect((await download(other, `${EXPORT.B}?format=json`, 'json', 'snip-links-')).json()).toEqual({ links: [] });
    const mine = await a.create(other, { url: 'https://example.com/others' });
    const records = parse((await download(other, EXPORT.B, 'csv', 'snip-links-')).body, { columns: true }) as Record<string, string>[];
    expect(records.map((r) => r.shortCode)).toEqual([mine.shortCode]);
    const pros = parse((await download(pro, EXPORT.B, 'csv', 'snip-links-')).body, { columns: true }) as Record<string, string>[];
    expect(pros.map((r) => r.shortCode)).not.toContain(mine.shortCode);
  });

  it.each(['A', 'B'] as const)("%s: the link list's filters keep exactly the links the list shows with them, in its order", async (surface) => {
    const links = await listAll(pro);
    const slugged = links.find((l) => l.fullPath !== null)!;
    if (slugged.tags.length === 0) {
      const tagged = await t.as(pro, { method: 'POST', url: `/api/links/${encodeURIComponent(slugged.fullPath!)}/tags`, payload: { tag: 'Launch' } });
      expect(tagged.statusCode, tagged.body).toBeLessThan(300);
    }
    const folderId = links.find((l) => l.folderId !== null)!.folderId!;
    const filters = [
      `folderId=${folderId}`,
      'folderId=none',
      'tag=launch',
      'tag=LAUNCH',
      'domain=go.example.org',
      'domain=GO.example.org.',
      'search=EXPORT-me',
      'search=example.com%2Fp',
      'search=%25',
      'search=%20%20',
      'folderId=none&search=later',
      `folderId=${folderId}&tag=launch`,
    ];
    const exported: Record<string, string[]> = {};
    const listed: Record<string, string[]> = {};
    for (const query of filters) {
      listed[query] = (await b.page(pro, `?limit=100&${query}`)).links.map((l) => l.shortCode);
      const json = (await download(pro, `${EXPORT[surface]}?format=json&${query}`, 'json', 'snip-links-')).json<{ links: ExportedLink[] }>();
      exported[query] = json.links.map((l) => l.shortCode);
      const csv = parse((await download(pro, `${EXPORT[surface]}?${query}`, 'csv', 'snip-links-')).body, { columns: true }) as Record<string, string>[];
      expect(csv.map((r) => r.shortCode), query).toEqual(exported[query]);
    }
    expect(exported).toEqual(listed);
    const [plain, , scheduled, onDomain] = codes;
    expect(exported[`folderId=${folderId}`]).toEqual([plain]);
    expect(exported['tag=LAUNCH']).toEqual([slugged.shortCode]);
    expect(exported['domain=go.example.org']).toEqual([onDomain]);
    expect(exported['search=%25']).toEqual([]);
    expect(exported['search=%20%20']).toHaveLength(codes.length);
    expect(exported['folderId=none&search=later']).toEqual([scheduled]);
    expect(exported[`folderId=${folderId}&tag=launch`]).toEqual([]);
  });

  it("a filter the link list refuses is refused alike: another account's folder 404, a bad tag, domain or search 400", async () => {
    const othersFolder = await t.as(other, { method: 'POST', url: '/api/v1/folders', payload: { name: 'Not yours' } });
    expect(othersFolder.statusCode, othersFolder.body).toBe(201);
    const cases: [string, number, string][] = [
      [`folderId=${othersFolder.json<{ id: string }>().id}`, 404, 'FOLDER_NOT_FOUND'],
      ['folderId=fld_unknown', 404, 'FOLDER_NOT_FOUND'],
      ['tag=%3Cb%3E', 400, 'INVALID_TAG'],
      ['domain=not%20a%20host', 400, 'INVALID_DOMAIN'],
      [`search=${'x'.repeat(201)}`, 400, 'INVALID_SEARCH'],
    ];
    for (const [query, status, code] of cases) {
      expectError(await get(pro, `${LINKS_B}?${query}`), status, code, `list ${query}`);
      for (const url of [EXPORT.A, EXPORT.B]) expectError(await get(pro, `${url}?${query}`), status, code, `${url}?${query}`);
    }
  });

  it('pages through large accounts: 1,005 links, many created at the same instant, each exactly once in list order', async () => {
    const urls = Array.from({ length: 1000 }, (_, i) => ({ url: `https://example.com/bulk/${i}` }));
    const bulk = await t.as(builder, { method: 'POST', url: '/api/bulk', payload: { urls } });
    expect(bulk.statusCode, bulk.body).toBe(200);
    for (let i = 0; i < 5; i++) await a.create(builder, { url: `https://example.com/single/${i}` });
    const listed = (await listAll(builder)).map((l) => l.shortCode);
    expect(listed).toHaveLength(1005);

    const json = (await download(builder, `${EXPORT.A}?format=json`, 'json', 'snip-links-')).json<{ links: ExportedLink[] }>();
    expect(json.links.map((l) => l.shortCode)).toEqual(listed);
    const csv = parse((await download(builder, `${EXPORT.B}?format=csv`, 'csv', 'snip-links-')).body, { columns: true }) as Record<string, string>[];
    expect(csv.map((r) => r.shortCode)).toEqual(listed);

    // The service's pages: keyset pages of the size asked for; the first page comes even when empty.
    const caller = await t.core.accounts.callerFor(builder.email);
    const pages = async (size: number) => {
      const out: string[][] = [];
      for await (const page of t.core.exports.linkPages(caller, size)) out.push(page.map((l) => l.code));
      return out;
    };
    const by400 = await pages(400);
    expect(by400.map((p) => p.length)).toEqual([400, 400, 205]);
    expect(by400.flat()).toEqual(listed);
    expect((await pages(335)).map((p) => p.length)).toEqual([335, 335, 335, 0]);
    const empty = await t.core.accounts.callerFor((await t.createUser('pro')).email);
    const none: number[] = [];
    for await (const page of t.core.exports.linkPages(empty, 10)) none.push(page.length);
    expect(none).toEqual([0]);
  });

  it.each([
    ['A', EXPORT.A],
    ['B', EXPORT.B],
  ])('%s: a format other than csv or json is 400 INVALID_FORMAT', async (_surface, url) => {
    for (const format of ['xml', 'CSV', 'jsonl', '', 'csv,json']) {
      expectError(await get(pro, `${url}?format=${format}`), 400, 'INVALID_FORMAT', `format=${format}`);
    }
    const caller = await t.core.accounts.callerFor(pro.email);
    await expect(t.core.exports.links(caller, { format: 'xlsx' })).rejects.toMatchObject({ status: 400, code: 'INVALID_FORMAT' });
    expect((await t.core.exports.links(caller, {})).contentType).toBe('text/csv; charset=utf-8');
  });

  it('needs a key (401) and the Pro plan (free: 403 TIER_REQUIRED)', async () => {
    for (const url of [EXPORT.A, EXPORT.B, statsUrl('A', codes[0]!), statsUrl('B', codes[0]!)]) {
      expectError(await get(null, url), 401, 'API_KEY_REQUIRED', url);
      expectError(await get('snip_notarealkey', url), 401, 'INVALID_API_KEY', url);
      expectError(await get(free, url), 403, 'TIER_REQUIRED', url);
    }
  });
});

describe(`link statistics export: GET .../export/links/{shortPath}/stats (${dialectName})`, () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  const pro = t.user('pro');
  const other = t.user('pro');
  const builder = t.user('builder');
  const { a, get, download, visit } = client(t);
  let code = '';
  let nsPath = '';

  /** GET /api/stats/{code}/aggregate: the numbers the export must repeat. */
  const aggregate = async (user: TestUser, shortCode: string, period: string): Promise<AggregatedStats> => {
    const res = await get(user, `/api/stats/${shortCode}/aggregate?period=${period}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AggregatedStats>();
  };
  /** The aggregate as the JSON export shows it: the link named instead of `short`. */
  const asExport = ({ short: _short, ...rest }: AggregatedStats, link: { shortCode: string; fullPath: string | null; shortUrl: string }): ExportedStats => ({
    ...rest,
    ...link,
  });

  beforeAll(async () => {
    const link = await a.create(pro, { url: 'https://example.com/stats-export' });
    code = link.shortCode;
    await visit(code, { ip: '81.2.69.142', ua: UA.iphone, referer: 'https://news.example.com/x' });
    await visit(code, { ip: '81.2.69.142', ua: UA.ipad, referer: 'https://t.co/y' });
    t.clock.advance(2 * DAY);
    await visit(code, { ip: '8.8.8.8', ua: UA.chrome });
    await visit(code, { ip: '10.0.0.1', ua: UA.chrome, referer: 'https://news.example.com/z' });
    const namespaced = await a.create(pro, { url: 'https://example.com/ns-stats', customSlug: 'stats-export' });
    nsPath = namespaced.fullPath!;
    await visit(nsPath, { ip: '8.8.8.8' });
  });

  it.each(['A', 'B'] as const)('%s: JSON has the numbers of GET /api/stats/{code}/aggregate, 30 days by default', async (surface) => {
    const res = await download(pro, statsUrl(surface, code, '?format=json'), 'json', `snip-stats-${code}-30d-`);
    const body = res.json<ExportedStats>();
    expect(Object.keys(body).sort()).toEqual(STATS_JSON_KEYS);
    const agg = await aggregate(pro, code, '30d');
    expect(body).toEqual(asExport(agg, { shortCode: code, fullPath: null, shortUrl: `http://snip.test/${code}` }));
    expect(body).toMatchObject({ period: '30d', totalClicks: 4, uniqueVisitors: 4, tierLimit: 90 });
    expect(body.clicksByDay).toHaveLength(30);
    expect(body.clicksByDay.filter((d) => d.clicks > 0).map((d) => d.clicks)).toEqual([2, 2]);
    for (const period of ['7d', '90d']) {
      const again = await download(pro, statsUrl(surface, code, `?format=json&period=${period}`), 'json', `snip-stats-${code}-${period}-`);
      expect(again.json()).toEqual(asExport(await aggregate(pro, code, period), { shortCode: code, fullPath: null, shortUrl: `http://snip.test/${code}` }));
    }
  });

  it.each(['A', 'B'] as const)('%s: CSV rows dimension,value,clicks carry every breakdown of the aggregate', async (surface) => {
    const res = await download(pro, statsUrl(surface, code, '?period=30d'), 'csv', `snip-stats-${code}-30d-`);
    const rows = parse(res.body) as string[][];
    expect(rows[0]).toEqual(['dimension', 'value', 'clicks']);
    const agg = await aggregate(pro, code, '30d');
    const of = (dimension: string) => rows.slice(1).filter((r) => r[0] === dimension).map((r) => [r[1]!, Number(r[2])] as [string, number]);
    expect(of('total')).toEqual([['', agg.totalClicks]]);
    expect(of('unique_visitors')).toEqual([['', agg.uniqueVisitors]]);
    expect(of('day')).toEqual(agg.clicksByDay.map((d) => [d.date, d.clicks]));
    expect(Object.fromEntries(of('country'))).toEqual(agg.countryBreakdown);
    expect(of('device')).toEqual(Object.entries(agg.deviceBreakdown));
    expect(Object.fromEntries(of('browser'))).toEqual(agg.browserBreakdown);
    expect(Object.fromEntries(of('os'))).toEqual(agg.osBreakdown);
    expect(Object.fromEntries(of('referrer'))).toEqual(agg.referrerBreakdown);
    expect(of('hour').map(([h]) => h)).toEqual(Array.from({ length: 24 }, (_, h) => String(h)));
    expect(Object.fromEntries(of('hour'))).toEqual(agg.hourBreakdown);
    // Each breakdown sums to the total; most clicks first within a breakdown.
    for (const dimension of ['day', 'country', 'device', 'browser', 'os', 'referrer', 'hour']) {
      expect(of(dimension).reduce((n, [, c]) => n + c, 0), dimension).toBe(4);
    }
    expect(of('country')).toEqual([['GB', 2], ['US', 1], ['unknown', 1]]);
    expect(of('referrer')).toEqual([['news.example.com', 2], ['direct', 1], ['t.co', 1]]);
    expect(new Set(rows.slice(1).map((r) => r[0]))).toEqual(new Set(['total', 'unique_visitors', 'day', 'country', 'device', 'browser', 'os', 'referrer', 'hour']));
  });

  it('a namespaced link is addressed by prefix%2Fslug; its file name and fullPath name it', async () => {
    const safeName = nsPath.replace('/', '_');
    const json = await download(pro, statsUrl('A', nsPath, '?format=json'), 'json', `snip-stats-${safeName}-30d-`);
    const body = json.json<ExportedStats>();
    expect(body).toMatchObject({ fullPath: nsPath, shortUrl: `http://snip.test/${nsPath}`, totalClicks: 1 });
    expect(body.shortCode).toMatch(/^[A-Za-z0-9]{6}$/);
    expect(body).toEqual(asExport(await aggregate(pro, body.shortCode, '30d'), { shortCode: body.shortCode, fullPath: nsPath, shortUrl: `http://snip.test/${nsPath}` }));
    const csv = await download(pro, statsUrl('B', nsPath.toUpperCase().replace(/\/.*/, `/stats-export`)), 'csv', `snip-stats-${safeName}-30d-`);
    expect(parse(csv.body)[1]).toEqual(['total', '', '1']);
  });

  it("a period beyond the plan's history is 403 PERIOD_EXCEEDS_PLAN (Pro keeps 90 days, Builder 365)", async () => {
    for (const surface of ['A', 'B'] as const) {
      for (const format of ['csv', 'json']) {
        expectError(await get(pro, statsUrl(surface, code, `?format=${format}&period=365d`)), 403, 'PERIOD_EXCEEDS_PLAN', `${surface} ${format}`);
      }
    }
    const link = await a.create(builder, { url: 'https://example.com/builder-stats' });
    await visit(link.shortCode);
    const year = await download(builder, statsUrl('A', link.shortCode, '?format=json&period=365d'), 'json', `snip-stats-${link.shortCode}-365d-`);
    expect(year.json<ExportedStats>()).toMatchObject({ period: '365d', totalClicks: 1, tierLimit: 365 });
    expect(year.json<ExportedStats>().clicksByDay).toHaveLength(365);
  });

  it('bad format or period is 400 (INVALID_FORMAT, INVALID_PERIOD); unknown link 404; another account\'s link 403', async () => {
    for (const surface of ['A', 'B'] as const) {
      expectError(await get(pro, statsUrl(surface, code, '?format=xml')), 400, 'INVALID_FORMAT');
      expectError(await get(pro, statsUrl(surface, code, '?format=')), 400, 'INVALID_FORMAT');
      expectError(await get(pro, statsUrl(surface, code, '?period=14d')), 400, 'INVALID_PERIOD');
      expectError(await get(pro, statsUrl(surface, 'Zz9Zz9')), 404, 'NOT_FOUND');
      expectError(await get(pro, statsUrl(surface, `${pro.namespace}/no-such-slug`)), 404, 'NOT_FOUND');
      expectError(await get(other, statsUrl(surface, code)), 403, 'ACCESS_DENIED');
      expectError(await get(other, statsUrl(surface, nsPath, '?format=json')), 403, 'ACCESS_DENIED');
    }
    const caller = await t.core.accounts.callerFor(pro.email);
    await expect(t.core.exports.linkStats(caller, code, { format: 'pdf' })).rejects.toMatchObject({ status: 400, code: 'INVALID_FORMAT' });
    await expect(t.core.exports.linkStats(caller, code, { period: '1y' })).rejects.toMatchObject({ status: 400, code: 'INVALID_PERIOD' });
    const file = await t.core.exports.linkStats(caller, code, {});
    expect(file).toMatchObject({ contentType: 'text/csv; charset=utf-8', filename: expect.stringMatching(new RegExp(`^snip-stats-${code}-30d-`)) });
  });
});

describe(`the links file round trip: API export, CLI import (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('pro');
  const { a, download } = client(t);
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-roundtrip-'));
    await a.create(owner, { url: 'https://example.com/plain' });
    await a.create(owner, {
      url: 'https://example.com/a,b?q="x"',
      customSlug: '-starts-with-hyphen',
      maxClicks: 5,
      expiresAt: a.inFuture(30 * DAY),
      blockedCountries: ['us', 'GB'],
    });
    await a.create(owner, { url: 'https://example.com/later', activeFrom: a.inFuture(DAY), expiresAt: a.inFuture(3 * DAY) });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** What an import carries over, from the JSON export: destination, the slug of fullPath, limits and schedule. */
  const settingsOf = async (user: TestUser) =>
    (await download(user, `${EXPORT.A}?format=json`, 'json', 'snip-links-'))
      .json<{ links: ExportedLink[] }>()
      .links.map((l) => [l.destination, l.fullPath?.split('/')[1] ?? null, l.expiresAt, l.maxClicks, l.activeFrom, l.blockedCountries])
      .sort((x, y) => String(x[0]).localeCompare(String(y[0])));

  /** Downloads the owner's export as `format` and imports the file into a new account with the CLI's import. */
  const roundTrip = async (format: 'csv' | 'json') => {
    const body = (await download(owner, `${EXPORT.B}?format=${format}`, format, 'snip-links-')).body;
    const file = path.join(dir, `export-${format}-${Date.now()}.${format}`);
    fs.writeFileSync(file, body);
    const importer = await t.createUser('pro');
    const summary = await importLinks(t.core, { email: importer.email, file });
    return { importer, summary };
  };

  it.each(['csv', 'json'] as const)('%s: the export imports into another account, which then exports the same links', async (format) => {
    const { importer, summary } = await roundTrip(format);
    expect(summary).toEqual({ imported: 3, existing: 0, failed: 0, total: 3, failures: [] });
    expect(await settingsOf(importer)).toEqual(await settingsOf(owner));
    const slugged = (await settingsOf(importer)).find((s) => s[1] !== null)!;
    expect(slugged).toEqual(['https://example.com/a,b?q=%22x%22', '-starts-with-hyphen', expect.any(String), 5, null, ['GB', 'US']]);
  });

  it('activeFrom is exported while it lies ahead and empty once it has passed, so the file still imports', async () => {
    const later = () => download(owner, `${EXPORT.A}?format=json`, 'json', 'snip-links-').then((r) => r.json<{ links: ExportedLink[] }>().links.find((l) => l.destination.endsWith('/later'))!);
    expect((await later()).activeFrom).toMatch(/^\d{4}-/);
    t.clock.advance(2 * DAY);
    expect((await later()).activeFrom).toBeNull();
    for (const format of ['csv', 'json'] as const) {
      const { importer, summary } = await roundTrip(format);
      expect(summary, format).toMatchObject({ imported: 3, failed: 0 });
      expect(await settingsOf(importer)).toEqual(await settingsOf(owner));
    }
  });
});

describe('the CSV dialect (src/exports/csv.ts)', () => {
  it('protects text cells starting with = + - @ tab or CR, and leaves numbers and other text alone', () => {
    expect(['=1', '+1', '-1', '@a', '\tx', '\rx', 'a=1', ' =1', "'=1", ''].map(protectFormula)).toEqual([
      "'=1", "'+1", "'-1", "'@a", "'\tx", "'\rx", 'a=1', ' =1', "'=1", '',
    ]);
    const text = toCsv(
      [{ a: '=SUM(1)', b: -5, c: null }, { a: 'x,"y"\nz', b: 0, c: '-' }],
      ['a', 'b', 'c'],
      { header: true, protectFormulas: true },
    );
    expect(text).toBe('a,b,c\n\'=SUM(1),-5,\n"x,""y""\nz",0,\'-\n');
    expect(parse(text, { columns: true })).toEqual([
      { a: "'=SUM(1)", b: '-5', c: '' },
      { a: 'x,"y"\nz', b: '0', c: "'-" },
    ]);
    expect(toCsv([{ a: '-x' }], ['a'], { header: false, protectFormulas: false })).toBe('-x\n');
    expect(toCsv([], ['a', 'b'], { header: true, protectFormulas: true })).toBe('a,b\n');
  });

  it('unprotectFormula undoes protectFormula for the values an import reads, and leaves other text alone', () => {
    for (const value of ['-slug', '+1', '=1', '@a', '\tx', 'https://example.com/', '2030-01-01T00:00:00.000Z', 'GB,US', '']) {
      expect(unprotectFormula(protectFormula(value)), value).toBe(value);
    }
    // Only a ' before a formula character is the guard.
    expect(["'-x", "'x", "''-x", "a'-"].map(unprotectFormula)).toEqual(['-x', "'x", "''-x", "a'-"]);
  });
});
