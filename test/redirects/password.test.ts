import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectName, useTestApp } from '../helpers/app.js';
import { connectClient, listenMcp, ok } from '../helpers/mcp.js';
import { IP, PREVIEW_BOTS, UA, visitors } from './routing-visitors.js';

/**
 * Password-protected links as a visitor meets them: the form (which shows nothing of where the link leads, to
 * bots and HEAD requests either), the form's POST, the pass cookie, the bound on wrong guesses, and reads that
 * say passwordProtected and never the password.
 */

const DEST = 'https://example.com/secret-destination';
const RULE_URL = 'https://example.com/secret-ios';
const VARIANT_URLS = ['https://example.com/secret-a', 'https://example.com/secret-b'];
const SECRETS = [DEST, RULE_URL, ...VARIANT_URLS, 'secret-'];
const PASSWORD = 'correct horse';

describe(`password-protected links (${dialectName})`, () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  const owner = t.user('pro');
  const { create, visit, clicks, details } = visitors(t, () => owner);
  let mcp: Client;

  beforeAll(async () => {
    mcp = await connectClient(await listenMcp(t), owner.apiKey);
  });
  afterAll(async () => {
    await mcp?.close();
  });

  const protectedLink = () =>
    create({
      url: DEST,
      password: PASSWORD,
      rules: [{ conditions: [{ type: 'device', value: 'ios' }], url: RULE_URL }],
      variants: [{ url: VARIANT_URLS[0], weight: 50 }, { url: VARIANT_URLS[1], weight: 50 }],
      socialPreview: { title: 'Secret preview title', image: 'https://example.com/secret-image.png' },
    });
  const submit = (code: string, password: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `/${code}`, headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': UA.windows, ...headers }, payload: new URLSearchParams({ password }).toString() });
  const leaks = (res: { headers: Record<string, unknown>; body: string }) => {
    const text = `${JSON.stringify(res.headers)}\n${res.body}`;
    return SECRETS.filter((s) => text.includes(s)).concat(text.includes('Secret preview') ? ['preview'] : []);
  };
  const passCookie = (res: { headers: Record<string, unknown> }) => {
    const raw = res.headers['set-cookie'];
    const cookie = (Array.isArray(raw) ? raw[0] : raw) as string | undefined;
    expect(cookie, 'a pass cookie').toBeDefined();
    expect(cookie).toMatch(/HttpOnly/i);
    return cookie!.split(';')[0]!;
  };

  it('shows a form with a Password field and nothing of the destinations, to people, bots and HEAD', async () => {
    const code = await protectedLink();
    const page = await visit(code);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers.location).toBeUndefined();
    expect(page.body).toMatch(/<form[^>]*method="post"/i);
    expect(page.body).toMatch(/name="password"/);
    expect(page.body).toMatch(/Password/);
    expect(leaks(page)).toEqual([]);
    for (const ua of [UA.iphone, ...Object.values(PREVIEW_BOTS), 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)']) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await visit(code, { ua, method });
        expect(res.statusCode, `${method} ${ua}`).toBe(200);
        expect(res.headers.location, `${method} ${ua}`).toBeUndefined();
        expect(leaks(res), `${method} ${ua}`).toEqual([]);
      }
    }
    expect(await clicks(code)).toBe(0);
  });

  it('a wrong password answers the form again; the right one redirects once, counted, with a pass for later visits', async () => {
    const code = await protectedLink();
    const wrong = await submit(code, 'not it');
    expect(wrong.statusCode).toBe(200);
    expect(wrong.body).toMatch(/name="password"/);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect(leaks(wrong)).toEqual([]);
    expect(await clicks(code)).toBe(0);

    const right = await submit(code, PASSWORD, { 'user-agent': UA.iphone });
    expect(right.statusCode).toBe(302);
    expect(right.headers.location).toBe(RULE_URL);
    const cookie = passCookie(right);
    expect(await clicks(code)).toBe(1);

    // The pass lets this browser through, routed as any visit; without it, the form.
    const again = await visit(code, { ua: UA.iphone, cookie });
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe(RULE_URL);
    const desk = await visit(code, { cookie, ip: '100.64.9.9' });
    expect(VARIANT_URLS).toContain(desk.headers.location);
    expect((await visit(code, { ua: UA.iphone })).statusCode).toBe(200);
    expect(await clicks(code)).toBe(3);
    // A pass for one link opens no other.
    const other = await protectedLink();
    expect((await visit(other, { cookie: cookie.replace(/^[^=]+/, `snip_pass_x`) })).statusCode).toBe(200);
    expect((await visit(other, { cookie })).statusCode).toBe(200);
    // A made-up pass is no pass.
    expect((await visit(code, { cookie: `${cookie.split('=')[0]}=forged` })).statusCode).toBe(200);
  });

  it('past 10 wrong passwords per address and link in 15 minutes: 429 with Retry-After, even for the right one', async () => {
    const code = await protectedLink();
    const attacker = { 'x-forwarded-for': '198.51.100.77' };
    for (let i = 0; i < 10; i++) expect((await submit(code, `guess-${i}`, attacker)).statusCode, `guess ${i}`).toBe(200);
    const refused = await submit(code, 'guess-10', attacker);
    expect(refused.statusCode).toBe(429);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    expect(leaks(refused)).toEqual([]);
    const rightButLate = await submit(code, PASSWORD, attacker);
    expect(rightButLate.statusCode).toBe(429);
    expect(rightButLate.headers.location).toBeUndefined();
    // Another address, or another link, is not held back.
    expect((await submit(code, PASSWORD, { 'x-forwarded-for': IP.FR })).statusCode).toBe(302);
    const other = await protectedLink();
    expect((await submit(other, 'nope', attacker)).statusCode).toBe(200);
    // After the window, the address may try again.
    t.clock.advance(15 * 60_000 + 1_000);
    const later = await submit(code, PASSWORD, attacker);
    expect(later.statusCode).toBe(302);
    expect(await clicks(code)).toBe(2);
  });

  it('a new password ends every pass; removing it opens the link', async () => {
    const code = await protectedLink();
    const cookie = passCookie(await submit(code, PASSWORD));
    expect((await visit(code, { cookie })).statusCode).toBe(302);
    const changed = await t.as(owner, { method: 'PATCH', url: `/api/v1/links/${code}`, payload: { password: 'another one' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await visit(code, { cookie })).statusCode).toBe(200);
    expect((await submit(code, PASSWORD)).statusCode).toBe(200);
    expect((await submit(code, 'another one')).statusCode).toBe(302);
    const removed = await t.as(owner, { method: 'PATCH', url: `/api/links/${code}`, payload: { password: null } });
    expect(removed.statusCode, removed.body).toBe(200);
    const open = await visit(code, { ua: UA.iphone });
    expect(open.statusCode).toBe(302);
    expect(open.headers.location).toBe(RULE_URL);
  });

  it('reads say passwordProtected and never show the password, on every surface', async () => {
    const created = await t.as(owner, { method: 'POST', url: '/api/v1/links', payload: { url: DEST, password: PASSWORD } });
    expect(created.statusCode, created.body).toBe(201);
    const code = created.json<{ shortCode: string }>().shortCode;
    const bodies = [
      created.body,
      (await t.as(owner, { method: 'GET', url: `/api/v1/links/${code}` })).body,
      (await t.as(owner, { method: 'GET', url: `/api/links/${code}` })).body,
      (await t.as(owner, { method: 'GET', url: '/api/v1/links?limit=100' })).body,
      (await t.as(owner, { method: 'GET', url: '/api/links?limit=100' })).body,
      JSON.stringify(await ok(mcp, 'get_link', { shortPath: code })),
    ];
    for (const body of bodies) {
      expect(body).not.toContain(PASSWORD);
      expect(body).not.toMatch(/"password(Hash)?"\s*:/);
      expect(body).toMatch(/"passwordProtected"\s*:\s*true/);
    }
    const made = await ok<{ shortCode: string; passwordProtected: boolean }>(mcp, 'shorten_url', { url: DEST, password: PASSWORD });
    expect(made.passwordProtected).toBe(true);
    expect(JSON.stringify(made)).not.toContain(PASSWORD);
    expect((await visit(made.shortCode)).statusCode).toBe(200);
    const cleared = await ok<{ passwordProtected: boolean }>(mcp, 'update_link', { shortPath: made.shortCode, password: null });
    expect(cleared.passwordProtected).toBe(false);
    expect((await details(made.shortCode)).passwordProtected).toBe(false);
    expect((await visit(made.shortCode)).statusCode).toBe(302);
  });
});
