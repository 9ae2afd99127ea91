import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { dialectName, useTestApp, type BlockApp, type TestUser } from '../helpers/app.js';
import { startFakeSource, type FakeLink, type FakeSource, type FakeSourceOptions } from '../helpers/fake-sources.js';
import type { SourceName } from '../../src/imports/source.js';

/**
 * Hostile imports through the API: a source on the server's own network, a source key that must not come back, a
 * Bitly page that points elsewhere, and a source that answers garbage (NUL bytes, absurd numbers, 70 MB, HTML
 * errors). Every answer is a stable code, links made are valid, and no database text reaches the client.
 */

const KEY = 'sk-import-secret-7f3a9c1e5b';
const DATABASE_TEXT = /SQLITE|violates|syntax/i;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

interface Row {
  source: string;
  shortUrl: string | null;
  outcome: 'imported' | 'skipped' | 'failed';
  code?: string;
  message?: string;
}
interface Summary {
  imported: number;
  skipped: number;
  failed: number;
  clicks: number;
  rows: Row[];
  error?: { code: string; message: string };
}

const servers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function fake(kind: SourceName, options: Partial<FakeSourceOptions> = {}): Promise<FakeSource> {
  const source = await startFakeSource(kind, { key: KEY, links: [], ...options });
  servers.push(source);
  return source;
}

/** A plain HTTP server on 127.0.0.1 answering with `handle`, recording what it was asked. */
async function hostile(
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => void,
  host = '127.0.0.1',
): Promise<{ base: string; port: number; requests: http.IncomingMessage[] }> {
  const requests: http.IncomingMessage[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req);
    res.on('error', () => {});
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  servers.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  const port = (server.address() as AddressInfo).port;
  return { base: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, port, requests };
}

/** A Shlink listing of one page holding `items` as given. */
const shlinkPage = (items: unknown[]) => ({ shortUrls: { data: items, pagination: { currentPage: 1, pagesCount: 1, itemsPerPage: 100, itemsInCurrentPage: items.length, totalItems: items.length } } });

const json = (res: http.ServerResponse, status: number, body: unknown, type = 'application/json') => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

function importer(t: BlockApp) {
  return async (user: TestUser, body: Record<string, unknown>, surface: 'A' | 'B' = 'A'): Promise<LightMyRequestResponse> => {
    const res = await t.as(user, { method: 'POST', url: surface === 'A' ? '/api/v1/imports' : '/api/imports', payload: body });
    stable(res);
    return res;
  };
}

/** Whatever happened, the answer is a declared outcome in Snip's words. */
function stable(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body).toBeLessThan(500);
  expect(res.body).not.toMatch(DATABASE_TEXT);
  const body = res.json() as Record<string, unknown>;
  if (res.statusCode !== 200) {
    expect(body.code, res.body).toEqual(expect.any(String));
    return;
  }
  const summary = body as unknown as Summary;
  for (const row of summary.rows) {
    expect(['imported', 'skipped', 'failed']).toContain(row.outcome);
    if (row.outcome !== 'imported') expect(row.code, JSON.stringify(row)).toMatch(/^[A-Z_]+$/);
    expect(row.code).not.toBe('INTERNAL_ERROR');
    if (row.message !== undefined) expect(row.message, JSON.stringify(row)).not.toMatch(CONTROL);
  }
  if (summary.error) expect(summary.error.message).not.toMatch(CONTROL);
}

async function linksOf(t: BlockApp, user: TestUser): Promise<Record<string, unknown>[]> {
  const res = await t.as(user, { method: 'GET', url: '/api/v1/links?limit=100' });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { links?: Record<string, unknown>[]; data?: Record<string, unknown>[] };
  return body.links ?? body.data ?? [];
}

/** Every string anywhere in a value. */
const strings = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : Array.isArray(value) ? value.flatMap(strings) : value && typeof value === 'object' ? Object.values(value).flatMap(strings) : [];

