import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/api-errors.js';
import { dialectName, useTestApp, type TestUser } from '../helpers/app.js';
import { Clients, listenMcp, ok, refused } from '../helpers/mcp.js';

/**
 * Web2app (issue 18): links with app targets send iPhone and Android visitors to the app with the store as
 * fallback, each click opening a session the installed app claims once (deferred deep linking).
 */

const UA = {
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  desktop: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  bot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
};

const APP_LINKS = {
  ios: { deepLink: 'myapp://product/42', storeUrl: 'https://apps.apple.com/app/id123456' },
  android: { deepLink: 'https://app.example.com/p/42', storeUrl: 'https://play.google.com/store/apps/details?id=com.example.app', package: 'com.example.app' },
};

interface LinkA {
  shortCode: string;
  appLinks: unknown;
}

describe(`web2app (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('pro');
  const stranger = t.user('pro');
  const clients = new Clients(() => url);
  let url: URL;
  let ownerMcp: Client;
  let link: LinkA;

  beforeAll(async () => {
    url = await listenMcp(t);
    ownerMcp = await clients.for(owner);
    const res = await t.as(owner, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://shop.example.com/p/42?utm_source=snip&color=red', appLinks: APP_LINKS } });
    expect(res.statusCode, res.body).toBe(201);
    link = res.json<LinkA>();
  });
  afterAll(() => clients.closeAll());

  const visit = (ua: string, query = '') => t.app.inject({ method: 'GET', url: `/${link.shortCode}${query}`, headers: { 'user-agent': ua } });
  const claim = (id: string, surface: 'A' | 'B' = 'A') => t.app.inject({ method: 'POST', url: `${surface === 'A' ? '/api/v1' : '/api'}/web2app/sessions/${encodeURIComponent(id)}/claim` });
  /** The session id the app page hands the deep link and the store URL. */
  const sessionOf = (res: LightMyRequestResponse) => {
    const ids = [...res.body.matchAll(/snip_sid=(w2a_[A-Za-z0-9]{32})/g)].map((m) => m[1]);
    expect(ids.length, res.body).toBe(2);
    expect(ids[0]).toBe(ids[1]);
    return ids[0]!;
  };

  it('a link echoes its app targets on A, B and MCP; PATCH replaces them and null removes them', async () => {
    expect(link.appLinks).toEqual(APP_LINKS);
    const b = await t.as(owner, { method: 'GET', url: `/api/links/${link.shortCode}` });
    expect(b.json()).toMatchObject({ appLinks: APP_LINKS });
    const made = await ok<LinkA>(ownerMcp, 'shorten_url', { url: 'https://e.com/x', appLinks: { ios: APP_LINKS.ios } });
    expect(made.appLinks).toEqual({ ios: APP_LINKS.ios });
    const cleared = await t.as(owner, { method: 'PATCH', url: `/api/v1/links/${made.shortCode}`, payload: { appLinks: null } });
    expect(cleared.json()).toMatchObject({ appLinks: null });
    const set = await t.as(owner, { method: 'PATCH', url: `/api/links/${made.shortCode}`, payload: { appLinks: { android: APP_LINKS.android } } });
    expect(set.json()).toMatchObject({ appLinks: { android: APP_LINKS.android } });
  });

  it('refuses deep links and store URLs a link destination could not have: INVALID_APP_LINKS, and nothing is made', async () => {
    const count = async () => (await t.as(owner, { method: 'GET', url: '/api/v1/links?limit=100' })).json<{ links: unknown[] }>().links.length;
    const before = await count();
    const bad = [
      { ios: { deepLink: 'javascript:alert(1)', storeUrl: 'https://apps.apple.com/app/id1' } },
      { ios: { deepLink: 'JavaScript:alert(1)', storeUrl: 'https://apps.apple.com/app/id1' } },
      { android: { deepLink: 'data:text/html,<script>alert(1)</script>', storeUrl: 'https://play.google.com/x' } },
      { ios: { deepLink: 'myapp://x', storeUrl: 'ftp://apps.example.com/app' } },
      { ios: { deepLink: 'myapp://x', storeUrl: 'http://snip.test/abcdef' } },
      { ios: { deepLink: 'myapp://x' } },
      { windows: { deepLink: 'myapp://x', storeUrl: 'https://e.com' } },
      { android: { deepLink: 'myapp://x', storeUrl: 'https://e.com', package: 'not a package' } },
      { ios: { deepLink: 'my app://x', storeUrl: 'https://e.com' } },
      'ios',
    ];
    for (const appLinks of bad) {
      expectError(await t.as(owner, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://e.com/', appLinks } }), 400, 'INVALID_APP_LINKS', JSON.stringify(appLinks));
      expectError(await t.as(owner, { method: 'POST', url: '/api/links', payload: { url: 'https://e.com/', appLinks } }), 400, 'INVALID_APP_LINKS', JSON.stringify(appLinks));
      expect((await refused(ownerMcp, 'shorten_url', { url: 'https://e.com/', appLinks }, 'INVALID_APP_LINKS')).error).toBe(true);
    }
    expectError(await t.as(owner, { method: 'PATCH', url: `/api/v1/links/${link.shortCode}`, payload: { appLinks: bad[0] } }), 400, 'INVALID_APP_LINKS');
    expect(await count()).toBe(before);
    expect((await t.as(owner, { method: 'GET', url: `/api/v1/links/${link.shortCode}` })).json()).toMatchObject({ appLinks: APP_LINKS });
  });

  it('an iPhone click gets a page that opens the app, then the store, both carrying one new session id', async () => {
    const res = await visit(UA.iphone);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    // The page runs exactly its one script: the policy names it by hash.
    expect(res.headers['content-security-policy']).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    const sid = sessionOf(res);
    expect(res.body).toContain(`href="myapp://product/42?snip_sid=${sid}"`);
    expect(res.body).toContain(`href="https://apps.apple.com/app/id123456?snip_sid=${sid}"`);
    expect(sessionOf(await visit(UA.iphone))).not.toBe(sid);
  });

  it('an Android click goes to its own target; desktop browsers and bots are redirected as before', async () => {
    const android = await visit(UA.android);
    const sid = sessionOf(android);
    expect(android.body).toContain(`href="https://app.example.com/p/42?snip_sid=${sid}"`);
    expect(android.body).toContain(`https://play.google.com/store/apps/details?id=com.example.app&amp;snip_sid=${sid}`);
    for (const ua of [UA.desktop, UA.bot]) {
      const res = await visit(ua);
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('https://shop.example.com/p/42?utm_source=snip&color=red');
    }
  });

  it('the app claims its session once, with the target and the link’s parameters; again is 409, unknown 404', async () => {
    const sid = sessionOf(await visit(UA.iphone, '?ref=tw&color=blue'));
    const first = await claim(sid);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ shortCode: link.shortCode, platform: 'ios', deepLink: 'myapp://product/42', params: { utm_source: 'snip', color: 'blue', ref: 'tw' } });
    expectError(await claim(sid), 409, 'WEB2APP_SESSION_CLAIMED');
    expectError(await claim(sid, 'B'), 409, 'WEB2APP_SESSION_CLAIMED');
    expectError(await claim('w2a_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'), 404, 'WEB2APP_SESSION_NOT_FOUND');
    expectError(await claim('nonsense'), 404, 'WEB2APP_SESSION_NOT_FOUND');
  });

  it('six concurrent claims of one session: exactly one succeeds', async () => {
    const sid = sessionOf(await visit(UA.android));
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => claim(sid, i % 2 ? 'A' : 'B')));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
  });

  it('a session unclaimed after 24 hours has expired: 404', async () => {
    const sid = sessionOf(await visit(UA.iphone));
    t.clock.advance(24 * 60 * 60 * 1000 + 1000);
    expectError(await claim(sid), 404, 'WEB2APP_SESSION_NOT_FOUND');
  });

  it('the owner can still read an expired session for a week; then the hourly sweep deletes it', async () => {
    const sid = sessionOf(await visit(UA.iphone));
    t.clock.advance(2 * 24 * 60 * 60 * 1000);
    expect(await t.core.web2app.sweep()).toBe(0);
    expect(await ok(ownerMcp, 'get_web2app_session', { sessionId: sid })).toMatchObject({ id: sid, claimed: false });
    t.clock.advance(7 * 24 * 60 * 60 * 1000);
    expect(await t.core.web2app.sweep()).toBeGreaterThan(0);
    await refused(ownerMcp, 'get_web2app_session', { sessionId: sid }, 'WEB2APP_SESSION_NOT_FOUND');
  });

  it('the owner reads a session over MCP and REST (Pro and above); anyone else gets 404', async () => {
    const sid = sessionOf(await visit(UA.iphone));
    const session = await ok(ownerMcp, 'get_web2app_session', { sessionId: sid });
    expect(session).toEqual({ id: sid, shortCode: link.shortCode, platform: 'ios', claimed: false, claimedAt: null, createdAt: expect.any(String), expiresAt: expect.any(String) });
    expect(Date.parse((session as { expiresAt: string }).expiresAt) - Date.parse((session as { createdAt: string }).createdAt)).toBe(24 * 60 * 60 * 1000);
    expect((await claim(sid)).statusCode).toBe(200);
    const read = (user: TestUser, surface: string) => t.as(user, { method: 'GET', url: `${surface}/web2app/sessions/${sid}` });
    expect((await read(owner, '/api/v1')).json()).toMatchObject({ id: sid, claimed: true });
    expect((await read(owner, '/api')).json()).toMatchObject({ id: sid, claimed: true });
    expectError(await read(stranger, '/api/v1'), 404, 'WEB2APP_SESSION_NOT_FOUND');
    await refused(await clients.for(stranger), 'get_web2app_session', { sessionId: sid }, 'WEB2APP_SESSION_NOT_FOUND');
  });
});
