import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dialectName, useTestApp, type BlockApp, type TestUser } from '../helpers/app.js';
import { startTxtServer, type TxtServer } from '../helpers/dns-txt.js';
import { BROWSER_UA } from '../helpers/user-agents.js';

/**
 * Issue 27: a redirect that said nothing about caching was kept by the browser (Chromium keeps a 301, a 308 and a 410
 * for ever), so later visits skipped Snip: they went uncounted, and an edited, expired or deleted link still led to its
 * old destination. Every answer of the redirect path now forbids storing it, whatever REDIRECT_STATUS is and whichever
 * path answers: the fast path (a real HTTP server, src/redirects/fast-path.ts) and the Fastify route, on Snip's host and
 * on a custom domain, for codes and namespaced paths, and for the pages answered instead of a redirect.
 */

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
/** On the built-in threat list (Google's test URL): its redirect is a warning page. */
const MALWARE_TEST_URL = 'http://malware.testing.google.test/testing/malware/';
const STATUSES = [301, 302, 303, 307, 308] as const;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
}

const agent = new http.Agent({ keepAlive: true });
afterAll(() => agent.destroy());

/** A request over real HTTP, where the fast path answers before Fastify. */
function call(port: number, path: string, options: { method?: 'GET' | 'HEAD'; host?: string; userAgent?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { host: options.host ?? 'snip.test', 'user-agent': options.userAgent ?? BROWSER_UA };
    const req = http.request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The answer may be kept by no cache: `no-store`, and nothing that would let a cache keep it anyway. */
function expectNotStored(headers: http.IncomingHttpHeaders | LightMyRequestResponse['headers'], what: string): void {
  const value = headers['cache-control'];
  expect(typeof value, `${what}: Cache-Control`).toBe('string');
  const directives = String(value)
    .split(',')
    .map((d) => d.trim().toLowerCase());
  expect(directives, what).toContain('no-store');
  expect(directives.filter((d) => d === 'public' || d.startsWith('max-age=') || d.startsWith('s-maxage=') || d === 'immutable'), what).toEqual([]);
}

const listen = async (t: BlockApp): Promise<number> => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as AddressInfo).port;
};

