import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { dialectName, sharedDatabase, startApp, useTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { expectError } from '../helpers/api-errors.js';
import { linkApi, LINKS_A, type CreatedLinkA, type LinkA } from '../helpers/links.js';
import { oneJsonLine, runCli } from '../helpers/processes.js';

/**
 * The public trust score (spec 2.10) over real HTTP: `GET /api/link-scan/:short`, the scan every new or re-pointed
 * link gets off the request path (built-in threat list, THREAT_LIST_FILE, URL heuristics, Safe Browsing v4 against
 * a local stub), the warning page an `unsafe` link answers instead of its redirect, the `+` preview page, and the
 * scans a stopped app left owed being made by the next app on the same database.
 */

/** Spec 2.10's trust score body. */
interface TrustScore {
  short: string;
  /** Null for a link with a click cap (test/security/one-time-links.test.ts). */
  destination: string | null;
  trustScore: number | null;
  trustStatus: 'safe' | 'warning' | 'unsafe' | null;
  threats: string[];
  scannedAt: string | null;
  source: string | null;
  createdAt: number;
}

const SCORE_KEYS = ['createdAt', 'destination', 'scannedAt', 'short', 'source', 'threats', 'trustScore', 'trustStatus'];
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const HOUR = 3_600_000;

/** The Safe Browsing test pages of the built-in list. */
const MALWARE_TEST_URL = 'http://malware.testing.google.test/testing/malware/';
const PHISHING_TEST_URL = 'http://testsafebrowsing.appspot.com/s/phishing.html';

/** Spec 2.10: 80-100 safe, 40-79 warning, 0-39 unsafe. */
const bandOf = (score: number): 'safe' | 'warning' | 'unsafe' => (score >= 80 ? 'safe' : score >= 40 ? 'warning' : 'unsafe');

/** Polls `probe` until `done` holds, failing after `timeoutMs` with the last value seen. */
async function waitFor<T>(what: string, probe: () => T | Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The escaping the HTML pages must apply to anything they show. */
const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

// ---------------------------------------------------------------------------------------------------------------
// A Safe Browsing v4 stand-in: a real HTTP server on 127.0.0.1 that records every lookup and answers it as told,
// or holds it until the test releases it.

interface LookupBody {
  client?: { clientId?: string; clientVersion?: string };
  threatInfo: { threatTypes: string[]; platformTypes: string[]; threatEntryTypes: string[]; threatEntries: { url: string }[] };
}

interface Lookup {
  method: string;
  /** Path and query, as received. */
  path: string;
  headers: http.IncomingHttpHeaders;
  body: LookupBody;
  /** The URL looked up (the first threat entry). */
  url: string;
}

interface StubReply {
  status: number;
  body: string;
  /** Answer this long after the lookup arrives (a remote service's latency). */
  delayMs?: number;
}

/** What the stub does with a lookup: answer it, or hold it until `release`. */
type StubAnswer = StubReply | 'hold';

const json = (body: unknown, status = 200): StubReply => ({ status, body: JSON.stringify(body) });
/** The v4 answer naming one match of `threatType` for `url`. */
const match = (threatType: string, url: string): StubReply =>
  json({ matches: [{ threatType, platformType: 'ANY_PLATFORM', threatEntryType: 'URL', threat: { url }, cacheDuration: '300s' }] });
const NO_MATCH = json({});

class SafeBrowsingStub {
  readonly lookups: Lookup[] = [];
  /** How the next lookups are answered; tests set it, `reset` puts back "no match". */
  answer: (lookup: Lookup) => StubAnswer = () => NO_MATCH;
  private held: { lookup: Lookup; res: http.ServerResponse }[] = [];

  private constructor(
    private readonly server: http.Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<SafeBrowsingStub> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const stub = new SafeBrowsingStub(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: LookupBody;
        try {
          body = JSON.parse(text) as LookupBody;
        } catch {
          res.writeHead(400).end('not JSON');
          return;
        }
        const lookup: Lookup = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, url: body.threatInfo?.threatEntries?.[0]?.url ?? '' };
        stub.lookups.push(lookup);
        const answer = stub.answer(lookup);
        if (answer === 'hold') stub.held.push({ lookup, res });
        else if (answer.delayMs) setTimeout(() => stub.reply(res, answer), answer.delayMs);
        else stub.reply(res, answer);
      });
    });
    return stub;
  }

  /** The URLs of the lookups held so far and not released. */
  heldUrls(): string[] {
    return this.held.map((h) => h.lookup.url);
  }

  lookupsOf(url: string): Lookup[] {
    return this.lookups.filter((l) => l.url === url);
  }

  /** Answers every held lookup (one the app gave up on is dropped quietly); answers how many there were. */
  release(answer: (lookup: Lookup) => StubReply = () => NO_MATCH): number {
    const held = this.held.splice(0);
    for (const { lookup, res } of held) this.reply(res, answer(lookup));
    return held.length;
  }

  reset(): void {
    this.release();
    this.answer = () => NO_MATCH;
  }

  async close(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((error) => (error ? reject(error) : resolve())));
  }

  private reply(res: http.ServerResponse, { status, body }: StubReply): void {
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Requests.

/** Requests about links and their trust scores on one app, acting as `user` where a key is needed. */
function trustApi(t: TestApp) {
  const links = linkApi<CreatedLinkA, LinkA>(t, LINKS_A);
  const scanRes = (short: string): Promise<LightMyRequestResponse> => t.app.inject({ method: 'GET', url: `/api/link-scan/${encodeURIComponent(short)}` });
  /** GET /api/link-scan/:short without a key, asserting 200 and the exact 2.10 field set. */
  const scan = async (short: string): Promise<TrustScore> => {
    const res = await scanRes(short);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json<TrustScore>();
    expect(Object.keys(body).sort()).toEqual(SCORE_KEYS);
    return body;
  };
  const create = (user: TestUser, url: string, extra: Record<string, unknown> = {}): Promise<CreatedLinkA> => links.create(user, { url, ...extra });
  /** Creates a link and answers its score once every queued scan has finished. */
  const scanned = async (user: TestUser, url: string, extra: Record<string, unknown> = {}): Promise<{ link: CreatedLinkA; score: TrustScore }> => {
    const link = await create(user, url, extra);
    await t.core.trust.settle();
    return { link, score: await scan(link.shortCode) };
  };
  /** Polls the score of `short` until `done` holds (a re-point queues its rescan after the request answers). */
  const scanUntil = (short: string, done: (score: TrustScore) => boolean, what = `the scan of ${short}`): Promise<TrustScore> =>
    waitFor(what, () => scan(short), done);
  /** A visit by a browser (a counted visitor), or by `userAgent`. */
  const visit = (shortPath: string, options: { method?: 'GET' | 'HEAD'; userAgent?: string } = {}): Promise<LightMyRequestResponse> =>
    t.app.inject({ method: options.method ?? 'GET', url: `/${shortPath}`, headers: { 'user-agent': options.userAgent ?? BROWSER } });
  const clicksOf = async (user: TestUser, shortPath: string): Promise<number> => {
    const res = await links.get(user, shortPath);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<LinkA>().clicks;
  };
  const repoint = async (user: TestUser, shortPath: string, url: string): Promise<void> => {
    const res = await links.patch(user, shortPath, { url });
    expect(res.statusCode, res.body).toBe(200);
  };
  return { links, scanRes, scan, create, scanned, scanUntil, visit, clicksOf, repoint };
}

/** A scan that finished: a score in the band its status names, a scan time, and a source. */
function expectScanned(score: TrustScore, expected: { status: 'safe' | 'warning' | 'unsafe'; threats: string[]; trustScore?: number; source?: string }): void {
  const label = JSON.stringify(score);
  expect(score.trustScore, label).not.toBeNull();
  expect(Number.isInteger(score.trustScore), label).toBe(true);
  expect(score.trustScore!, label).toBeGreaterThanOrEqual(0);
  expect(score.trustScore!, label).toBeLessThanOrEqual(100);
  expect(score.trustStatus, label).toBe(bandOf(score.trustScore!));
  expect(score.trustStatus, label).toBe(expected.status);
  expect(score.threats, label).toEqual(expected.threats);
  if (expected.trustScore !== undefined) expect(score.trustScore, label).toBe(expected.trustScore);
  expect(score.source, label).toBe(expected.source ?? 'snip-local');
  expect(score.scannedAt, label).toEqual(expect.any(String));
  expect(new Date(score.scannedAt!).toISOString(), label).toBe(score.scannedAt);
  expect(Date.parse(score.scannedAt!), label).toBeGreaterThanOrEqual(score.createdAt);
}

/** A link no scan has scored yet (2.10: both null means not yet scanned). */
function expectUnscanned(score: TrustScore): void {
  expect(score, JSON.stringify(score)).toMatchObject({ trustScore: null, trustStatus: null, threats: [], scannedAt: null, source: null });
}

/** A visitor-facing HTML page: the status, text/html, no Location. */
function expectHtml(res: LightMyRequestResponse, status: number): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.headers.location).toBeUndefined();
  if (res.raw.req.method !== 'HEAD') expect(res.body).toMatch(/^<!doctype html>/i);
}

