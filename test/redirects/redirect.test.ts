import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { dialectName, useTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { expectError } from '../helpers/api-errors.js';
import { linkApi, LINKS_A, type CreatedLinkA, type LinkA } from '../helpers/links.js';

const HOUR = 3_600_000;

/**
 * Small helpers shared by every block, acting as `user`: create, change, delete and list links, visit them
 * anonymously, read their details.
 */
function helpers(t: TestApp, user: TestUser) {
  const api = linkApi<CreatedLinkA, LinkA>(t, LINKS_A);
  const createLink = (body: Record<string, unknown>): Promise<CreatedLinkA> => api.create(user, body);
  const visit = (path: string, method: 'GET' | 'HEAD' = 'GET'): Promise<LightMyRequestResponse> => t.app.inject({ method, url: path });
  const details = async (shortPath: string): Promise<LinkA> => {
    const res = await api.get(user, shortPath);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<LinkA>();
  };
  const patch = (shortPath: string, body: Record<string, unknown>): Promise<LightMyRequestResponse> => api.patch(user, shortPath, body);
  const remove = (shortPath: string): Promise<LightMyRequestResponse> => api.del(user, shortPath);
  const listAll = (): Promise<LinkA[]> => api.listAll(user);
  return { createLink, visit, details, patch, remove, listAll, inFuture: api.inFuture };
}

/** Asserts a visitor-facing miss: the given status, a small HTML page (no body for HEAD), no Location. */
function expectHtmlPage(res: LightMyRequestResponse, status: number): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.headers.location).toBeUndefined();
  if (res.raw.req.method === 'HEAD') expect(res.body).toBe('');
  else expect(res.body).toMatch(/<html/i);
}

function expectRedirect(res: LightMyRequestResponse, location: string, status = 302): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers.location).toBe(location);
}