/** A made link is one Snip itself could have made: no control characters, an http(s) destination, sane numbers. */
function valid(link: Record<string, unknown>): void {
  for (const text of strings(link)) expect(text, JSON.stringify(link)).not.toMatch(CONTROL);
  const destination = String(link.long);
  expect(destination).toMatch(/^https?:\/\//);
  expect(Number.isSafeInteger(link.importedClicks) && (link.importedClicks as number) >= 0, JSON.stringify(link)).toBe(true);
  if (link.maxClicks !== null && link.maxClicks !== undefined) {
    expect(Number.isSafeInteger(link.maxClicks) && (link.maxClicks as number) >= 1, JSON.stringify(link)).toBe(true);
  }
}

describe(`imports from private addresses, without IMPORT_ALLOW_PRIVATE (${dialectName})`, () => {
  const t = useTestApp();
  const user = t.user('builder');
  const post = importer(t);

  const refused = (res: LightMyRequestResponse) => {
    if (res.statusCode === 400) {
      expect(res.json()).toMatchObject({ code: 'INVALID_SOURCE' });
      return;
    }
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ imported: 0, rows: [], error: { code: 'SOURCE_UNREACHABLE' } });
  };

  /** A listening source that would import one link, to show that it is never asked. */
  const listening = (host: string) => hostile((_req, res) => json(res, 200, shlinkPage([{ shortCode: 'abc', longUrl: 'https://example.com/', tags: [] }])), host);

  it.each([
    ['127.0.0.1', '127.0.0.1', (port: number) => `http://127.0.0.1:${port}`],
    ['localhost', '127.0.0.1', (port: number) => `http://localhost:${port}`],
    ['127.1', '127.0.0.1', (port: number) => `http://127.1:${port}`],
    ['0x7f000001', '127.0.0.1', (port: number) => `http://0x7f000001:${port}`],
    ['[::ffff:127.0.0.1]', '127.0.0.1', (port: number) => `http://[::ffff:127.0.0.1]:${port}`],
    ['[::1]', '::1', (port: number) => `http://[::1]:${port}`],
  ])('refuses a source at %s, and the source hears nothing', { timeout: 15_000 }, async (_name, host, at) => {
    const source = await listening(host);
    const other = await t.createUser('builder');
    refused(await post(other, { from: 'shlink', source: at(source.port), sourceKey: KEY }));
    expect(source.requests).toHaveLength(0);
    expect(await linksOf(t, other)).toEqual([]);
  });

  it.each(['http://10.0.0.1', 'http://169.254.169.254', 'http://192.168.1.1:8080', 'http://[fd00::1]'])(
    'refuses a source at %s quickly, without waiting on it',
    { timeout: 30_000 },
    async (base) => {
      const started = Date.now();
      refused(await post(user, { from: 'kutt', source: base, sourceKey: KEY }, 'B'));
      // Refused by address before any connection: no connection timeout or retries are waited out.
      expect(Date.now() - started).toBeLessThan(5_000);
    },
  );

  it.each(['http://user:pass@shlink.example.com', 'https://:secret@shlink.example.com', 'file:///etc/passwd', 'ftp://shlink.example.com/', 'javascript:alert(1)', 'not a url'])(
    'refuses %s as the source with 400 INVALID_SOURCE',
    async (base) => {
      const res = await post(user, { from: 'shlink', source: base, sourceKey: KEY });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_SOURCE' });
      expect(res.body).not.toContain('user:pass');
      expect(res.body).not.toContain(':secret');
    },
  );
});

