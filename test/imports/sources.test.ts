import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { sourceHttp } from '../../src/imports/http.js';
import type { Source, SourceLink, SourceName, SourceVisit } from '../../src/imports/source.js';
import { nextPageUrl } from '../../src/imports/sources/bitly.js';
import { SOURCES } from '../../src/imports/sources/index.js';
import { startFakeSource, type FakeLink, type FakeSource, type FakeSourceOptions } from '../helpers/fake-sources.js';

/**
 * The five source adapters against local servers that answer as each service's documented API does: every link of a
 * listing of several pages read once, with its fields; the source's own words when it refuses the key; a 429 waited
 * out; a source that stops answering, or answers something else than its documented shape, ends the read with the
 * matching error code.
 */

const KEY = 'the-right-key';
const started: FakeSource[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((fake) => fake.close()));
});

async function fake(kind: SourceName, options: Partial<FakeSourceOptions> = {}): Promise<FakeSource> {
  const source = await startFakeSource(kind, { key: KEY, links: [], ...options });
  started.push(source);
  return source;
}

/** The adapter over the real SourceHttp, whose waits are recorded instead of slept. */
function adapter(kind: SourceName, base: string, key = KEY): { source: Source; waits: number[] } {
  const waits: number[] = [];
  const http = sourceHttp({ allowPrivate: true, sleep: async (ms) => void waits.push(ms) });
  return { source: SOURCES[kind]({ base, key, http }), waits };
}

async function readAll(source: Source): Promise<SourceLink[]> {
  const links: SourceLink[] = [];
  for await (const page of source.pages()) links.push(...page);
  return links;
}

async function visitsOf(source: Source, link: SourceLink): Promise<SourceVisit[]> {
  const visits: SourceVisit[] = [];
  for await (const page of source.visitsOf!(link)) visits.push(...page);
  return visits;
}

/** What a read ended with: its links so far and its error. */
async function readUntilFailure(source: Source): Promise<{ links: SourceLink[]; error: unknown }> {
  const links: SourceLink[] = [];
  try {
    for await (const page of source.pages()) links.push(...page);
  } catch (error) {
    return { links, error };
  }
  return { links, error: null };
}

const many = (n: number): FakeLink[] =>
  Array.from({ length: n }, (_, i) => ({ code: `c${i}`, url: `https://example.com/page/${i}`, title: `Page ${i}`, clicks: i }));

const byCode = (links: SourceLink[], code: string): SourceLink => {
  const link = links.find((l) => l.code === code);
  if (!link) throw new Error(`no link ${code} among ${links.length}`);
  return link;
};

/** Per source: which requests read the listing, and the words it refuses a wrong key with. */
const KINDS: { kind: SourceName; listing: RegExp; refusal: string; status: number; host: string; clicksListed: boolean }[] = [
  { kind: 'shlink', listing: /^\/rest\/v3\/short-urls\?/, refusal: 'Provided API key does not exist or is invalid.', status: 401, host: 'shlink.test', clicksListed: true },
  { kind: 'kutt', listing: /^\/api\/v2\/links\?/, refusal: 'Unauthorized.', status: 401, host: 'kutt.test', clicksListed: true },
  { kind: 'yourls', listing: /^\/yourls-api\.php\?/, refusal: 'Please log in', status: 403, host: 'yourls.test', clicksListed: true },
  { kind: 'bitly', listing: /\/bitlinks\?/, refusal: 'You are currently forbidden to access this resource.', status: 403, host: 'bit.ly', clicksListed: false },
  { kind: 'dub', listing: /^\/links\?/, refusal: 'Unauthorized: Invalid API key.', status: 401, host: 'dub.sh', clicksListed: true },
];

