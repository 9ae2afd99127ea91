import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dialectName, useTestApp, type BlockApp } from '../helpers/app.js';
import { BROWSER_UA } from '../helpers/user-agents.js';

/**
 * The redirect's fast path (src/redirects/fast-path.ts) answers cached redirects before Fastify routes them; it
 * only exists on a listening server, so these tests talk real HTTP. Whatever it answers must be exactly what the
 * Fastify route answers (app.inject never takes the fast path), and whatever it cannot answer goes the full way.
 */

const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const AGENT = 'Claude-User/1.0 (+https://www.anthropic.com)';
const VOLATILE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });

function call(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, agent, headers: { host: 'snip.test', 'user-agent': BROWSER_UA, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const stable = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).filter(([name]) => !VOLATILE.has(name)));

function suite(t: BlockApp, env: string) {
  const owner = t.user('pro');
  let port: number;
  const create = async (body: Record<string, unknown>) => {
    const res = await t.as(owner, { method: 'POST', url: '/api/v1/links', payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ shortCode: string }>().shortCode;
  };
  const clicks = async (code: string) => (await t.as(owner, { method: 'GET', url: `/api/v1/links/${code}` })).json<{ clicks: number }>().clicks;

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });

  it(`answers a cached redirect exactly as the Fastify route does (${env})`, async () => {
    const code = await create({ url: 'https://example.com/fast?x=1' });
    // The new link's trust scan ends by dropping it from the cache (link.scanned): let it finish first.
    await t.core.trust.settle();
    const first = await call(port, `/${code}`); // fills the cache (the full path)
    // From here the cached link is answered before Fastify: the route's `visit` is not reached.
    const visit = vi.spyOn(t.core.redirects, 'visit');
    const fast = await call(port, `/${code}?utm=a`);
    expect(visit).not.toHaveBeenCalled();
    visit.mockRestore();
    const routed = await t.app.inject({ method: 'GET', url: `/${code}`, headers: { host: 'snip.test', 'user-agent': BROWSER_UA } });
    for (const answer of [first, fast]) {
      expect(answer.status).toBe(302);
      expect(stable(answer.headers)).toEqual(stable(routed.headers));
      expect(answer.body).toBe('');
    }
    const head = await call(port, `/${code}`, {}, 'HEAD');
    expect(head.status).toBe(302);
    expect(head.headers.location).toBe('https://example.com/fast?x=1');
    expect(await clicks(code)).toBe(3);
  });

  it(`counts every answered click exactly once under 200 concurrent requests; bots, HEAD and agents as before (${env})`, async () => {
    const code = await create({ url: 'https://example.com/concurrent' });
    await call(port, `/${code}`, { 'user-agent': BOT });
    const answers = await Promise.all(Array.from({ length: 200 }, () => call(port, `/${code}`)));
    expect(answers.every((a) => a.status === 302 && a.headers.location === 'https://example.com/concurrent')).toBe(true);
    await Promise.all([call(port, `/${code}`, { 'user-agent': BOT }), call(port, `/${code}`, {}, 'HEAD'), call(port, `/${code}`, { 'user-agent': AGENT })]);
    expect(await clicks(code)).toBe(200);
    const stats = (await t.as(owner, { method: 'GET', url: `/api/v1/agentlinks/links/${code}/stats` })).json();
    expect(stats).toMatchObject({ humanClicks: 200, agentClicks: 1, byAgent: { 'Claude-User': 1 } });
  });

  it(`leaves to the full path what is not a plain cached redirect: pages, other hosts, expiry, caps (${env})`, async () => {
    const plain = await create({ url: 'https://example.com/plain' });
    await call(port, `/${plain}`);
    // Another host goes the full way (an active custom domain serves only its own links); a host that is neither
    // Snip's own nor an active domain is 421 there (issue 26, src/http/hosts.ts), cached link or not.
    const elsewhere = await call(port, `/${plain}`, { host: 'not-snip.example' });
    expect(elsewhere.status).toBe(421);
    const missing = await call(port, '/zzzzzz');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-security-policy']).toMatch(/default-src 'none'/);
    // The preview and unknown codes.
    expect((await call(port, `/${plain}+`)).status).toBe(200);
    // A capped link counts in the database, exactly.
    const capped = await create({ url: 'https://example.com/capped', maxClicks: 2 });
    const capAnswers = await Promise.all(Array.from({ length: 6 }, () => call(port, `/${capped}`)));
    expect(capAnswers.map((a) => a.status).sort()).toEqual([302, 302, 410, 410, 410, 410]);
    // A cached link that expires is gone at once.
    const expiring = await create({ url: 'https://example.com/soon', expiresAt: new Date(t.clock.now().getTime() + 60_000).toISOString() });
    expect((await call(port, `/${expiring}`)).status).toBe(302);
    t.clock.advance(61_000);
    expect((await call(port, `/${expiring}`)).status).toBe(410);
  });
}

describe(`the redirect fast path (${dialectName})`, () => {
  const t = useTestApp();
  suite(t, 'no proxy');

  it('takes the client address from the socket, never from X-Forwarded-For, without TRUST_PROXY', async () => {
    const owner = await t.createUser('pro');
    const code = (await t.as(owner, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/ip' } })).json<{ shortCode: string }>().shortCode;
    const port = (t.app.server.address() as AddressInfo).port;
    await call(port, `/${code}`);
    await call(port, `/${code}`, { 'x-forwarded-for': '8.8.8.8' });
    const stats = (await t.as(owner, { method: 'GET', url: `/api/v1/links/${code}/stats` })).json<{ clicks: { country: string | null }[] }>();
    expect(stats.clicks.map((c) => c.country)).toEqual([null, null]);
  });
});

describe(`the redirect fast path behind a proxy (TRUST_PROXY=1, ${dialectName})`, () => {
  const t = useTestApp({ TRUST_PROXY: '1' });
  let port: number;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => agent.destroy());

  it('takes the client address from X-Forwarded-For as Fastify does, and leaves X-Forwarded-Host to the full path', async () => {
    const owner = await t.createUser('pro');
    const code = (await t.as(owner, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/proxied' } })).json<{ shortCode: string }>().shortCode;
    await call(port, `/${code}`, { 'x-forwarded-for': '8.8.8.8' });
    await call(port, `/${code}`, { 'x-forwarded-for': '8.8.8.8' });
    const routed = await t.app.inject({ method: 'GET', url: `/${code}`, headers: { host: 'snip.test', 'user-agent': BROWSER_UA, 'x-forwarded-for': '8.8.8.8' } });
    expect(routed.statusCode).toBe(302);
    // The host the client asked for, through the trusted proxy, is no host of Snip's: 421, not counted (issue 26).
    const other = await call(port, `/${code}`, { 'x-forwarded-host': 'not-snip.example', 'x-forwarded-for': '8.8.8.8' });
    expect(other.status).toBe(421);
    const snips = await call(port, `/${code}`, { 'x-forwarded-host': 'snip.test', 'x-forwarded-for': '8.8.8.8' });
    expect(snips).toMatchObject({ status: 302, headers: { location: 'https://example.com/proxied' } });
    const stats = (await t.as(owner, { method: 'GET', url: `/api/v1/links/${code}/stats` })).json<{ clicks: { country: string | null }[] }>();
    expect(stats.clicks.map((c) => c.country)).toEqual(['US', 'US', 'US', 'US']);
  });
});