/** The warning page an `unsafe` link answers instead of its redirect. */
function expectWarningPage(res: LightMyRequestResponse, destination: string, threats: string[]): void {
  expectHtml(res, 200);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.body).toContain(escapeHtml(destination));
  for (const threat of threats) expect(res.body).toContain(threat);
  expect(res.body).toMatch(/harmful|unsafe/i);
}

function expectRedirect(res: LightMyRequestResponse, location: string): void {
  expect(res.statusCode, res.body).toBe(302);
  expect(res.headers.location).toBe(location);
}

// ---------------------------------------------------------------------------------------------------------------

describe(`GET /api/link-scan/:short (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');
  const other = t.user('pro');
  const api = trustApi(t);

  it('answers the exact 2.10 shape without a key: a safe destination scores 100 `safe` from snip-local', async () => {
    const link = await api.create(pro, 'https://example.com/page');
    await t.core.trust.settle();
    const res = await api.scanRes(link.shortCode);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<TrustScore>();
    expect(body).toEqual({
      short: link.shortCode,
      destination: 'https://example.com/page',
      trustScore: 100,
      trustStatus: 'safe',
      threats: [],
      scannedAt: expect.any(String),
      source: 'snip-local',
      createdAt: Date.parse(link.created),
    });
    expect(Object.keys(body).sort()).toEqual(SCORE_KEYS);
    expect(typeof body.createdAt).toBe('number');
    expect(Number.isInteger(body.createdAt)).toBe(true);
    expectScanned(body, { status: 'safe', threats: [], trustScore: 100 });
    expect(Date.parse(body.scannedAt!)).toBeLessThanOrEqual(t.clock.now().getTime());
  });

  it('is public: the owner, another account and nobody all get the same score', async () => {
    const link = await api.create(pro, 'https://example.com/public');
    await t.core.trust.settle();
    const anonymous = await api.scan(link.shortCode);
    for (const caller of [pro, other]) {
      const res = await t.as(caller, { method: 'GET', url: `/api/link-scan/${link.shortCode}` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual(anonymous);
    }
  });

  it.each([
    ['an unknown code', 'Zz9Zz9'],
    ['a path that is no code', 'abc'],
    ['an unknown prefix%2Fslug', 'no-such-prefix/no-such-slug'],
    ['three path segments', 'a/b/c'],
  ])('answers 404 NOT_FOUND for %s', async (_label, short) => {
    expectError(await api.scanRes(short), 404, 'NOT_FOUND');
  });

  it('finds a namespaced link by its 6-character code and by the URL-encoded prefix%2Fslug', async () => {
    const link = await api.create(pro, 'https://example.com/custom-scan', { customSlug: 'Scan-Me' });
    expect(link.fullPath).toBe(`${pro.namespace}/Scan-Me`);
    await t.core.trust.settle();
    const byCode = await api.scan(link.shortCode);
    expect(byCode).toMatchObject({ short: link.shortCode, destination: 'https://example.com/custom-scan', createdAt: Date.parse(link.created) });
    expectScanned(byCode, { status: 'safe', threats: [], trustScore: 100 });
    const raw = await t.app.inject({ method: 'GET', url: `/api/link-scan/${pro.namespace}%2FScan-Me` });
    expect(raw.statusCode, raw.body).toBe(200);
    expect(raw.json()).toEqual(byCode);
    // The prefix is matched without regard to case, like the redirect.
    expect(await api.scan(`${pro.namespace!.toUpperCase()}/Scan-Me`)).toEqual(byCode);
    expectError(await api.scanRes(`${pro.namespace}/Scan-Other`), 404, 'NOT_FOUND');
  });

  it('scans links made in bulk too', async () => {
    const res = await t.as(pro, { method: 'POST', url: '/api/bulk', payload: { urls: [{ url: 'https://example.com/bulk-ok' }, { url: MALWARE_TEST_URL }] } });
    expect(res.statusCode, res.body).toBe(200);
    const [ok, bad] = res.json<{ results: { shortCode: string }[] }>().results;
    await t.core.trust.settle();
    expectScanned(await api.scan(ok!.shortCode), { status: 'safe', threats: [], trustScore: 100 });
    expectScanned(await api.scan(bad!.shortCode), { status: 'unsafe', threats: ['MALWARE'] });
  });

  it('forgets the score of a deleted link: 404 afterwards', async () => {
    const link = await api.create(pro, MALWARE_TEST_URL);
    await t.core.trust.settle();
    expectScanned(await api.scan(link.shortCode), { status: 'unsafe', threats: ['MALWARE'] });
    const res = await api.links.del(pro, link.shortCode);
    expect(res.statusCode, res.body).toBe(200);
    expectError(await api.scanRes(link.shortCode), 404, 'NOT_FOUND');
    await t.core.trust.settle();
    expectError(await api.scanRes(link.shortCode), 404, 'NOT_FOUND');
  });
});

describe(`the built-in threat list (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');
  const api = trustApi(t);

  it.each([
    // The standard Safe Browsing test pages.
    [MALWARE_TEST_URL, 'MALWARE'],
    [PHISHING_TEST_URL, 'SOCIAL_ENGINEERING'],
    // An http entry catches its https twin.
    ['https://malware.testing.google.test/testing/malware/', 'MALWARE'],
    ['https://testsafebrowsing.appspot.com/s/phishing.html', 'SOCIAL_ENGINEERING'],
    // A URL entry catches what lies below it, query included.
    ['http://malware.testing.google.test/testing/malware/sub/page.html?x=1', 'MALWARE'],
    ['https://testsafebrowsing.appspot.com/s/phishing.html?ref=mail', 'SOCIAL_ENGINEERING'],
    // Host names are matched without regard to case or a trailing dot.
    ['http://MALWARE.Testing.Google.test./testing/malware/', 'MALWARE'],
    // The other built-in entries.
    ['http://testsafebrowsing.appspot.com/s/malware.html', 'MALWARE'],
    ['http://testsafebrowsing.appspot.com/s/unwanted.html', 'UNWANTED_SOFTWARE'],
    ['http://testsafebrowsing.appspot.com/apiv4/ANY_PLATFORM/POTENTIALLY_HARMFUL_APPLICATION/URL/', 'POTENTIALLY_HARMFUL_APPLICATION'],
    ['https://testsafebrowsing.appspot.com/apiv4/ANY_PLATFORM/SOCIAL_ENGINEERING/URL/', 'SOCIAL_ENGINEERING'],
    ['https://secure.eicar.org/', 'MALWARE'],
    ['https://downloads.secure.eicar.org/eicar.com', 'MALWARE'],
    ['https://www.amtso.org/check-desktop-phishing-page/', 'MALWARE'],
  ])('%s is unsafe with threats [%s]', async (url, threat) => {
    const { link, score } = await api.scanned(pro, url);
    expect(score.short).toBe(link.shortCode);
    expect(score.destination).toBe(new URL(url).href);
    expectScanned(score, { status: 'unsafe', threats: [threat] });
  });

  it.each([
    // Above a listed URL, beside it, or a host that only looks like a listed one.
    'http://malware.testing.google.test/testing/',
    'https://testsafebrowsing.appspot.com/',
    'https://testsafebrowsing.appspot.com/s/',
    'https://notsecure.eicar.org/',
    'https://secure.eicar.org.example.com/',
    'https://www.amtso.org/',
  ])('%s is not on the list: 100 safe', async (url) => {
    expectScanned((await api.scanned(pro, url)).score, { status: 'safe', threats: [], trustScore: 100 });
  });

  // RFC 3986 6.2.2.2: a percent-encoded unreserved character is the same URL as the character itself, and every
  // web server serves both alike; writing the listed URL that way must not get it past the list.
  it.each([
    'http://malware.testing.google.test/testing/%6Dalware/',
    'http://testsafebrowsing.appspot.com/s/phishing%2Ehtml',
    'http://testsafebrowsing.appspot.com/%73/phishing.html',
  ])('%s (the listed URL, percent-encoded) is still unsafe', async (url) => {
    const { score } = await api.scanned(pro, url);
    expect(score.trustStatus, JSON.stringify(score)).toBe('unsafe');
    expect(score.threats.filter((x) => x === 'MALWARE' || x === 'SOCIAL_ENGINEERING')).toHaveLength(1);
  });

  it('a listed threat and a heuristic finding add up (and never below 0)', async () => {
    const { score } = await api.scanned(pro, `${MALWARE_TEST_URL}login`);
    expectScanned(score, { status: 'unsafe', threats: ['INSECURE_LOGIN_LURE', 'MALWARE'], trustScore: 0 });
  });
});

