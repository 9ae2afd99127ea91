import type { HTTPMethods, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { dialectName, useTestApp } from '../helpers/app.js';
import { BROWSER_UA } from '../helpers/user-agents.js';

/**
 * Issue 27: a method a path does not serve (`PUT /api/v1/links`, `POST /healthz`) answered 404 NOT_FOUND, as if the
 * path did not exist. It is now 405 METHOD_NOT_ALLOWED with `Allow` naming the methods the path serves (HEAD with
 * GET, OPTIONS where a CORS preflight is answered), in the error body of the surface the path belongs to: Snip's
 * `{error, message, code}` for Description A and B, JSON-RPC on /mcp, RFC 6749's shape on the OAuth endpoints. A
 * path no route has is still 404, and Snip's own names (/api, /mcp/...) are no short links for the catch-all
 * redirect routes.
 */

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
const METHODS: Method[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

const allowOf = (res: LightMyRequestResponse): string[] => String(res.headers.allow ?? '').split(', ').filter(Boolean);

/** 405, `Allow` exactly `allowed` (in Snip's order), and Snip's REST error body naming the method. */
function expectRestRefusal(res: LightMyRequestResponse, method: Method, allowed: Method[]): void {
  expect(res.statusCode, `${method}: ${res.body}`).toBe(405);
  expect(allowOf(res)).toEqual(allowed);
  if (method === 'HEAD') return expect(res.body).toBe('');
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json()).toEqual({ error: true, message: expect.stringContaining(method), code: 'METHOD_NOT_ALLOWED' });
}

function expectNoRoute(res: LightMyRequestResponse, what: string): void {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(404);
  expect(res.headers.allow, what).toBeUndefined();
  expect(res.json(), what).toMatchObject({ error: true, code: 'NOT_FOUND' });
}

describe(`405 for a method a path does not serve (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');
  const send = (method: Method, url: string, headers: Record<string, string> = {}) => t.app.inject({ method, url, headers: { 'user-agent': BROWSER_UA, ...headers } });

  it('Description A: PUT, DELETE and PATCH /api/v1/links, with or without a key, before any key check', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH'] as const) {
      expectRestRefusal(await send(method, '/api/v1/links'), method, ['GET', 'HEAD', 'POST']);
      expectRestRefusal(await t.as(pro, { method, url: '/api/v1/links', payload: { url: 'https://example.com/x' } }), method, ['GET', 'HEAD', 'POST']);
    }
    // A link's own address serves reading, changing and deleting it; creating is the collection's.
    const created = await t.as(pro, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/one' } });
    const code = created.json<{ shortCode: string }>().shortCode;
    const res = await t.as(pro, { method: 'POST', url: `/api/v1/links/${code}` });
    expect(res.statusCode).toBe(405);
    expect(allowOf(res)).toEqual(expect.arrayContaining(['GET', 'HEAD', 'PATCH', 'DELETE']));
    expect(allowOf(res)).not.toContain('POST');
  });

  it('Description B: PUT /api/links, GET and HEAD of POST-only paths', async () => {
    expectRestRefusal(await send('PUT', '/api/links'), 'PUT', ['GET', 'HEAD', 'POST']);
    expectRestRefusal(await send('DELETE', '/api/links'), 'DELETE', ['GET', 'HEAD', 'POST']);
    for (const method of ['GET', 'HEAD', 'PUT'] as const) expectRestRefusal(await send(method, '/api/auth/sign-in'), method, ['POST']);
  });

  it('/healthz, /readyz and /openapi.yaml serve GET and HEAD only', async () => {
    for (const url of ['/healthz', '/readyz', '/openapi.yaml']) {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const) expectRestRefusal(await send(method, url), method, ['GET', 'HEAD']);
    }
  });

  it('/mcp: another method is 405 in JSON-RPC; GET and DELETE keep the transport answer', async () => {
    for (const method of ['PUT', 'PATCH'] as const) {
      const res = await send(method, '/mcp', { authorization: `Bearer ${pro.apiKey}` });
      expect(res.statusCode).toBe(405);
      // GET and DELETE /mcp are routes that only refuse (a stateless server offers no stream): no method it serves.
      expect(allowOf(res)).toEqual(['POST', 'OPTIONS']);
      expect(res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining(method), data: { code: 'METHOD_NOT_ALLOWED' } } });
    }
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await send(method, '/mcp', { authorization: `Bearer ${pro.apiKey}` });
      expect(res.statusCode).toBe(405);
      expect(res.json()).toMatchObject({ jsonrpc: '2.0', id: null });
    }
  });

  it('the OAuth endpoints answer 405 in their own error shape', async () => {
    const cases: Array<[Method, string, Method[]]> = [
      ['GET', '/oauth/token', ['POST', 'OPTIONS']],
      ['PUT', '/oauth/revoke', ['POST', 'OPTIONS']],
      ['GET', '/oauth/register', ['POST', 'OPTIONS']],
      ['POST', '/oauth/jwks', ['GET', 'OPTIONS']],
      ['POST', '/oauth/authorize', ['GET']],
    ];
    for (const [method, url, allowed] of cases) {
      const res = await send(method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(allowOf(res), `${method} ${url}`).toEqual(allowed);
      expect(res.json()).toEqual({ error: 'invalid_request', error_description: expect.stringContaining(method), code: 'METHOD_NOT_ALLOWED' });
    }
  });

  it('a short link path serves GET, HEAD and POST (a protected link\'s password form): PUT and DELETE are 405', async () => {
    for (const url of ['/abcdef', `/${pro.namespace}/some-slug`, '/abcdef+']) {
      for (const method of ['PUT', 'DELETE'] as const) expectRestRefusal(await send(method, url), method, ['GET', 'HEAD', 'POST']);
      // The form of an unknown link: the 404 page of any unknown link.
      expect((await send('POST', url)).statusCode).toBe(404);
    }
  });

  it('a path no route has stays 404, whatever the method; Snip\'s own names are no short links', async () => {
    const cases: Array<[Method, string]> = [
      ['GET', '/api/v1/nope'],
      ['POST', '/api/v1/nope'],
      ['GET', '/api/nope'],
      ['POST', '/api/nope'],
      ['POST', '/api'],
      ['PUT', '/mcp/x'],
      ['GET', '/mcp/x'],
      ['POST', '/docs/x/y/z/w'],
      ['GET', '/oauth/nothing-here'],
      ['DELETE', '/a/b/c'],
    ];
    for (const [method, url] of cases) expectNoRoute(await send(method, url), `${method} ${url}`);
  });

  it('a GET that reaches the 404 of a reserved name still names the methods other routes serve there', async () => {
    // GET /api/createShort is the catch-all /{prefix}/{slug} on a reserved prefix (its 404), but POST is a route there.
    for (const url of ['/api/createShort', '/api/bulk']) expectRestRefusal(await send('GET', url), 'GET', ['POST']);
  });

  it('leaves found routes as they were', async () => {
    expect((await send('GET', '/healthz')).json()).toEqual({ status: 'ok' });
    expect((await send('HEAD', '/healthz')).statusCode).toBe(200);
    expect((await t.as(pro, { method: 'GET', url: '/api/v1/links' })).statusCode).toBe(200);
    expect((await t.as(pro, { method: 'GET', url: '/api/links' })).statusCode).toBe(200);
    const created = await t.as(pro, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/found' } });
    expect(created.statusCode).toBe(201);
    const visit = await send('GET', `/${created.json<{ shortCode: string }>().shortCode}`);
    expect(visit.statusCode).toBe(302);
    expect(visit.headers.allow).toBeUndefined();
    expect((await send('OPTIONS', '/mcp')).statusCode).toBe(204);
    expect((await send('GET', '/api/v1/links')).statusCode).toBe(401);
  });

  it('every documented path answers 405, naming its methods, to a method none of its routes serve', async () => {
    const byPath = new Map<string, Set<string>>();
    for (const route of t.app.registeredRoutes) {
      const [method, pattern] = route.split(' ') as [string, string];
      byPath.set(pattern, (byPath.get(pattern) ?? new Set()).add(method));
    }
    expect(byPath.size).toBeGreaterThan(50);
    const unexpected: string[] = [];
    let tried = 0;
    for (const [pattern, methods] of byPath) {
      const url = pattern.replace(/:[A-Za-z0-9_]+/g, 'x1y2z3');
      // A method no route of the router serves at this URL (another pattern may serve some at the same URL).
      const method = METHODS.find((m) => !methods.has(m) && m !== 'HEAD' && t.app.findRoute({ method: m as HTTPMethods, url }) === null);
      if (method === undefined) continue;
      tried += 1;
      const res = await send(method, url);
      const allow = allowOf(res);
      const expected = [...methods, ...(methods.has('GET') ? ['HEAD'] : [])];
      if (res.statusCode !== 405 || !expected.every((m) => allow.includes(m))) unexpected.push(`${method} ${url}: ${res.statusCode} Allow: ${allow.join(', ')}`);
    }
    expect(unexpected).toEqual([]);
    expect(tried).toBeGreaterThan(50);
  });
});