describe.each(KINDS)('$kind', ({ kind, listing, refusal, status, host, clicksListed }) => {
  const LINKS = many(250);

  it('reads every link of a listing of several pages, once each and in order', async () => {
    const server = await fake(kind, { links: LINKS });
    const links = await readAll(adapter(kind, server.base).source);
    expect(links.map((l) => [l.code, l.domain, l.shortUrl, l.url, l.clicks])).toEqual(
      LINKS.map((l) => [l.code, host, `https://${host}/${l.code}`, l.url, clicksListed ? l.clicks : null]),
    );
    expect(server.requests.filter((r) => listing.test(r)).length).toBeGreaterThanOrEqual(3);
  });

  it('reads an empty listing as no links', async () => {
    const server = await fake(kind, { links: [] });
    expect(await readAll(adapter(kind, server.base).source)).toEqual([]);
  });

  it(`a wrong key is SOURCE_AUTH_FAILED with the source's own words (its ${status})`, async () => {
    const server = await fake(kind, { links: LINKS });
    const { error } = await readUntilFailure(adapter(kind, server.base, 'a-wrong-key').source);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'SOURCE_AUTH_FAILED', message: expect.stringContaining(refusal) });
    expect((error as AppError).message).toContain(String(status));
    expect((error as AppError).message).not.toContain('a-wrong-key');
  });

  it('waits out a 429 mid-way as its Retry-After says, losing and repeating no link', async () => {
    const server = await fake(kind, { links: LINKS, rateLimitAt: 3 });
    const { source, waits } = adapter(kind, server.base);
    const links = await readAll(source);
    expect(links.map((l) => l.code)).toEqual(LINKS.map((l) => l.code));
    expect(waits).toEqual([1000]);
    // The refused request was asked again, as it was.
    expect(server.requests[3]).toBe(server.requests[2]);
  });

  it('a source that stops answering mid-way is SOURCE_UNREACHABLE; read again once it is back, every link comes', async () => {
    const server = await fake(kind, { links: LINKS, dieAfter: 2 });
    const first = await readUntilFailure(adapter(kind, server.base).source);
    expect(first.error).toBeInstanceOf(AppError);
    expect(first.error).toMatchObject({ code: 'SOURCE_UNREACHABLE' });
    expect(first.links.length).toBeGreaterThan(0);
    expect(first.links.length).toBeLessThan(LINKS.length);

    server.revive();
    const again = await readAll(adapter(kind, server.base).source);
    expect(again.map((l) => l.code)).toEqual(LINKS.map((l) => l.code));
  });

  it('a page that is not the documented structure is SOURCE_ERROR saying what was expected', async () => {
    const server = await fake(kind, { links: LINKS, malformedAt: 2 });
    const { error } = await readUntilFailure(adapter(kind, server.base).source);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'SOURCE_ERROR', message: expect.stringContaining('expected') });
  });
});

describe('shlink', () => {
  const links: FakeLink[] = [
    {
      code: 'launch',
      url: 'https://example.com/launch',
      title: 'Launch',
      tags: ['news', 'spring'],
      createdAt: '2023-05-06T07:08:09Z',
      activeFrom: '2023-06-01T00:00:00Z',
      expiresAt: '2030-01-01T00:00:00Z',
      maxVisits: 500,
      clicks: 42,
    },
    { code: 'spring/sale', domain: 'go.example.com', url: 'https://example.com/sale', clicks: 3 },
    { code: 'café', url: 'https://example.com/cafe' },
  ];

  it('reads each field, the domain and code from the short URL (non-default domains, slashes, encoded paths)', async () => {
    const server = await fake('shlink', { links });
    const read = await readAll(adapter('shlink', server.base).source);
    expect(read).toEqual([
      {
        shortUrl: 'https://shlink.test/launch',
        domain: 'shlink.test',
        code: 'launch',
        url: 'https://example.com/launch',
        title: 'Launch',
        tags: ['news', 'spring'],
        createdAt: '2023-05-06T07:08:09.000Z',
        expiresAt: '2030-01-01T00:00:00.000Z',
        activeFrom: '2023-06-01T00:00:00.000Z',
        maxClicks: 500,
        clicks: 42,
        endedBecause: null,
        passwordProtected: false,
        password: null,
      },
      expect.objectContaining({ shortUrl: 'https://go.example.com/spring/sale', domain: 'go.example.com', code: 'spring/sale', title: null, tags: [], maxClicks: null, clicks: 3 }),
      expect.objectContaining({ shortUrl: 'https://shlink.test/caf%C3%A9', domain: 'shlink.test', code: 'café' }),
    ]);
  });

  it("reads a link's visits page by page, naming the domain only for a non-default one", async () => {
    const visits = Array.from({ length: 250 }, (_, i) => ({ at: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(), userAgent: `agent ${i}` }));
    const server = await fake('shlink', {
      links,
      pageSize: 100,
      visits: {
        launch: visits,
        'spring/sale': [
          { at: '2024-02-03T04:05:06Z', referrer: 'https://news.example/', userAgent: 'Mozilla/5.0', country: 'de' },
          { at: '2024-02-03T05:00:00Z', referrer: '', userAgent: 'curl/8', country: null },
        ],
      },
    });
    const { source } = adapter('shlink', server.base);
    const read = await readAll(source);

    const launch = await visitsOf(source, byCode(read, 'launch'));
    expect(launch.map((v) => v.userAgent)).toEqual(visits.map((v) => v.userAgent));
    const launchRequests = server.requests.filter((r) => r.startsWith('/rest/v3/short-urls/launch/visits?'));
    expect(launchRequests).toHaveLength(3);
    expect(launchRequests.every((r) => !r.includes('domain='))).toBe(true);

    const sale = await visitsOf(source, byCode(read, 'spring/sale'));
    expect(sale).toEqual([
      { at: '2024-02-03T04:05:06.000Z', referrer: 'https://news.example/', userAgent: 'Mozilla/5.0', country: 'DE' },
      { at: '2024-02-03T05:00:00.000Z', referrer: null, userAgent: 'curl/8', country: null },
    ]);
    const saleRequest = server.requests.find((r) => r.startsWith('/rest/v3/short-urls/spring%2Fsale/visits?'));
    expect(new URLSearchParams(saleRequest!.split('?')[1]).get('domain')).toBe('go.example.com');
  });
});