describe(`URL heuristics and the 2.10 bands (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');
  const api = trustApi(t);

  // Each finding takes a few points; one alone leaves a link safe or at warning, several make it unsafe.
  it.each<[string, string, 'safe' | 'warning' | 'unsafe', number, string[]]>([
    ['a raw IPv4 host', 'https://203.0.113.7/', 'warning', 75, ['IP_ADDRESS_HOST']],
    ['a raw IPv6 host', 'https://[2001:db8::1]/', 'warning', 75, ['IP_ADDRESS_HOST']],
    ['a punycode host', 'https://xn--pple-43d.com/', 'warning', 75, ['PUNYCODE_HOST']],
    ['an IDN host (punycode once parsed)', 'https://аpple.com/', 'warning', 75, ['PUNYCODE_HOST']],
    ['credentials', 'https://user:pw@example.com/', 'warning', 65, ['CREDENTIALS_IN_URL']],
    ['an http login lure', 'http://example.com/account/verify', 'warning', 75, ['INSECURE_LOGIN_LURE']],
    ['an unusual port', 'https://example.com:8443/', 'safe', 90, ['UNUSUAL_PORT']],
    ['deep subdomains', 'https://a.b.c.d.example.com/', 'safe', 90, ['DEEP_SUBDOMAINS']],
    ['another shortener', 'https://bit.ly/abc123', 'safe', 85, ['REDIRECT_CHAIN']],
    ['an overlong URL', `https://example.com/${'a'.repeat(2100)}`, 'safe', 90, ['OVERLONG_URL']],
    ['the same words over https', 'https://example.com/login?account=verify', 'safe', 100, []],
    // The band edges: 80 is still safe, 40 still a warning.
    ['deep subdomains on an unusual port (80)', 'https://a.b.c.d.example.com:8443/', 'safe', 80, ['DEEP_SUBDOMAINS', 'UNUSUAL_PORT']],
    ['a raw IP host with an http login lure', 'http://203.0.113.7/login', 'warning', 50, ['INSECURE_LOGIN_LURE', 'IP_ADDRESS_HOST']],
    ['a punycode host with an http login lure', 'http://xn--pple-43d.com/signin', 'warning', 50, ['INSECURE_LOGIN_LURE', 'PUNYCODE_HOST']],
    ['credentials with an http login lure (40)', 'http://user:pw@example.com/login', 'warning', 40, ['CREDENTIALS_IN_URL', 'INSECURE_LOGIN_LURE']],
    ['credentials, a punycode host and an unusual port', 'https://user:pw@xn--pple-43d.com:8443/', 'unsafe', 30, ['CREDENTIALS_IN_URL', 'PUNYCODE_HOST', 'UNUSUAL_PORT']],
    [
      'credentials, a raw IP host, an unusual port and an http login lure',
      'http://user:pw@203.0.113.7:8080/login',
      'unsafe',
      5,
      ['CREDENTIALS_IN_URL', 'INSECURE_LOGIN_LURE', 'IP_ADDRESS_HOST', 'UNUSUAL_PORT'],
    ],
  ])('%s (%s) scores %s', async (_label, url, status, trustScore, threats) => {
    const { score } = await api.scanned(pro, url);
    expect(score.destination).toBe(new URL(url).href);
    expectScanned(score, { status, threats, trustScore });
  });

  it('a heuristic warning still redirects; only `unsafe` gets the warning page', async () => {
    const { link, score } = await api.scanned(pro, 'http://203.0.113.7/login');
    expect(score.trustStatus).toBe('warning');
    expectRedirect(await api.visit(link.shortCode), 'http://203.0.113.7/login');
    const { link: bad, score: badScore } = await api.scanned(pro, 'http://user:pw@203.0.113.7:8080/login');
    expect(badScore.trustStatus).toBe('unsafe');
    expectWarningPage(await api.visit(bad.shortCode), 'http://user:pw@203.0.113.7:8080/login', badScore.threats);
  });
});

