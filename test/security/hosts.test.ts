import net from 'node:net';
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../helpers/api-errors.js';
import { dialectName, useTestApp, type TestApp } from '../helpers/app.js';
import { BROWSER_UA } from '../helpers/user-agents.js';

/**
 * Attack (issue 26, item 2): every surface answered whatever Host was sent, so a DNS-rebinding page (its requests carry
 * the attacker's host name) could drive the API, MCP and OAuth of a Snip on a private address, and any name pointed at
 * Snip served its links. What holds now (src/http/hosts.ts): the API, the dashboard, MCP, OAuth, /openapi.yaml and /docs
 * answer only on BASE_URL's host, ALLOWED_HOSTS and loopback names; active custom domains answer short links and their
 * pages only; /healthz and /readyz answer on any host; every other Host, a missing one or a malformed one is 421
 * MISDIRECTED_REQUEST, before the key check and before the body is read. A route answers elsewhere only if it says so.
 */
const ALLOWED_HOSTS = 'snip.internal,10.0.0.5,[fd00::1]';
const OWN = ['snip.test', 'SNIP.Test.', 'snip.test:8443', 'snip.internal', '10.0.0.5:3000', '[fd00:0:0::1]', 'localhost', 'localhost:3000', 'app.localhost', '127.0.0.1', '127.1.2.3:9', '[::1]:80'];
const FOREIGN = ['evil.example.com', 'snip.test.evil.example', 'evil.example.com:80', '10.0.0.6'];
const MALFORMED = ['a:b:c', 'x y', '[::1', 'snip.test:80:80', 'snip.test/x', '[::1]x', 'user@snip.test'];
/** Routes the OpenAPI does not list: the authorization server, its pages, the dashboard, the API reference, MCP's preflight and refusals. */
const UNLISTED = ['OPTIONS /mcp', 'GET /mcp', 'DELETE /mcp', 'GET /oauth/authorize', 'POST /oauth/token', 'POST /oauth/register', 'GET /oauth/session/end', 'GET /oauth/interaction/x1', 'GET /app', 'GET /app/links', 'GET /docs/', 'GET /docs/json'];
const HEALTH = new Set(['GET /healthz', 'GET /readyz']);

/** A route as a request: its parameters filled in, a JSON body where it takes one. */
function requestOf(route: string): InjectOptions {
  const [method, path] = route.split(' ') as [InjectOptions['method'], string];
  const url = path.replace(/:[A-Za-z]+/g, 'abc123').replace('*', 'x');
  return method === 'GET' || method === 'DELETE' || method === 'OPTIONS' ? { method, url } : { method, url, payload: {} };
}

function expectMisdirected(res: LightMyRequestResponse, label: string, host = 'evil'): void {
  expect(res.statusCode, `${label}: ${res.body}`).toBe(421);
  const body = res.json();
  // Each surface answers in its own shape: JSON-RPC on /mcp, REST's body elsewhere; the host is never echoed.
  if (label.includes(' /mcp')) expect(body, label).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.any(String), data: { code: 'MISDIRECTED_REQUEST' } } });
  else expect(body, label).toEqual(errorBody('MISDIRECTED_REQUEST'));
  expect(res.body).not.toContain(host);
}

/** An active custom domain of `owner` (added over the API, activated in the database as the DNS steps would). */
async function activeDomain(t: TestApp, key: string, hostname: string): Promise<void> {
  const added = await t.as(key, { method: 'POST', url: '/api/user/domains', payload: { domain: hostname } });
  expect(added.statusCode, added.body).toBe(201);
  await t.core.database.db.updateTable('domains').set({ status: 'active' }).where('hostname', '=', hostname).execute();
}