describe('kutt', () => {
  it('reads the description as the title, expire_in as the expiry, and the domain from the short URL', async () => {
    const server = await fake('kutt', {
      links: [
        { code: 'abc', url: 'https://example.com/a', title: 'About A', createdAt: '2024-03-04T05:06:07Z', expiresAt: '2031-02-03T04:05:06Z', clicks: 7 },
        { code: 'promo', domain: 'Go.Example.COM', url: 'https://example.com/p' },
      ],
    });
    const read = await readAll(adapter('kutt', server.base).source);
    expect(read).toEqual([
      {
        shortUrl: 'https://kutt.test/abc',
        domain: 'kutt.test',
        code: 'abc',
        url: 'https://example.com/a',
        title: 'About A',
        tags: [],
        createdAt: '2024-03-04T05:06:07.000Z',
        expiresAt: '2031-02-03T04:05:06.000Z',
        activeFrom: null,
        maxClicks: null,
        clicks: 7,
        endedBecause: null,
        passwordProtected: false,
        password: null,
      },
      expect.objectContaining({ domain: 'go.example.com', code: 'promo', expiresAt: null, title: null, clicks: 0 }),
    ]);
  });
});

describe('yourls', () => {
  it('reads its timestamp as UTC and its clicks given as strings as numbers', async () => {
    const server = await fake('yourls', { links: [{ code: 'ozh', url: 'https://example.com/o', title: 'Ozh', createdAt: '2024-01-02T03:04:05Z', clicks: 1234 }] });
    const read = await readAll(adapter('yourls', server.base).source);
    expect(read).toEqual([
      {
        shortUrl: 'https://yourls.test/ozh',
        domain: 'yourls.test',
        code: 'ozh',
        url: 'https://example.com/o',
        title: 'Ozh',
        tags: [],
        createdAt: '2024-01-02T03:04:05.000Z',
        expiresAt: null,
        activeFrom: null,
        maxClicks: null,
        clicks: 1234,
        endedBecause: null,
        passwordProtected: false,
        password: null,
      },
    ]);
    // The key travels as the signature, never in a header.
    expect(server.requests[0]).toContain(`signature=${KEY}`);
  });
});