describe(`THREAT_LIST_FILE (${dialectName})`, () => {
  const extraList = path.join(import.meta.dirname, '..', 'fixtures', 'threat-list-extra.txt');
  const t = useTestApp({ THREAT_LIST_FILE: extraList });
  const pro = t.user('pro');
  const api = trustApi(t);

  it.each([
    // A host entry: the host and every subdomain, whatever the scheme.
    ['https://cdn.evil.example/x', 'MALWARE', 'unsafe'],
    ['https://evil.example/', 'MALWARE', 'unsafe'],
    ['http://deep.cdn.evil.example/file.zip', 'MALWARE', 'unsafe'],
    // A URL entry: that URL and below it, on either scheme.
    ['https://phish.example.net/login/', 'SOCIAL_ENGINEERING', 'unsafe'],
    ['https://phish.example.net/login/reset?user=1', 'SOCIAL_ENGINEERING', 'unsafe'],
    // An entry with a path but no scheme.
    ['https://bundles.example.org/download/setup.exe', 'UNWANTED_SOFTWARE', 'unsafe'],
    // The built-in list still applies next to the operator's.
    [MALWARE_TEST_URL, 'MALWARE', 'unsafe'],
  ])('%s is unsafe with [%s]', async (url, threat, status) => {
    expectScanned((await api.scanned(pro, url)).score, { status: status as 'unsafe', threats: [threat] });
  });

  it.each(['https://notevil.example/', 'https://evil.example.com/', 'https://phish.example.net/about', 'https://bundles.example.org/'])(
    '%s is not listed: 100 safe',
    async (url) => {
      expectScanned((await api.scanned(pro, url)).score, { status: 'safe', threats: [], trustScore: 100 });
    },
  );

  it('a redirect of a link to a listed subdomain shows the warning page', async () => {
    const { link } = await api.scanned(pro, 'https://cdn.evil.example/x');
    expectWarningPage(await api.visit(link.shortCode), 'https://cdn.evil.example/x', ['MALWARE']);
  });
});

describe('a THREAT_LIST_FILE that cannot be used stops the start', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-threat-lists-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };

  it('startApp rejects with a ConfigError naming THREAT_LIST_FILE, the file and the line', async () => {
    const file = write('bad-line.txt', '# fine so far\nMALWARE evil.example\nMALWARE\n');
    const start = startApp({ THREAT_LIST_FILE: file });
    await expect(start).rejects.toBeInstanceOf(ConfigError);
    await expect(start).rejects.toThrow(/THREAT_LIST_FILE/);
    await expect(start).rejects.toThrow(`${file}:3:`);
  });

  it.each([
    ['a type without a target', 'MALWARE\n'],
    ['a lower-case type', 'malware evil.example\n'],
    ['three fields', 'MALWARE evil.example extra\n'],
    ['a target that is no URL', 'MALWARE http://\n'],
    ['a target with a bad port', 'MALWARE evil.example:99999/x\n'],
  ])('loadConfig throws ConfigError(THREAT_LIST_FILE) for %s', (label, text) => {
    const file = write(`${label.replace(/\W+/g, '-')}.txt`, text);
    expect(() => loadConfig({ THREAT_LIST_FILE: file })).toThrow(ConfigError);
    expect(() => loadConfig({ THREAT_LIST_FILE: file })).toThrow(/THREAT_LIST_FILE/);
  });

  it('loadConfig throws ConfigError(THREAT_LIST_FILE) for a file that does not exist', () => {
    const missing = path.join(dir, 'missing.txt');
    expect(() => loadConfig({ THREAT_LIST_FILE: missing })).toThrow(ConfigError);
    expect(() => loadConfig({ THREAT_LIST_FILE: missing })).toThrow(/THREAT_LIST_FILE/);
  });

  it('accepts comments and blank lines, and keeps the file as an absolute path', () => {
    const file = write('ok.txt', '# comment\n\n   \nMALWARE evil.example\n  # indented comment\nSOCIAL_ENGINEERING https://phish.example/x\n');
    expect(loadConfig({ THREAT_LIST_FILE: file }).threatListFile).toBe(path.resolve(file));
  });
});