describe(`redirects (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');
  const { createLink, visit, details, patch, remove, listAll, inFuture } = helpers(t, pro);

  describe('following a link', () => {
    it('GET /<code> answers 302 with Location = destination', async () => {
      const link = await createLink({ url: 'https://example.com/landing?utm=1#top' });
      expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/landing?utm=1#top');
    });

    it('HEAD /<code> answers 302 with the Location too, but does not count a click', async () => {
      const link = await createLink({ url: 'https://example.com/head' });
      for (let i = 0; i < 3; i++) expectRedirect(await visit(`/${link.shortCode}`, 'HEAD'), 'https://example.com/head');
      expect((await details(link.shortCode)).clicks).toBe(0);
      expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/head');
      expect((await details(link.shortCode)).clicks).toBe(1);
    });

    it('GET /<namespace>/<slug> answers 302, with the namespace part case-insensitive', async () => {
      const link = await createLink({ url: 'https://example.com/ns', customSlug: 'Launch-Day' });
      expect(link.fullPath).toBe(`${pro.namespace}/Launch-Day`);
      const ns = pro.namespace!;
      expectRedirect(await visit(`/${ns}/Launch-Day`), 'https://example.com/ns');
      expectRedirect(await visit(`/${ns.toUpperCase()}/Launch-Day`), 'https://example.com/ns');
      expectRedirect(await visit(`/${ns[0]!.toUpperCase()}${ns.slice(1)}/Launch-Day`), 'https://example.com/ns');
      expectRedirect(await visit(`/${ns.toUpperCase()}/Launch-Day`, 'HEAD'), 'https://example.com/ns');
      // The code of a namespaced link redirects as well.
      expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/ns');
      // All GETs above count on the one link, whichever path they used; the HEAD does not.
      expect((await details(link.shortCode)).clicks).toBe(4);
    });

    it('shows exactly N clicks in the link details after N GET redirects', async () => {
      const link = await createLink({ url: 'https://example.com/count' });
      expect((await details(link.shortCode)).clicks).toBe(0);
      const n = 7;
      for (let i = 0; i < n; i++) expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/count');
      expect((await details(link.shortCode)).clicks).toBe(n);
      // The list shows the same count.
      const listed = (await listAll()).find((l) => l.shortCode === link.shortCode);
      expect(listed?.clicks).toBe(n);
    });

    it('counts clicks on one link without touching another', async () => {
      const a = await createLink({ url: 'https://example.com/a' });
      const b = await createLink({ url: 'https://example.com/b' });
      for (let i = 0; i < 3; i++) await visit(`/${a.shortCode}`);
      await visit(`/${b.shortCode}`);
      expect((await details(a.shortCode)).clicks).toBe(3);
      expect((await details(b.shortCode)).clicks).toBe(1);
    });
  });

  describe('links that do not redirect', () => {
    it('an unknown code gets a 404 HTML page', async () => {
      expectHtmlPage(await visit('/Zz9Zz9'), 404);
      expectHtmlPage(await visit('/Zz9Zz9', 'HEAD'), 404);
      // Not a code at all, and an unknown namespaced path, are just as unknown.
      expectHtmlPage(await visit('/abc'), 404);
      expectHtmlPage(await visit(`/${pro.namespace}/no-such-slug`), 404);
      expectHtmlPage(await visit('/nobody-has-this/slug'), 404);
    });

    it('a link whose activeFrom lies ahead gets 404 until the clock passes activeFrom, then 302', async () => {
      const link = await createLink({ url: 'https://example.com/later', activeFrom: inFuture(HOUR) });
      expectHtmlPage(await visit(`/${link.shortCode}`), 404);
      expectHtmlPage(await visit(`/${link.shortCode}`, 'HEAD'), 404);
      t.clock.advance(HOUR - 60_000);
      expectHtmlPage(await visit(`/${link.shortCode}`), 404);
      t.clock.advance(61_000);
      expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/later');
      // Only the visit after activation counted.
      expect((await details(link.shortCode)).clicks).toBe(1);
    });

    it('a scheduled namespaced link also waits for activeFrom', async () => {
      const link = await createLink({ url: 'https://example.com/later-ns', customSlug: 'later-ns', activeFrom: inFuture(HOUR) });
      expectHtmlPage(await visit(`/${link.fullPath}`), 404);
      t.clock.advance(HOUR + 1000);
      expectRedirect(await visit(`/${link.fullPath}`), 'https://example.com/later-ns');
    });

    it('a link whose expiresAt is reached gets a 410 HTML page', async () => {
      const link = await createLink({ url: 'https://example.com/soon-gone', expiresAt: inFuture(HOUR) });
      expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/soon-gone');
      t.clock.advance(HOUR - 60_000);
      expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/soon-gone');
      t.clock.advance(60_000);
      expectHtmlPage(await visit(`/${link.shortCode}`), 410);
      expectHtmlPage(await visit(`/${link.shortCode}`, 'HEAD'), 410);
      // Visits to the expired link are not clicks.
      expect((await details(link.shortCode)).clicks).toBe(2);
    });

    it('a link that reached maxClicks gets a 410 HTML page', async () => {
      const link = await createLink({ url: 'https://example.com/capped', maxClicks: 3 });
      for (let i = 0; i < 3; i++) expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/capped');
      expectHtmlPage(await visit(`/${link.shortCode}`), 410);
      expectHtmlPage(await visit(`/${link.shortCode}`, 'HEAD'), 410);
      expectHtmlPage(await visit(`/${link.shortCode}`), 410);
      expect((await details(link.shortCode)).clicks).toBe(3);
    });

    it('HEAD neither uses up nor reveals a capped link: 200, no Location (test/security/one-time-links.test.ts)', async () => {
      const link = await createLink({ url: 'https://example.com/capped-head', maxClicks: 1 });
      for (let i = 0; i < 3; i++) expectHtmlPage(await visit(`/${link.shortCode}`, 'HEAD'), 200);
      expect((await details(link.shortCode)).clicks).toBe(0);
      expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/capped-head');
      expectHtmlPage(await visit(`/${link.shortCode}`, 'HEAD'), 410);
      expectHtmlPage(await visit(`/${link.shortCode}`), 410);
      expect((await details(link.shortCode)).clicks).toBe(1);
    });

    it('the click cap is shared by the code and the namespaced path', async () => {
      const link = await createLink({ url: 'https://example.com/capped-ns', customSlug: 'capped-ns', maxClicks: 2 });
      expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/capped-ns');
      expectRedirect(await visit(`/${link.fullPath}`), 'https://example.com/capped-ns');
      expectHtmlPage(await visit(`/${link.fullPath}`), 410);
      expectHtmlPage(await visit(`/${link.shortCode}`), 410);
      expect((await details(link.shortCode)).clicks).toBe(2);
    });
  });

  describe('changes take effect at once', () => {
    it('a deleted link stops redirecting at once, even after a redirect was cached', async () => {
      const link = await createLink({ url: 'https://example.com/doomed', customSlug: 'doomed' });
      expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/doomed');
      expectRedirect(await visit(`/${link.fullPath}`), 'https://example.com/doomed');
      const del = await remove(link.shortCode);
      expect(del.statusCode, del.body).toBe(200);
      expectHtmlPage(await visit(`/${link.shortCode}`), 404);
      expectHtmlPage(await visit(`/${link.fullPath}`), 404);
      expectHtmlPage(await visit(`/${link.shortCode}`, 'HEAD'), 404);
    });

    it('a path visited before its link existed redirects as soon as the link is created', async () => {
      const path = `/${pro.namespace}/not-yet`;
      expectHtmlPage(await visit(path), 404);
      expectHtmlPage(await visit(path), 404); // answered from the short-lived miss cache
      await createLink({ url: 'https://example.com/now-it-is', customSlug: 'not-yet' });
      expectRedirect(await visit(path), 'https://example.com/now-it-is');
    });

    it('a deleted capped link stops redirecting at once too', async () => {
      const link = await createLink({ url: 'https://example.com/doomed-capped', maxClicks: 10 });
      expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/doomed-capped');
      const del = await remove(link.shortCode);
      expect(del.statusCode, del.body).toBe(200);
      expectHtmlPage(await visit(`/${link.shortCode}`), 404);
    });

    it('PATCH url changes the Location at once, on the code and the namespaced path', async () => {
      const link = await createLink({ url: 'https://example.com/old', customSlug: 'moving' });
      expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/old');
      expectRedirect(await visit(`/${link.fullPath}`), 'https://example.com/old');
      expectRedirect(await visit(`/${link.namespace!.toUpperCase()}/moving`), 'https://example.com/old');
      const res = await patch(link.shortCode, { url: 'https://example.org/new' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<LinkA>().long).toBe('https://example.org/new');
      expectRedirect(await visit(`/${link.shortCode}`), 'https://example.org/new');
      expectRedirect(await visit(`/${link.fullPath}`), 'https://example.org/new');
      expectRedirect(await visit(`/${link.namespace!.toUpperCase()}/moving`), 'https://example.org/new');
    });

    it('raising maxClicks on an exhausted link makes it redirect again, up to the new cap', async () => {
      const link = await createLink({ url: 'https://example.com/more', maxClicks: 2 });
      expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/more');
      expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/more');
      expectHtmlPage(await visit(`/${link.shortCode}`), 410);
      expectHtmlPage(await visit(`/${link.shortCode}`), 410);

      const res = await patch(link.shortCode, { maxClicks: 4 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<LinkA>().maxClicks).toBe(4);
      expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/more');
      expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/more');
      expectHtmlPage(await visit(`/${link.shortCode}`), 410);
      expect((await details(link.shortCode)).clicks).toBe(4);

      // Removing the cap lets it redirect without limit.
      const uncapped = await patch(link.shortCode, { maxClicks: null });
      expect(uncapped.statusCode, uncapped.body).toBe(200);
      for (let i = 0; i < 3; i++) expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/more');
      expect((await details(link.shortCode)).clicks).toBe(7);
    });

    it('lowering maxClicks to the current count stops the link at once', async () => {
      const link = await createLink({ url: 'https://example.com/less', maxClicks: 10 });
      for (let i = 0; i < 3; i++) expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/less');
      const res = await patch(link.shortCode, { maxClicks: 3 });
      expect(res.statusCode, res.body).toBe(200);
      expectHtmlPage(await visit(`/${link.shortCode}`), 410);
    });

    it('moving expiresAt and activeFrom applies at once', async () => {
      const link = await createLink({ url: 'https://example.com/resched', expiresAt: inFuture(HOUR) });
      expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/resched');
      t.clock.advance(HOUR);
      expectHtmlPage(await visit(`/${link.shortCode}`), 410);
      const extend = await patch(link.shortCode, { expiresAt: inFuture(HOUR) });
      expect(extend.statusCode, extend.body).toBe(200);
      expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/resched');
      const postpone = await patch(link.shortCode, { activeFrom: inFuture(HOUR / 2) });
      expect(postpone.statusCode, postpone.body).toBe(200);
      expectHtmlPage(await visit(`/${link.shortCode}`), 404);
    });
  });

  describe('reserved first segments', () => {
    it.each(['/api/anything', '/mcp/x', '/API/Anything', '/api', '/api/v1/nothing-here'])(
      'GET %s answers the JSON 404 body, never a redirect page',
      async (url) => {
        const res = await t.app.inject({ method: 'GET', url });
        expectError(res, 404, 'NOT_FOUND');
        expect(res.headers['content-type']).toMatch(/^application\/json/);
      },
    );

    it('a link never shadows a reserved path, even with a slug that looks like an API word', async () => {
      // The account's slug "user" lives under its namespace; /api/user is still the API.
      const link = await createLink({ url: 'https://example.com/user', customSlug: 'user' });
      expectRedirect(await visit(`/${link.fullPath}`), 'https://example.com/user');
      const res = await t.as(pro, { method: 'GET', url: '/api/user' });
      expect(res.statusCode).toBe(200);
      expect(res.headers.location).toBeUndefined();
    });

    it('GET /healthz answers 200 {status: "ok"}', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/healthz' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
    });
  });
});

describe(`maxClicks under concurrency over real sockets (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');
  const { createLink, details, patch } = helpers(t, pro);
  let origin: string;

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address() as AddressInfo;
    origin = `http://127.0.0.1:${address.port}`;
  });

  /** Opens the sockets first (keep-alive), so the raced requests then arrive together rather than one by one. */
  const warmUp = async (n: number): Promise<void> => {
    const responses = await Promise.all(Array.from({ length: n }, () => fetch(`${origin}/healthz`)));
    for (const res of responses) {
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
  };

  const hitInParallel = async (paths: string[]): Promise<{ status: number; location: string | null }[]> => {
    await warmUp(paths.length);
    return Promise.all(
      paths.map(async (path) => {
        const res = await fetch(`${origin}${path}`, { redirect: 'manual' });
        await res.arrayBuffer();
        return { status: res.status, location: res.headers.get('location') };
      }),
    );
  };

  const tally = (results: { status: number }[]): Record<number, number> => {
    const counts: Record<number, number> = {};
    for (const { status } of results) counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  };

  it('a link with maxClicks 5 hit by 50 parallel GETs redirects exactly 5 times; the rest get 410', async () => {
    const link = await createLink({ url: 'https://example.com/race', maxClicks: 5 });
    const results = await hitInParallel(Array.from({ length: 50 }, () => `/${link.shortCode}`));
    expect(tally(results)).toEqual({ 302: 5, 410: 45 });
    for (const r of results.filter((r) => r.status === 302)) expect(r.location).toBe('https://example.com/race');
    expect((await details(link.shortCode)).clicks).toBe(5);
    // And it stays used up.
    const after = await hitInParallel([`/${link.shortCode}`]);
    expect(after[0]!.status).toBe(410);
  });

  it('the cap holds when the parallel visits mix the code and the namespaced path', async () => {
    const link = await createLink({ url: 'https://example.com/race-ns', customSlug: 'race-ns', maxClicks: 5 });
    const upper = `${link.namespace!.toUpperCase()}/race-ns`;
    const paths = Array.from({ length: 50 }, (_, i) => (i % 3 === 0 ? `/${link.shortCode}` : i % 3 === 1 ? `/${link.fullPath}` : `/${upper}`));
    const results = await hitInParallel(paths);
    expect(tally(results)).toEqual({ 302: 5, 410: 45 });
    expect((await details(link.shortCode)).clicks).toBe(5);
  });

  it('the cap holds after it is raised on an exhausted link and hit in parallel again', async () => {
    const link = await createLink({ url: 'https://example.com/race-again', maxClicks: 5 });
    expect(tally(await hitInParallel(Array.from({ length: 20 }, () => `/${link.shortCode}`)))).toEqual({ 302: 5, 410: 15 });
    const res = await patch(link.shortCode, { maxClicks: 8 });
    expect(res.statusCode, res.body).toBe(200);
    expect(tally(await hitInParallel(Array.from({ length: 30 }, () => `/${link.shortCode}`)))).toEqual({ 302: 3, 410: 27 });
    expect((await details(link.shortCode)).clicks).toBe(8);
  });

  it('an uncapped link hit by 50 parallel GETs redirects all 50 and counts exactly 50 clicks', async () => {
    const link = await createLink({ url: 'https://example.com/crowd' });
    const results = await hitInParallel(Array.from({ length: 50 }, () => `/${link.shortCode}`));
    expect(tally(results)).toEqual({ 302: 50 });
    expect((await details(link.shortCode)).clicks).toBe(50);
  });
});

describe(`REDIRECT_STATUS setting (${dialectName})`, () => {
  const t = useTestApp({ REDIRECT_STATUS: '301' });
  const { createLink, visit } = helpers(t, t.user('pro'));

  it('answers redirects with the configured status (301)', async () => {
    const link = await createLink({ url: 'https://example.com/permanent', customSlug: 'permanent' });
    expectRedirect(await visit(`/${link.shortCode}`), 'https://example.com/permanent', 301);
    expectRedirect(await visit(`/${link.shortCode}`, 'HEAD'), 'https://example.com/permanent', 301);
    expectRedirect(await visit(`/${link.fullPath}`), 'https://example.com/permanent', 301);
    // Misses keep their own statuses.
    expectHtmlPage(await visit('/Zz9Zz9'), 404);
  });
});