describe('bitly', () => {
  const links: FakeLink[] = [
    {
      code: 'brandx',
      url: 'https://example.com/b',
      title: 'Branded',
      tags: ['q1'],
      createdAt: '2024-04-05T06:07:08Z',
      expiresAt: '2029-01-01T00:00:00Z',
      customBitlinks: ['https://brand.example/spring', 'https://brand.example/other'],
      clicks: 99,
    },
    { code: '3xYzAb', url: 'https://example.com/plain', clicks: 5 },
    { code: 'hidden', url: 'https://example.com/hidden', archived: true, clicks: 1 },
  ];

  it('emits a link with branded short URLs as its first one, and lists hidden links too', async () => {
    const server = await fake('bitly', { links });
    const read = await readAll(adapter('bitly', server.base).source);
    expect(read).toEqual([
      {
        shortUrl: 'https://brand.example/spring',
        domain: 'brand.example',
        code: 'spring',
        url: 'https://example.com/b',
        title: 'Branded',
        tags: ['q1'],
        createdAt: '2024-04-05T06:07:08.000Z',
        expiresAt: '2029-01-01T00:00:00.000Z',
        activeFrom: null,
        maxClicks: null,
        clicks: null,
        endedBecause: null,
        passwordProtected: false,
        password: null,
      },
      expect.objectContaining({ shortUrl: 'https://bit.ly/3xYzAb', domain: 'bit.ly', code: '3xYzAb', clicks: null }),
      expect.objectContaining({ code: 'hidden' }),
    ]);
  });

  it("reads each link's click total from its bitlink's summary, a branded link's included", async () => {
    const server = await fake('bitly', { links });
    const { source } = adapter('bitly', server.base);
    const read = await readAll(source);
    expect(await source.clicksOf!(byCode(read, 'spring'))).toBe(99);
    expect(await source.clicksOf!(byCode(read, '3xYzAb'))).toBe(5);
    expect(server.requests.filter((r) => r.includes('/clicks/summary'))).toEqual([
      '/v4/bitlinks/bit.ly/brandx/clicks/summary?unit=day&units=-1',
      '/v4/bitlinks/bit.ly/3xYzAb/clicks/summary?unit=day&units=-1',
    ]);
  });

  it('follows pagination.next, and a next on another origin is asked of --source, never of that origin', async () => {
    const elsewhere = await fake('bitly', { links: many(5) });
    const server = await fake('bitly', { links: many(250), nextOrigin: elsewhere.base });
    const read = await readAll(adapter('bitly', server.base).source);
    expect(read.map((l) => l.code)).toEqual(many(250).map((l) => l.code));
    expect(elsewhere.requests).toEqual([]);
    expect(server.requests.filter((r) => r.includes('search_after='))).toHaveLength(2);
  });

  it('keeps the path of --source when it rewrites a next on another origin', () => {
    expect(nextPageUrl('https://api-ssl.bitly.com/v4/groups/B1/bitlinks?size=100&search_after=x', 'http://proxy.test/bitly')).toBe(
      'http://proxy.test/bitly/v4/groups/B1/bitlinks?size=100&search_after=x',
    );
    expect(nextPageUrl('http://proxy.test/bitly/v4/groups/B1/bitlinks?page=2', 'http://proxy.test/bitly')).toBe('http://proxy.test/bitly/v4/groups/B1/bitlinks?page=2');
  });

  it('follows no next of another scheme, whose opaque path would splice a host into --source', () => {
    for (const next of ['foo:@evil.example/v4/x', 'javascript:alert(1)', 'file:///etc/passwd']) {
      expect(() => nextPageUrl(next, 'https://api-ssl.bitly.com'), next).toThrow(expect.objectContaining({ code: 'SOURCE_ERROR' }));
    }
  });
});

describe('dub', () => {
  it('reads tag names, the short link, and archived links too', async () => {
    const server = await fake('dub', {
      links: [
        { code: 'summer', domain: 'go.acme.test', url: 'https://acme.test/summer', title: 'Summer', tags: ['promo', 'q3'], createdAt: '2024-06-01T10:00:00Z', expiresAt: '2024-09-01T00:00:00Z', clicks: 12 },
        { code: 'old', url: 'https://acme.test/old', archived: true },
      ],
    });
    const read = await readAll(adapter('dub', server.base).source);
    expect(read).toEqual([
      {
        shortUrl: 'https://go.acme.test/summer',
        domain: 'go.acme.test',
        code: 'summer',
        url: 'https://acme.test/summer',
        title: 'Summer',
        tags: ['promo', 'q3'],
        createdAt: '2024-06-01T10:00:00.000Z',
        expiresAt: '2024-09-01T00:00:00.000Z',
        activeFrom: null,
        maxClicks: null,
        clicks: 12,
        endedBecause: null,
        passwordProtected: false,
        password: null,
      },
      expect.objectContaining({ shortUrl: 'https://dub.sh/old', code: 'old', clicks: 0 }),
    ]);
  });
});