describe(`redirects of unsafe links (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');
  const api = trustApi(t);

  it('answer a 200 warning page with the escaped destination, no Location, and count no click', async () => {
    const url = `${MALWARE_TEST_URL}it's?a=1&b=<x>`;
    const { link, score } = await api.scanned(pro, url);
    expectScanned(score, { status: 'unsafe', threats: ['MALWARE'] });
    const destination = new URL(url).href;
    expect(destination).toContain("'");
    expect(destination).toContain('&');
    for (let i = 0; i < 3; i++) {
      const res = await api.visit(link.shortCode);
      expectWarningPage(res, destination, ['MALWARE']);
      expect(res.body).not.toContain(destination);
      expect(res.body).toContain("it&#39;s?a=1&amp;b=%3Cx%3E");
    }
    // A bot and a HEAD request get the page too, and nothing counts.
    expectWarningPage(await api.visit(link.shortCode, { userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }), destination, ['MALWARE']);
    expectHtml(await api.visit(link.shortCode, { method: 'HEAD' }), 200);
    expect(await api.clicksOf(pro, link.shortCode)).toBe(0);
  });

  it('the phishing test page names SOCIAL_ENGINEERING on its warning page', async () => {
    const { link } = await api.scanned(pro, PHISHING_TEST_URL);
    expectWarningPage(await api.visit(link.shortCode), PHISHING_TEST_URL, ['SOCIAL_ENGINEERING']);
    expect(await api.clicksOf(pro, link.shortCode)).toBe(0);
  });

  it('a namespaced unsafe link warns at /{prefix}/{slug} and at its code', async () => {
    const { link } = await api.scanned(pro, PHISHING_TEST_URL, { customSlug: 'Phish-Test' });
    expectWarningPage(await api.visit(link.fullPath!), PHISHING_TEST_URL, ['SOCIAL_ENGINEERING']);
    expectWarningPage(await api.visit(link.shortCode), PHISHING_TEST_URL, ['SOCIAL_ENGINEERING']);
    expect(await api.clicksOf(pro, link.shortCode)).toBe(0);
  });

  it('an unsafe capped link does not use up its clicks; re-pointed at a safe page it redirects with its whole cap', async () => {
    const { link } = await api.scanned(pro, MALWARE_TEST_URL, { maxClicks: 1 });
    // Its warning counts no click, so it names no destination and offers no way on (a one-time link stays unread).
    for (let i = 0; i < 3; i++) {
      const res = await api.visit(link.shortCode);
      expectHtml(res, 200);
      expect(res.body).toMatch(/harmful/i);
      expect(res.body).toContain('MALWARE');
      expect(res.body).not.toContain('malware.testing.google.test');
    }
    expect(await api.clicksOf(pro, link.shortCode)).toBe(0);
    await api.repoint(pro, link.shortCode, 'https://example.com/capped-fixed');
    await api.scanUntil(link.shortCode, (s) => s.trustStatus === 'safe');
    expectRedirect(await api.visit(link.shortCode), 'https://example.com/capped-fixed');
    expectHtml(await api.visit(link.shortCode), 410);
    expect(await api.clicksOf(pro, link.shortCode)).toBe(1);
  });

  it('a safe link still redirects 302 and counts its click', async () => {
    const { link, score } = await api.scanned(pro, 'https://example.com/fine');
    expectScanned(score, { status: 'safe', threats: [], trustScore: 100 });
    expectRedirect(await api.visit(link.shortCode), 'https://example.com/fine');
    expect(await api.clicksOf(pro, link.shortCode)).toBe(1);
  });

  it('re-pointing a safe link at the malware test page rescans it; its redirect (cached) turns into the warning page', async () => {
    const { link, score: before } = await api.scanned(pro, 'https://example.com/soon-bad');
    expectScanned(before, { status: 'safe', threats: [], trustScore: 100 });
    expectRedirect(await api.visit(link.shortCode), 'https://example.com/soon-bad');
    expectRedirect(await api.visit(link.shortCode), 'https://example.com/soon-bad');

    await api.repoint(pro, link.shortCode, MALWARE_TEST_URL);
    const after = await api.scanUntil(link.shortCode, (s) => s.trustStatus === 'unsafe');
    expect(after.destination).toBe(MALWARE_TEST_URL);
    expectScanned(after, { status: 'unsafe', threats: ['MALWARE'] });
    expect(Date.parse(after.scannedAt!)).toBeGreaterThanOrEqual(Date.parse(before.scannedAt!));
    for (let i = 0; i < 2; i++) expectWarningPage(await api.visit(link.shortCode), MALWARE_TEST_URL, ['MALWARE']);
    expect(await api.clicksOf(pro, link.shortCode)).toBe(2);

    // And back: a safe destination redirects again once rescanned.
    await api.repoint(pro, link.shortCode, 'https://example.com/good-again');
    expectScanned(await api.scanUntil(link.shortCode, (s) => s.destination === 'https://example.com/good-again' && s.trustStatus === 'safe'), {
      status: 'safe',
      threats: [],
      trustScore: 100,
    });
    expectRedirect(await api.visit(link.shortCode), 'https://example.com/good-again');
    expect(await api.clicksOf(pro, link.shortCode)).toBe(3);
  });

  it('a change that keeps the destination does not rescan', async () => {
    const { link, score } = await api.scanned(pro, 'https://example.com/keep');
    t.clock.advance(5_000);
    const res = await api.links.patch(pro, link.shortCode, { maxClicks: 10, url: 'https://example.com/keep' });
    expect(res.statusCode, res.body).toBe(200);
    await t.core.trust.settle();
    // The same scan; only the destination is withheld now that the link has a click cap.
    expect(await api.scan(link.shortCode)).toEqual({ ...score, destination: null });
  });

  it('deleting an unsafe link: its warning page gives way to the 404 page, its score to 404', async () => {
    const { link } = await api.scanned(pro, MALWARE_TEST_URL);
    expectWarningPage(await api.visit(link.shortCode), MALWARE_TEST_URL, ['MALWARE']);
    expect((await api.links.del(pro, link.shortCode)).statusCode).toBe(200);
    expectHtml(await api.visit(link.shortCode), 404);
    expectError(await api.scanRes(link.shortCode), 404, 'NOT_FOUND');
  });
});