describe(`hosts each surface answers on (${dialectName})`, () => {
  const t = useTestApp({ ALLOWED_HOSTS });
  const pro = t.user('pro');
  let routes: string[];
  const send = (host: string, options: InjectOptions) => t.as(pro, { ...options, headers: { ...(options.headers as Record<string, string>), host } });
  const linkCount = async () => (await t.core.database.db.selectFrom('links').select('id').where('account_id', '=', pro.id).execute()).length;

  beforeAll(() => {
    routes = [...t.app.registeredRoutes, ...UNLISTED];
    expect(routes.length).toBeGreaterThan(100);
  });

  it('every route but the health checks refuses a foreign host with 421 MISDIRECTED_REQUEST, key or not', async () => {
    for (const route of routes.filter((r) => !HEALTH.has(r))) {
      for (const host of FOREIGN) expectMisdirected(await send(host, requestOf(route)), `${route} on ${host}`, host);
      expectMisdirected(await t.app.inject({ ...requestOf(route), headers: { host: FOREIGN[0]! } }), `${route} without a key`);
    }
  });

  it('every route but the health checks refuses a malformed Host with 421 (no 500, no host written anywhere)', async () => {
    for (const route of routes.filter((r) => !HEALTH.has(r))) {
      for (const host of MALFORMED) expectMisdirected(await send(host, requestOf(route)), `${route} on "${host}"`, host);
    }
  });

  it("answers on BASE_URL's host in any spelling, on ALLOWED_HOSTS and on every loopback name", async () => {
    for (const host of OWN) {
      const list = await send(host, { method: 'GET', url: '/api/v1/links' });
      expect(list.statusCode, `${host}: ${list.body}`).toBe(200);
      const mcp = await send(host, { method: 'POST', url: '/mcp', payload: { jsonrpc: '2.0', id: 1, method: 'ping' }, headers: { accept: 'application/json, text/event-stream' } });
      expect(mcp.statusCode, `${host}: ${mcp.body} ${JSON.stringify(mcp.headers)}`).toBe(200);
      expect(mcp.json(), host).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
      for (const url of ['/openapi.yaml', '/.well-known/oauth-authorization-server', '/docs/json']) expect((await send(host, { method: 'GET', url })).statusCode, `${url} on ${host}`).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: { host } })).statusCode, host).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: '/', headers: { host } })).statusCode, host).toBe(302);
    }
  });

  it('runs nothing for a foreign host: a create with a valid key and a valid body makes no link, over REST and MCP', async () => {
    const before = await linkCount();
    const rest = await send('evil.example.com', { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/rebound' } });
    expectMisdirected(rest, 'POST /api/v1/links');
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'shorten_url', arguments: { url: 'https://example.com/rebound' } } };
    const mcp = await send('evil.example.com', { method: 'POST', url: '/mcp', payload: call, headers: { accept: 'application/json, text/event-stream', origin: 'http://evil.example.com' } });
    expectMisdirected(mcp, 'POST /mcp');
    expect(await linkCount()).toBe(before);
    // The same requests on Snip's host do run.
    expect((await send('snip.test', { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/rebound' } })).statusCode).toBe(201);
  });

  it('refuses the host before the key and the body: no key and a broken body still get 421', async () => {
    for (const url of ['/api/v1/links', '/mcp', '/api/auth/sign-in']) {
      const res = await t.app.inject({ method: 'POST', url, payload: '{not json', headers: { host: 'evil.example.com', 'content-type': 'application/json' } });
      expectMisdirected(res, `POST ${url}`);
    }
  });

  it('answers the health checks on any host, malformed ones included', async () => {
    for (const host of [...FOREIGN, ...MALFORMED, ...OWN]) {
      for (const url of ['/healthz', '/readyz']) expect((await t.app.inject({ method: 'GET', url, headers: { host } })).statusCode, `${url} on "${host}"`).toBe(200);
    }
  });

  it('reads the Host header only, never X-Forwarded-Host, without TRUST_PROXY', async () => {
    expect((await send('snip.test', { method: 'GET', url: '/api/v1/links', headers: { 'x-forwarded-host': 'evil.example.com' } })).statusCode).toBe(200);
    expectMisdirected(await send('evil.example.com', { method: 'GET', url: '/api/v1/links', headers: { 'x-forwarded-host': 'snip.test' } }), 'GET /api/v1/links');
  });

  describe('active custom domains answer short links and their pages only', () => {
    const domain = 'go.hosts-brand.example';
    let code: string;
    let own: string;

    beforeAll(async () => {
      await activeDomain(t, pro.apiKey, domain);
      code = (await send('snip.test', { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/on-domain', domain } })).json<{ shortCode: string }>().shortCode;
      own = (await send('snip.test', { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/on-snip' } })).json<{ shortCode: string }>().shortCode;
    });

    it('serves its short links, their previews, 404 pages, its root page and icon', async () => {
      const visit = (url: string) => t.app.inject({ method: 'GET', url, headers: { host: domain, 'user-agent': BROWSER_UA } });
      const redirect = await visit(`/${code}`);
      expect(redirect.statusCode).toBe(302);
      expect(redirect.headers.location).toBe('https://example.com/on-domain');
      const preview = await visit(`/${code}+`);
      expect(preview.statusCode).toBe(200);
      // The QR image comes from Snip's own host: the API does not answer on the custom domain.
      expect(preview.body).toContain(`src="http://snip.test/api/qr/${code}?size=240"`);
      const missing = await visit(`/${own}`);
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['content-type']).toMatch(/^text\/html/);
      const root = await visit('/');
      expect(root.statusCode).toBe(200);
      expect(root.body).toContain('href="http://snip.test/docs"');
      expect((await visit('/favicon.ico')).statusCode).toBe(200);
    });

    it('refuses everything else on it with 421: API, MCP, OAuth, dashboard, OpenAPI, docs, QR images', async () => {
      // A protected link's password form posts to the short URL: it answers on the domain as the link does.
      const others = routes.filter((r) => !HEALTH.has(r) && !['GET /', 'GET /favicon.ico', 'GET /:code', 'GET /:prefix/:slug', 'POST /:code', 'POST /:prefix/:slug'].includes(r));
      for (const route of others) expectMisdirected(await send(domain, requestOf(route)), `${route} on ${domain}`);
      expectMisdirected(await send(domain, { method: 'GET', url: `/api/qr/${code}` }), 'GET /api/qr');
    });

    it('a domain that is not active (pending, verified, deleted) answers no short link either', async () => {
      const pending = 'pending.hosts-brand.example';
      expect((await send('snip.test', { method: 'POST', url: '/api/user/domains', payload: { domain: pending } })).statusCode).toBe(201);
      for (const url of [`/${own}`, `/${code}`, `/${own}+`, '/']) expectMisdirected(await t.app.inject({ method: 'GET', url, headers: { host: pending } }), `GET ${url} on ${pending}`);
    });
  });

  describe('the redirect fast path (real sockets)', () => {
    let port: number;
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as AddressInfo).port;
    });
    const get = (path: string, host: string) =>
      new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, path, method: 'GET', agent: false, headers: { host, 'user-agent': BROWSER_UA } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
        });
        req.on('error', reject);
        req.end();
      });

    it('never serves a cached link on a foreign or malformed host', async () => {
      const code = (await send('snip.test', { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/cached' } })).json<{ shortCode: string }>().shortCode;
      // Twice on Snip's host: the first fills the redirect cache, the second is answered from it.
      for (let i = 0; i < 2; i++) expect(await get(`/${code}`, 'snip.test')).toEqual({ status: 302, location: 'https://example.com/cached' });
      for (const host of ['evil.example.com', 'snip.test.evil.example', 'a:b:c', '[::1]x', 'localhost:abc', 'snip.test:80:80']) {
        expect((await get(`/${code}`, host)).status, host).toBe(421);
      }
      for (const host of ['localhost', '127.0.0.1:1', 'snip.internal']) expect(await get(`/${code}`, host), host).toEqual({ status: 302, location: 'https://example.com/cached' });
    });

    it('answers an HTTP/1.0 request without a Host header with 421', async () => {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /api/v1/links HTTP/1.0\r\n\r\n'));
        let text = '';
        socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        socket.on('end', () => resolve(text)).on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.[01] 421 /);
      expect(answer).toContain('"code":"MISDIRECTED_REQUEST"');
    });
  });
});

describe(`hosts behind a trusted proxy (TRUST_PROXY=127.0.0.1, ${dialectName})`, () => {
  const t = useTestApp({ TRUST_PROXY: '127.0.0.1' });
  const pro = t.user('pro');
  const list = (headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'GET', url: '/api/v1/links', remoteAddress, headers: { authorization: `Bearer ${pro.apiKey}`, ...headers } });

  it('checks the host the client asked for: X-Forwarded-Host from the trusted proxy, else its Host', async () => {
    expect((await list({ host: 'upstream.internal:3000', 'x-forwarded-host': 'snip.test' })).statusCode).toBe(200);
    expectMisdirected(await list({ host: 'snip.test', 'x-forwarded-host': 'evil.example.com' }), 'GET /api/v1/links');
    expectMisdirected(await list({ host: 'snip.test', 'x-forwarded-host': 'a:b:c' }), 'GET /api/v1/links');
    // Of several values, the last: the one the trusted proxy next to Snip set (what Fastify reads as request.host).
    expect((await list({ host: 'upstream.internal', 'x-forwarded-host': 'evil.example.com, snip.test' })).statusCode).toBe(200);
    expect((await list({ host: 'snip.test' })).statusCode).toBe(200);
    expectMisdirected(await list({ host: 'evil.example.com' }), 'GET /api/v1/links');
  });

  it('believes X-Forwarded-Host only from a trusted proxy: from another peer its Host counts', async () => {
    expectMisdirected(await list({ host: 'evil.example.com', 'x-forwarded-host': 'snip.test' }, '203.0.113.9'), 'GET /api/v1/links');
    expect((await list({ host: 'snip.test', 'x-forwarded-host': 'evil.example.com' }, '203.0.113.9')).statusCode).toBe(200);
  });
});