describe(`hostile sources, with IMPORT_ALLOW_PRIVATE=true (${dialectName})`, () => {
  const t = useTestApp({ IMPORT_ALLOW_PRIVATE: 'true' });
  const post = importer(t);

  it('never echoes or stores the source key: not in a success, not in a refusal, not in a link, not in the database', { timeout: 30_000 }, async () => {
    const user = await t.createUser('builder');
    const shlink = await fake('shlink', { links: [{ code: 'k1', url: 'https://example.com/k1', title: 'one', tags: ['x'] }] });
    const yourls = await fake('yourls', { links: [{ code: 'k2', url: 'https://example.com/k2' }], key: 'another' });
    const answers = [
      await post(user, { from: 'shlink', source: shlink.base, sourceKey: KEY, withClicks: true }),
      await post(user, { from: 'shlink', source: shlink.base, sourceKey: KEY, dryRun: true }),
      // YOURLS carries its key in the query string, where an error message naming the URL would show it.
      await post(user, { from: 'yourls', source: yourls.base, sourceKey: KEY }),
      await post(user, { from: 'shlink', source: 'http://127.0.0.1:9', sourceKey: KEY }),
      await post(user, { from: 'shlink', source: shlink.base, sourceKey: KEY, domain: 'not-mine.example' }),
      await post(user, { from: 'shlink', source: `${shlink.base}/?key=x`, sourceKey: KEY }),
    ];
    expect(answers[0]!.json()).toMatchObject({ imported: 1 });
    expect(answers[2]!.json()).toMatchObject({ error: { code: 'SOURCE_AUTH_FAILED' } });
    expect(answers[3]!.json()).toMatchObject({ error: { code: 'SOURCE_UNREACHABLE' } });
    for (const res of answers) expect(res.body).not.toContain(KEY);
    expect(JSON.stringify(await linksOf(t, user))).not.toContain(KEY);

    const db = t.core.database.db;
    const tables =
      t.core.database.dialect === 'sqlite'
        ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)).rows.map((r) => r.name)
        : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(db)).rows.map((r) => r.name);
    expect(tables).toContain('links');
    for (const table of tables) {
      const rows = (await sql`select * from ${sql.table(table)}`.execute(db)).rows;
      expect(JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : Buffer.isBuffer(v) ? v.toString('latin1') : v)), table).not.toContain(KEY);
    }
  });

  it('does not pass on the key where a source repeats it in its error', async () => {
    const user = await t.createUser('builder');
    const echo = await hostile((req, res) => json(res, 401, { title: 'Invalid API key', detail: `The key ${String(req.headers['x-api-key'])} is not valid`, status: 401 }, 'application/problem+json'));
    const res = await post(user, { from: 'shlink', source: echo.base, sourceKey: KEY });
    expect(res.json()).toMatchObject({ error: { code: 'SOURCE_AUTH_FAILED' } });
    expect(res.body).not.toContain(KEY);
  });

  it('Bitly: a next page on another origin never receives the token', { timeout: 30_000 }, async () => {
    const user = await t.createUser('builder');
    const thief = await hostile((_req, res) => json(res, 200, { links: [], pagination: { next: '' } }));
    const links: FakeLink[] = Array.from({ length: 7 }, (_, i) => ({ code: `n${i}`, url: `https://example.com/n/${i}` }));
    const bitly = await fake('bitly', { links, pageSize: 3, nextOrigin: thief.base });
    const res = await post(user, { from: 'bitly', source: bitly.base, sourceKey: KEY });
    expect(thief.requests).toEqual([]);
    // The pages came from the source named, so every link is there.
    expect(res.json()).toMatchObject({ imported: 7, failed: 0 });
    expect(bitly.requests.filter((r) => r.includes('/bitlinks?'))).toHaveLength(3);
  });

  it('NUL bytes and control characters in codes, destinations, titles and tags make no broken link', async () => {
    const user = await t.createUser('builder');
    const items = [
      { shortCode: 'nul\u0000code', shortUrl: 'https://shlink.test/nul\u0000code', longUrl: 'https://example.com/one', title: 'ok', tags: [] },
      { shortCode: 'dest1', longUrl: 'https://example.com/a\u0000b', tags: [] },
      { shortCode: 'dest2', longUrl: 'https://example.com/x\r\nSet-Cookie: a=b', tags: [] },
      { shortCode: 'title1', longUrl: 'https://example.com/t', title: 'Ti\u0000tle \u001b[31mred\u0007', tags: ['t\u0000ag', 'bell\u0007', 'fine'] },
      { shortCode: 'dom1', domain: 'evil\u0000.test', longUrl: 'https://example.com/d', tags: [] },
      { shortCode: 'good1', longUrl: 'https://example.com/good', title: 'Good', tags: ['fine'] },
    ];
    const source = await hostile((_req, res) => json(res, 200, shlinkPage(items)));
    const res = await post(user, { from: 'shlink', source: source.base, sourceKey: KEY });
    expect(res.statusCode, res.body).toBe(200);
    const summary = res.json() as Summary;
    expect(summary.rows).toHaveLength(items.length);
    expect(summary.rows.find((r) => r.source.endsWith('/good1'))).toMatchObject({ outcome: 'imported' });
    const made = await linksOf(t, user);
    expect(made.length).toBe(summary.imported);
    for (const link of made) valid(link);
    const tags = await t.as(user, { method: 'GET', url: '/api/v1/tags' });
    expect(tags.statusCode).toBeLessThan(500);
    for (const text of strings(tags.json())) expect(text).not.toMatch(CONTROL);
  });

  it('absurd click totals and visit limits (1e308, -5, 2^63) make no broken link', async () => {
    const user = await t.createUser('builder');
    const numbers = [1e308, -5, 2 ** 63, 1.5, Number.MAX_SAFE_INTEGER + 2];
    const items = numbers.flatMap((n, i) => [
      { shortCode: `clk${i}`, longUrl: `https://example.com/clicks/${i}`, visitsSummary: { total: n, nonBots: n, bots: 0 }, meta: {}, tags: [] },
      { shortCode: `max${i}`, longUrl: `https://example.com/max/${i}`, visitsSummary: { total: 1, nonBots: 1, bots: 0 }, meta: { maxVisits: n }, tags: [] },
    ]);
    const source = await hostile((_req, res) => json(res, 200, shlinkPage(items)));
    for (const surface of ['A', 'B'] as const) {
      const res = await post(user, { from: 'shlink', source: source.base, sourceKey: KEY }, surface);
      expect(res.statusCode, res.body).toBe(200);
      const summary = res.json() as Summary;
      expect(Number.isSafeInteger(summary.clicks), res.body).toBe(true);
      expect(summary.rows).toHaveLength(items.length);
    }
    const made = await linksOf(t, user);
    expect(made.length).toBeGreaterThan(0);
    for (const link of made) valid(link);
  });

  it('a destination of javascript:, data: or Snip itself is refused row by row', async () => {
    const user = await t.createUser('builder');
    const items = [
      { shortCode: 'js1', longUrl: 'javascript:alert(1)', tags: [] },
      { shortCode: 'data1', longUrl: 'data:text/html,<script>alert(1)</script>', tags: [] },
      { shortCode: 'self1', longUrl: `${t.baseUrl}/somewhere`, tags: [] },
      { shortCode: 'fine1', longUrl: 'https://example.com/fine', tags: [] },
    ];
    const source = await hostile((_req, res) => json(res, 200, shlinkPage(items)));
    const res = await post(user, { from: 'shlink', source: source.base, sourceKey: KEY });
    const summary = res.json() as Summary;
    expect(summary).toMatchObject({ imported: 1, failed: 3 });
    expect(summary.rows.map((r) => r.outcome)).toEqual(['failed', 'failed', 'failed', 'imported']);
    const made = await linksOf(t, user);
    expect(made).toHaveLength(1);
    valid(made[0]!);
  });

  it('a 70 MB answer is refused with SOURCE_ERROR and the server keeps answering', { timeout: 60_000 }, async () => {
    const user = await t.createUser('builder');
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const source = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"shortUrls":{"data":[');
      let sent = 0;
      const more = () => {
        while (sent < 70 && !res.destroyed) {
          sent += 1;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        if (!res.destroyed) res.end('],"pagination":{"pagesCount":1}}}');
      };
      res.socket?.on('close', () => (sent = Infinity));
      more();
    });
    const res = await post(user, { from: 'shlink', source: source.base, sourceKey: KEY });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ imported: 0, error: { code: 'SOURCE_ERROR' } });
    expect((await t.as(user, { method: 'GET', url: '/api/v1/links' })).statusCode).toBe(200);
  });

  it.each([
    ['a problem document', 'application/problem+json', JSON.stringify({ title: 'Error', status: 500, detail: `<html><script>alert(1)</script>\u0000\u001b[2J\r\nX-Injected: yes ${'y'.repeat(5000)}` })],
    ['an HTML page', 'text/html', `<!doctype html><html><body>\u0000\u001b[31mInternal error\u0007 ${'z'.repeat(5000)}</body></html>`],
  ])('an error answered as %s reaches the client short and without control characters', { timeout: 30_000 }, async (_name, type, body) => {
    const user = await t.createUser('builder');
    const source = await hostile((_req, res) => {
      res.writeHead(500, { 'content-type': type });
      res.end(body);
    });
    const res = await post(user, { from: 'shlink', source: source.base, sourceKey: KEY });
    expect(res.statusCode, res.body).toBe(200);
    const summary = res.json() as Summary;
    expect(summary.error?.code).toBe('SOURCE_ERROR');
    const message = summary.error!.message;
    expect(message).not.toMatch(CONTROL);
    // The source's own words are cut to about 300 characters; Snip's framing around them is short.
    expect(message.length, message).toBeLessThanOrEqual(300 + 150);
    expect(message).not.toContain('y'.repeat(400));
  });

  it('two imports of the same source at once make each link exactly once', { timeout: 60_000 }, async () => {
    const user = await t.createUser('builder');
    const links: FakeLink[] = Array.from({ length: 60 }, (_, i) => ({ code: `dup${i}`, url: `https://example.com/dup/${i}`, tags: ['twice'] }));
    const shlink = await fake('shlink', { links, pageSize: 20 });
    const [a, b] = await Promise.all([
      post(user, { from: 'shlink', source: shlink.base, sourceKey: KEY }),
      post(user, { from: 'shlink', source: shlink.base, sourceKey: KEY }, 'B'),
    ]);
    const [first, second] = [a.json() as Summary, b.json() as Summary];
    expect(first.error).toBeUndefined();
    expect(second.error).toBeUndefined();
    expect(first.imported + second.imported).toBe(60);
    expect(first.failed + second.failed).toBe(0);
    const made = await linksOf(t, user);
    expect(made).toHaveLength(60);
    expect(new Set(made.map((l) => l.importedFrom)).size).toBe(60);
    // Both runs name the same Snip link for each source link.
    const where = (s: Summary) => Object.fromEntries(s.rows.map((r) => [r.source, r.shortUrl]));
    expect(where(first)).toEqual(where(second));
  });

  it('a source that lists the same links forever is stopped, not followed until memory runs out', { timeout: 30_000 }, async () => {
    const user = await t.createUser('builder');
    const page = Array.from({ length: 100 }, (_, i) => ({ domain: 'dub.sh', key: `loop${i}`, url: `https://example.com/loop/${i}`, shortLink: `https://dub.sh/loop${i}` }));
    const source = await hostile((_req, res) => json(res, 200, page));
    const summary = (await post(user, { from: 'dub', source: source.base, sourceKey: KEY })).json() as Summary;
    expect(summary).toMatchObject({ imported: 100, error: { code: 'SOURCE_ERROR', message: expect.stringContaining('listed the same links again') } });
    expect(source.requests.length).toBe(2);
    expect(await linksOf(t, user)).toHaveLength(100);
  });

  it('Shlink visits recorded by two imports at once count once', { timeout: 60_000 }, async () => {
    const user = await t.createUser('builder');
    const visits = Array.from({ length: 5 }, (_, i) => ({ at: `2025-03-0${i + 1}T10:00:00Z`, country: 'DE', referrer: 'https://news.example/a', userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120 Safari/537.36' }));
    const shlink = await fake('shlink', { links: [{ code: 'twice', url: 'https://example.com/twice', clicks: 5 }], visits: { twice: visits } });
    await Promise.all([
      post(user, { from: 'shlink', source: shlink.base, sourceKey: KEY, withClicks: true }),
      post(user, { from: 'shlink', source: shlink.base, sourceKey: KEY, withClicks: true }, 'B'),
    ]);
    const [link] = await linksOf(t, user);
    expect(link).toMatchObject({ clicks: 5, importedClicks: 0 });
    // And a third run finds nothing left to record.
    await post(user, { from: 'shlink', source: shlink.base, sourceKey: KEY, withClicks: true });
    expect((await linksOf(t, user))[0]).toMatchObject({ clicks: 5, importedClicks: 0 });
  });
});