describe(`the + preview page (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');
  const api = trustApi(t);

  /** The checks every preview passes: a phone-readable HTML page about `link`, with its QR code. */
  function expectPreview(res: LightMyRequestResponse, link: CreatedLinkA, destination: string, label: string): void {
    expectHtml(res, 200);
    expect(res.body).toMatch(/<meta name="viewport" content="width=device-width[^"]*"/);
    expect(res.body).toContain(escapeHtml(destination));
    expect(res.body).toContain(label);
    expect(res.body).toContain(`datetime="${new Date(Date.parse(link.created)).toISOString()}"`);
    const img = /<img\b[^>]*\bsrc="([^"]*)"/.exec(res.body);
    expect(img, 'an <img> with a src').not.toBeNull();
    expect(img![1]).toMatch(new RegExp(`^/api/qr/${link.shortCode}(\\?|$)`));
    expect(res.body).not.toMatch(/<script/i);
  }

  it('GET /{code}+ shows destination, status, creation date and QR code; it neither redirects nor counts', async () => {
    const { link, score } = await api.scanned(pro, 'https://example.com/preview-me');
    expectScanned(score, { status: 'safe', threats: [], trustScore: 100 });
    for (let i = 0; i < 3; i++) {
      const res = await api.visit(`${link.shortCode}+`);
      expectPreview(res, link, 'https://example.com/preview-me', 'Safe');
      expect(res.body).toContain('100');
    }
    expect(await api.clicksOf(pro, link.shortCode)).toBe(0);
    // The link itself still redirects.
    expectRedirect(await api.visit(link.shortCode), 'https://example.com/preview-me');
    expect(await api.clicksOf(pro, link.shortCode)).toBe(1);
  });

  it('GET /{prefix}/{slug}+ previews a namespaced link', async () => {
    const { link } = await api.scanned(pro, 'https://example.com/ns-preview', { customSlug: 'Peek-At-Me' });
    const res = await api.visit(`${link.fullPath}+`);
    expectPreview(res, link, 'https://example.com/ns-preview', 'Safe');
    // The upper-case prefix names the same link, like the redirect.
    expectPreview(await api.visit(`${pro.namespace!.toUpperCase()}/Peek-At-Me+`), link, 'https://example.com/ns-preview', 'Safe');
    expect(await api.clicksOf(pro, link.shortCode)).toBe(0);
  });

  it.each([
    ["<script> in the query", 'https://example.com/?q=%3Cscript%3Ealert(1)%3C/script%3E'],
    ['quotes in the query', 'https://example.com/?a="b"'],
    ['an apostrophe and ampersands', "https://example.com/it's?a=1&b=2&c='x'"],
    ['a raw <script> as typed', 'https://example.com/?q=<script>alert(1)</script>'],
  ])('escapes the destination (%s)', async (_label, url) => {
    const { link } = await api.scanned(pro, url);
    const destination = new URL(url).href;
    const res = await api.visit(`${link.shortCode}+`);
    expectPreview(res, link, destination, 'Safe');
    // Every place the destination appears (text and the continue link's href) is escaped.
    if (escapeHtml(destination) !== destination) expect(res.body).not.toContain(destination);
    expect(res.body).not.toMatch(/<script/i);
    expect(res.body).not.toMatch(/href="[^"]*"b"/);
  });

  it('previews an unsafe link with its status and threats instead of the warning redirect', async () => {
    const { link } = await api.scanned(pro, MALWARE_TEST_URL);
    const res = await api.visit(`${link.shortCode}+`);
    expectPreview(res, link, MALWARE_TEST_URL, 'Unsafe');
    expect(res.body).toContain('MALWARE');
    const { link: warned } = await api.scanned(pro, 'http://203.0.113.7/login');
    expectPreview(await api.visit(`${warned.shortCode}+`), warned, 'http://203.0.113.7/login', 'Caution');
    expect(await api.clicksOf(pro, link.shortCode)).toBe(0);
    expect(await api.clicksOf(pro, warned.shortCode)).toBe(0);
  });

  it.each([
    ['an unknown code', 'Zz9Zz9+'],
    ['a path that is no code', 'abc+'],
    ['an unknown prefix/slug', 'no-such-prefix/no-such-slug+'],
    ['a bare +', 'some-prefix/+'],
  ])('answers the 404 HTML page for %s', async (_label, shortPath) => {
    const res = await api.visit(shortPath);
    expectHtml(res, 404);
    expect(res.body).toMatch(/not found/i);
  });

  it('a deleted link has no preview', async () => {
    const { link } = await api.scanned(pro, 'https://example.com/gone');
    expect((await api.links.del(pro, link.shortCode)).statusCode).toBe(200);
    expectHtml(await api.visit(`${link.shortCode}+`), 404);
  });
});

describe(`a scheduled link is not public before it is active (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');
  const api = trustApi(t);

  // Like its redirect and its public statistics (docs/decisions.md §2.5), a link whose activeFrom lies ahead does
  // not show its destination to the public: no trust score and no preview until then.
  const scheduled = async (): Promise<CreatedLinkA> => {
    const link = await api.create(pro, 'https://example.com/secret-launch', { activeFrom: new Date(t.clock.now().getTime() + HOUR).toISOString() });
    await t.core.trust.settle();
    expectHtml(await api.visit(link.shortCode), 404);
    return link;
  };

  it('GET /api/link-scan/:short answers 404 until activeFrom, then the score', async () => {
    const link = await scheduled();
    expectError(await api.scanRes(link.shortCode), 404, 'NOT_FOUND');
    t.clock.advance(HOUR + 1_000);
    expectScanned(await api.scan(link.shortCode), { status: 'safe', threats: [], trustScore: 100 });
  });

  it('GET /{code}+ answers the 404 page until activeFrom, then the preview', async () => {
    const link = await scheduled();
    const preview = await api.visit(`${link.shortCode}+`);
    expectHtml(preview, 404);
    expect(preview.body).not.toContain('secret-launch');
    t.clock.advance(HOUR + 1_000);
    expectHtml(await api.visit(`${link.shortCode}+`), 200);
  });
});