async function createLink(t: BlockApp, owner: TestUser, body: Record<string, unknown>): Promise<{ shortCode: string; fullPath?: string }> {
  const res = await t.as(owner, { method: 'POST', url: '/api/v1/links', payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe.each(STATUSES)(`a redirect with REDIRECT_STATUS=%i forbids caching, on the fast path and the route (${dialectName})`, (status) => {
  const t = useTestApp({ REDIRECT_STATUS: String(status) });
  const owner = t.user('pro');
  let port: number;
  beforeAll(async () => {
    port = await listen(t);
  });

  it('GET and HEAD of a code: the route, then the fast path, answer the status, the Location and no-store', async () => {
    const destination = `https://example.com/status-${status}`;
    const { shortCode } = await createLink(t, owner, { url: destination });
    // The new link's trust scan drops it from the cache when it ends: let it end first.
    await t.core.trust.settle();
    for (const method of ['GET', 'HEAD'] as const) {
      const routed = await t.app.inject({ method, url: `/${shortCode}`, headers: { host: 'snip.test', 'user-agent': BROWSER_UA } });
      expect(routed.statusCode, `${method} route`).toBe(status);
      expect(routed.headers.location).toBe(destination);
      expectNotStored(routed.headers, `${method} route`);
    }
    // The route's visit filled the redirect cache: from here the fast path answers, and the route is not reached.
    const visit = vi.spyOn(t.core.redirects, 'visit');
    try {
      for (const method of ['GET', 'HEAD'] as const) {
        const fast = await call(port, `/${shortCode}`, { method });
        expect(fast.status, `${method} fast path`).toBe(status);
        expect(fast.headers.location).toBe(destination);
        expectNotStored(fast.headers, `${method} fast path`);
      }
      expect(visit).not.toHaveBeenCalled();
    } finally {
      visit.mockRestore();
    }
  });

  it('GET and HEAD of a namespaced path /{prefix}/{slug}, over HTTP and through the route', async () => {
    const { fullPath } = await createLink(t, owner, { url: `https://example.com/ns-${status}`, customSlug: `cache-${status}` });
    await t.core.trust.settle();
    for (const method of ['GET', 'HEAD'] as const) {
      const over = await call(port, `/${fullPath}`, { method });
      expect(over.status, method).toBe(status);
      expectNotStored(over.headers, `${method} /${fullPath} over HTTP`);
      const routed = await t.app.inject({ method, url: `/${fullPath}`, headers: { 'user-agent': BROWSER_UA } });
      expect(routed.statusCode, method).toBe(status);
      expectNotStored(routed.headers, `${method} /${fullPath} routed`);
    }
  });
});

describe(`every answer of the redirect path forbids caching: domains, pages and misses (${dialectName})`, () => {
  let dns: TxtServer;
  beforeAll(async () => {
    dns = await startTxtServer();
  });
  afterAll(async () => {
    await dns?.close();
  });
  const t = useTestApp({
    REDIRECT_STATUS: '301',
    get DNS_RESOLVER() {
      return dns.resolver;
    },
  });
  const owner = t.user('enterprise');
  let port: number;
  let domain: string;
  beforeAll(async () => {
    port = await listen(t);
    domain = 'go.cache-brand.com';
    const added = await t.as(owner, { method: 'POST', url: '/api/user/domains', payload: { domain } });
    expect(added.statusCode, added.body).toBe(201);
    const { txtRecord } = added.json<{ txtRecord: { name: string; value: string } }>();
    dns.set(txtRecord.name, [txtRecord.value]);
    expect((await t.as(owner, { method: 'GET', url: `/api/user/domains/${domain}/verify` })).json()).toMatchObject({ verified: true });
    expect((await t.as(owner, { method: 'POST', url: `/api/user/domains/${domain}/activate` })).statusCode).toBe(200);
  });

  const visit = (url: string, options: { method?: 'GET' | 'HEAD'; host?: string; userAgent?: string } = {}) =>
    t.app.inject({ method: options.method ?? 'GET', url, headers: { host: options.host ?? 'snip.test', 'user-agent': options.userAgent ?? BROWSER_UA } });

  it("a custom domain's redirect, through the route and then the fast path", async () => {
    const { shortCode } = await createLink(t, owner, { url: 'https://example.com/on-domain', domain });
    await t.core.trust.settle();
    const routed = await visit(`/${shortCode}`, { host: domain });
    expect(routed.statusCode).toBe(301);
    expectNotStored(routed.headers, 'custom domain, route');
    const fast = await call(port, `/${shortCode}`, { host: domain });
    expect(fast.status).toBe(301);
    expect(fast.headers.location).toBe('https://example.com/on-domain');
    expectNotStored(fast.headers, 'custom domain, fast path');
  });

  it("a custom domain's not-found page, as a redirect (always 302) and as HTML (404)", async () => {
    const redirect = await t.as(owner, { method: 'PATCH', url: `/api/user/domains/${domain}`, payload: { notFoundPage: { type: 'redirect', redirectUrl: 'https://example.com/lost' } } });
    expect(redirect.statusCode, redirect.body).toBe(200);
    const lost = await visit('/zzzzzz', { host: domain });
    expect(lost.statusCode).toBe(302);
    expect(lost.headers.location).toBe('https://example.com/lost');
    expectNotStored(lost.headers, "domain's not-found redirect");
    const page = await t.as(owner, { method: 'PATCH', url: `/api/user/domains/${domain}`, payload: { notFoundPage: { type: 'html', html: '<p>Nothing here</p>' } } });
    expect(page.statusCode, page.body).toBe(200);
    const missing = await visit('/zzzzzz', { host: domain });
    expect(missing.statusCode).toBe(404);
    expectNotStored(missing.headers, "domain's not-found page");
  });

  it('the pages answered instead of a redirect: preview, warning, web2app, limited use', async () => {
    const plain = await createLink(t, owner, { url: 'https://example.com/plain' });
    const unsafe = await createLink(t, owner, { url: MALWARE_TEST_URL });
    const app = await createLink(t, owner, { url: 'https://shop.example.com/p/1', appLinks: { ios: { deepLink: 'myapp://p/1', storeUrl: 'https://apps.apple.com/app/id123456' } } });
    const capped = await createLink(t, owner, { url: 'https://example.com/capped', maxClicks: 5 });
    await t.core.trust.settle();
    const pages: Array<[string, LightMyRequestResponse]> = [
      ['preview', await visit(`/${plain.shortCode}+`)],
      ['warning page', await visit(`/${unsafe.shortCode}`)],
      ['web2app page', await visit(`/${app.shortCode}`, { userAgent: IPHONE })],
      ['limited-use page (bot)', await visit(`/${capped.shortCode}`, { userAgent: BOT })],
      ['limited-use page (HEAD)', await visit(`/${capped.shortCode}`, { method: 'HEAD' })],
    ];
    for (const [what, res] of pages) {
      expect(res.statusCode, what).toBe(200);
      expect(res.headers['content-type'], what).toMatch(/^text\/html/);
      expectNotStored(res.headers, what);
    }
    expect(pages[1]![1].body).toMatch(/harmful|unsafe/i);
  });

  it('404 for an unknown or not yet active link, 410 for an expired one, on codes and namespaced paths, GET and HEAD', async () => {
    const hour = 3_600_000;
    const later = await createLink(t, owner, { url: 'https://example.com/later', activeFrom: new Date(t.clock.now().getTime() + hour).toISOString() });
    const expiring = await createLink(t, owner, { url: 'https://example.com/soon', customSlug: 'soon-gone', expiresAt: new Date(t.clock.now().getTime() + 60_000).toISOString() });
    await t.core.trust.settle();
    // Visited once while it worked, so a browser would have had a 301 to keep.
    expect((await call(port, `/${expiring.shortCode}`)).status).toBe(301);
    t.clock.advance(61_000);
    const cases: Array<[string, number]> = [
      ['/zzzzzz', 404],
      [`/${owner.namespace}/no-such-slug`, 404],
      [`/${later.shortCode}`, 404],
      [`/${expiring.shortCode}`, 410],
      [`/${expiring.fullPath}`, 410],
    ];
    for (const [path, expected] of cases) {
      for (const method of ['GET', 'HEAD'] as const) {
        const over = await call(port, path, { method });
        expect(over.status, `${method} ${path}`).toBe(expected);
        expectNotStored(over.headers, `${method} ${path}`);
      }
    }
  });
});

describe(`a 429 on the redirect path forbids caching too (${dialectName})`, () => {
  const t = useTestApp({ PUBLIC_REQUESTS_PER_MINUTE: '2' });

  it('misses past the per-address budget answer 429 with Retry-After and no-store', async () => {
    t.clock.startWindow();
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await t.app.inject({ method: 'GET', url: `/zzzzz${i}`, headers: { 'user-agent': BROWSER_UA } }));
    expect(answers.map((a) => a.statusCode)).toEqual([404, 404, 429]);
    expect(answers[2]!.headers['retry-after']).toBeDefined();
    for (const answer of answers) expectNotStored(answer.headers, `${answer.statusCode}`);
  });
});

describe(`Snip's own redirects of / may be kept briefly, by the browser only (${dialectName})`, () => {
  const plain = useTestApp();
  const rooted = useTestApp({ ROOT_REDIRECT: 'https://example.org/about' });

  it('/ → /app and / → ROOT_REDIRECT: private, max-age of minutes at most', async () => {
    for (const [t, location] of [
      [plain, '/app'],
      [rooted, 'https://example.org/about'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(location);
      const directives = String(res.headers['cache-control']).split(',').map((d) => d.trim());
      expect(directives).toContain('private');
      const maxAge = Number(directives.find((d) => d.startsWith('max-age='))?.slice('max-age='.length));
      expect(maxAge).toBeGreaterThan(0);
      expect(maxAge).toBeLessThanOrEqual(600);
    }
  });
});