describe(`Safe Browsing v4 against a local stub (${dialectName})`, () => {
  let stub: SafeBrowsingStub;
  beforeAll(async () => {
    stub = await SafeBrowsingStub.start();
  });
  afterAll(async () => stub.close());
  // The app's env is read in useTestApp's beforeAll, which runs after the stub's.
  const env: Record<string, string> = { SAFE_BROWSING_API_KEY: 'test-key' };
  beforeAll(() => {
    env.SAFE_BROWSING_URL = stub.origin;
  });
  const t = useTestApp(env);
  const pro = t.user('pro');
  const api = trustApi(t);
  beforeEach(() => stub.reset());

  it('POSTs /v4/threatMatches:find?key=test-key with the v4 JSON body naming the destination', async () => {
    const url = 'https://example.com/sb/request-shape?x=1';
    const { score } = await api.scanned(pro, url);
    const [lookup, ...more] = stub.lookupsOf(url);
    expect(more).toEqual([]);
    expect(lookup).toBeDefined();
    expect(lookup!.method).toBe('POST');
    expect(lookup!.path).toBe('/v4/threatMatches:find?key=test-key');
    expect(lookup!.headers['content-type']).toMatch(/^application\/json/);
    expect(lookup!.body.threatInfo.threatEntries).toEqual([{ url }]);
    expect(lookup!.body.threatInfo.threatEntryTypes).toEqual(['URL']);
    expect(lookup!.body.threatInfo.platformTypes).toEqual(['ANY_PLATFORM']);
    expect(lookup!.body.threatInfo.threatTypes).toEqual(expect.arrayContaining(['MALWARE', 'SOCIAL_ENGINEERING', 'UNWANTED_SOFTWARE', 'POTENTIALLY_HARMFUL_APPLICATION']));
    expect(lookup!.body.client?.clientId).toEqual(expect.any(String));
    expectScanned(score, { status: 'safe', threats: [], trustScore: 100, source: 'google-safe-browsing,snip-local' });
  });

  it('a SOCIAL_ENGINEERING match makes the link unsafe, source naming google-safe-browsing', async () => {
    const url = 'https://example.com/sb/phished';
    stub.answer = (lookup) => (lookup.url === url ? match('SOCIAL_ENGINEERING', url) : NO_MATCH);
    const { link, score } = await api.scanned(pro, url);
    expectScanned(score, { status: 'unsafe', threats: ['SOCIAL_ENGINEERING'], source: 'google-safe-browsing,snip-local' });
    expect(score.source!.split(',')).toContain('google-safe-browsing');
    expectWarningPage(await api.visit(link.shortCode), url, ['SOCIAL_ENGINEERING']);
    expect(await api.clicksOf(pro, link.shortCode)).toBe(0);
  });

  it('an empty answer ({}) leaves the link safe', async () => {
    const { link, score } = await api.scanned(pro, 'https://example.com/sb/clean');
    expectScanned(score, { status: 'safe', threats: [], trustScore: 100, source: 'google-safe-browsing,snip-local' });
    expect(stub.lookupsOf('https://example.com/sb/clean')).toHaveLength(1);
    expectRedirect(await api.visit(link.shortCode), 'https://example.com/sb/clean');
  });

  it.each([
    ['a 500', json({ error: { code: 500, message: 'backend error' } }, 500)],
    ['a 403 (bad key)', json({ error: { code: 403, message: 'API key not valid' } }, 403)],
    ['a body that is not JSON', { status: 200, body: '<html>proxy error</html>' }],
  ])('%s: the link is still scored, from local sources only (source snip-local)', async (_label, reply) => {
    stub.answer = () => reply;
    const { score } = await api.scanned(pro, `https://example.com/sb/outage-${reply.status}-${reply.body.length}`);
    expectScanned(score, { status: 'safe', threats: [], trustScore: 100, source: 'snip-local' });
    const { score: listed } = await api.scanned(pro, MALWARE_TEST_URL);
    expectScanned(listed, { status: 'unsafe', threats: ['MALWARE'], source: 'snip-local' });
  });

  it('a remote match and a local one for the same threat are one threat', async () => {
    stub.answer = (lookup) => match('MALWARE', lookup.url);
    const { score } = await api.scanned(pro, `${MALWARE_TEST_URL}both`);
    expectScanned(score, { status: 'unsafe', threats: ['MALWARE'], source: 'google-safe-browsing,snip-local' });
  });

  it('before its scan completes a link has a null score; it redirects meanwhile, and warns once scanned unsafe', async () => {
    const url = 'https://example.com/sb/held';
    stub.answer = () => 'hold';
    const link = await api.create(pro, url);
    await waitFor('the held lookup', () => stub.heldUrls(), (urls) => urls.includes(url));

    const pending = await api.scan(link.shortCode);
    expect(pending).toEqual({
      short: link.shortCode,
      destination: url,
      trustScore: null,
      trustStatus: null,
      threats: [],
      scannedAt: null,
      source: null,
      createdAt: Date.parse(link.created),
    });
    const preview = await api.visit(`${link.shortCode}+`);
    expectHtml(preview, 200);
    expect(preview.body).toContain('Not scanned yet');
    expect(preview.body).not.toMatch(/trust score \d/);
    // Not known to be unsafe yet: the redirect goes ahead (and is cached).
    expectRedirect(await api.visit(link.shortCode), url);
    expect(await api.scan(link.shortCode)).toEqual(pending);

    // settle() waits for the held scan.
    let settled = false;
    const settling = t.core.trust.settle().then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    expect(stub.release(() => match('SOCIAL_ENGINEERING', url))).toBe(1);
    await settling;
    expectScanned(await api.scan(link.shortCode), { status: 'unsafe', threats: ['SOCIAL_ENGINEERING'], source: 'google-safe-browsing,snip-local' });
    // The redirect cached while the scan ran is dropped when it lands.
    expectWarningPage(await api.visit(link.shortCode), url, ['SOCIAL_ENGINEERING']);
    expect(await api.clicksOf(pro, link.shortCode)).toBe(1);
  });

  it('a re-pointed link drops its old score at once; the cached redirect turns into the warning page when the rescan lands', async () => {
    const first = 'https://example.com/sb/first';
    const second = 'https://example.com/sb/second';
    const { link, score } = await api.scanned(pro, first);
    expectScanned(score, { status: 'safe', threats: [], trustScore: 100, source: 'google-safe-browsing,snip-local' });

    stub.answer = () => 'hold';
    await api.repoint(pro, link.shortCode, second);
    // The old score belonged to the old destination.
    const pending = await api.scan(link.shortCode);
    expect(pending.destination).toBe(second);
    expectUnscanned(pending);
    await waitFor('the rescan lookup', () => stub.heldUrls(), (urls) => urls.includes(second));
    expectUnscanned(await api.scan(link.shortCode));
    expectRedirect(await api.visit(link.shortCode), second);

    stub.release(() => match('MALWARE', second));
    const after = await api.scanUntil(link.shortCode, (s) => s.scannedAt !== null);
    expectScanned(after, { status: 'unsafe', threats: ['MALWARE'], source: 'google-safe-browsing,snip-local' });
    expectWarningPage(await api.visit(link.shortCode), second, ['MALWARE']);
    expect(stub.lookupsOf(second)).toHaveLength(1);
  });

  it('a destination changed while its scan runs is scored for the new destination only', async () => {
    const first = 'https://example.com/sb/race-first';
    const second = 'https://example.com/sb/race-second';
    stub.answer = () => 'hold';
    const link = await api.create(pro, first);
    await waitFor('the first lookup', () => stub.heldUrls(), (urls) => urls.includes(first));
    await api.repoint(pro, link.shortCode, second);
    await waitFor('the second lookup', () => stub.heldUrls(), (urls) => urls.includes(second));
    // The old destination is flagged, the new one is clean: the late verdict on the old one must not stick.
    stub.release((lookup) => (lookup.url === first ? match('MALWARE', first) : NO_MATCH));
    await t.core.trust.settle();
    const score = await api.scanUntil(link.shortCode, (s) => s.scannedAt !== null);
    expect(score.destination).toBe(second);
    expectScanned(score, { status: 'safe', threats: [], trustScore: 100, source: 'google-safe-browsing,snip-local' });
    expectRedirect(await api.visit(link.shortCode), second);
  });
});

describe(`scans owed when an app stops are made by the next app on the database (${dialectName})`, () => {
  let stub: SafeBrowsingStub;
  beforeAll(async () => {
    stub = await SafeBrowsingStub.start();
  });
  afterAll(async () => stub.close());

  it('links created or re-pointed while lookups were held are scanned after a restart', async () => {
    const shared = await sharedDatabase();
    const env = { ...shared.env, SAFE_BROWSING_API_KEY: 'test-key', SAFE_BROWSING_URL: stub.origin };
    const urls = [1, 2, 3, 4, 5].map((i) => `https://example.com/restart/${i}`);
    const moved = 'https://example.com/restart/0-moved';
    const codes: string[] = [];
    let movedCode!: string;
    try {
      const first = await startApp(env);
      try {
        const user = await first.createUser('pro');
        const api = trustApi(first);
        // One link scanned in full, then re-pointed while the scanner is busy.
        const { link: early, score: earlyScore } = await api.scanned(user, 'https://example.com/restart/0');
        expectScanned(earlyScore, { status: 'safe', threats: [], trustScore: 100, source: 'google-safe-browsing,snip-local' });
        movedCode = early.shortCode;

        stub.answer = () => 'hold';
        for (const url of urls) codes.push((await api.create(user, url)).shortCode);
        // Four scans run at a time: four lookups are held, the fifth link waits in the queue.
        const held = await waitFor('four held lookups', () => stub.heldUrls(), (h) => h.length >= 4);
        expect(held.sort()).toEqual(urls.slice(0, 4).sort());
        await api.repoint(user, movedCode, moved);
        await api.scanUntil(movedCode, (s) => s.destination === moved && s.scannedAt === null, 'the reset of the re-pointed link');
        for (const code of codes) expectUnscanned(await api.scan(code));
        expect(stub.lookupsOf(urls[4]!)).toEqual([]);
        expect(stub.lookupsOf(moved)).toEqual([]);
      } finally {
        // Stopping waits for the four running scans (their held lookups time out, so they are scored locally);
        // the queued ones are left owed in the database.
        await first.close();
      }
      stub.release();
      const lookupsBefore = stub.lookups.length;
      stub.answer = (lookup) => (lookup.url === urls[4] ? match('SOCIAL_ENGINEERING', urls[4]) : NO_MATCH);

      const second = await startApp(env);
      try {
        const api = trustApi(second);
        await second.core.trust.settle();
        await waitFor('the owed scans', () => stub.lookups.length - lookupsBefore, (n) => n >= 2);
        await second.core.trust.settle();
        expect(stub.lookups.slice(lookupsBefore).map((l) => l.url).sort()).toEqual([moved, urls[4]].sort());

        for (const code of codes.slice(0, 4)) expectScanned(await api.scan(code), { status: 'safe', threats: [], trustScore: 100, source: 'snip-local' });
        const owed = await api.scan(codes[4]!);
        expectScanned(owed, { status: 'unsafe', threats: ['SOCIAL_ENGINEERING'], source: 'google-safe-browsing,snip-local' });
        expectWarningPage(await api.visit(codes[4]!), urls[4]!, ['SOCIAL_ENGINEERING']);
        const repointed = await api.scan(movedCode);
        expect(repointed.destination).toBe(moved);
        expectScanned(repointed, { status: 'safe', threats: [], trustScore: 100, source: 'google-safe-browsing,snip-local' });
      } finally {
        await second.close();
      }
    } finally {
      stub.reset();
      await shared.cleanup();
    }
  });
});

describe(`links the CLI imports while a server runs on the same database (${dialectName})`, () => {
  let stub: SafeBrowsingStub;
  beforeAll(async () => {
    stub = await SafeBrowsingStub.start();
  });
  afterAll(async () => stub.close());

  // "Every new link is scanned": a `links import` run exits when its rows are in, with most of its scans still
  // queued; the running server must still score those links (not only after its next restart).
  it('get their trust scores', { timeout: 90_000 }, async () => {
    const shared = await sharedDatabase();
    const env = { ...shared.env, SAFE_BROWSING_API_KEY: 'test-key', SAFE_BROWSING_URL: stub.origin };
    // A remote service that takes a moment per lookup, as the real one does.
    stub.answer = () => ({ ...NO_MATCH, delayMs: 100 });
    const urls = Array.from({ length: 12 }, (_, i) => `https://example.com/cli-import/${i}`);
    const file = path.join(shared.env.DATA_DIR!, 'import.csv');
    fs.writeFileSync(file, `url\n${urls.join('\n')}\n`);
    const server = await startApp(env);
    try {
      const user = await server.createUser('pro');
      const result = await runCli(['links', 'import', '--email', user.email, file], { ...env, LOG_LEVEL: 'silent' });
      expect(result.code, result.stderr).toBe(0);
      expect(oneJsonLine(result.stdout)).toMatchObject({ imported: urls.length, failed: 0 });

      const api = trustApi(server);
      const links = (await api.links.page(user, '?limit=100')).links;
      expect(links.map((l) => l.long).sort()).toEqual([...urls].sort());
      const scores = await waitFor(
        'scores for every imported link',
        () => Promise.all(links.map((l) => api.scan(l.shortCode))),
        (all) => all.every((s) => s.scannedAt !== null),
        20_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message.slice(0, 300)}... (${stub.lookups.length} lookups made)`);
      });
      for (const score of scores) expectScanned(score, { status: 'safe', threats: [], trustScore: 100, source: 'google-safe-browsing,snip-local' });
    } finally {
      await server.close();
      stub.reset();
      await shared.cleanup();
    }
  });
});
