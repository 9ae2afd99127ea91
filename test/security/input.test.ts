import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/api-errors.js';
import { dialectName, useTestApp } from '../helpers/app.js';

/**
 * Attack: input the database cannot store. A NUL (U+0000) in a path, query or body string makes PostgreSQL refuse the
 * statement (`invalid byte sequence for encoding "UTF8": 0x00`), and a number past what a column or OFFSET holds makes
 * either database refuse it: both were 500s, several of them without any key. Every such input is refused as a 400
 * with a stable code before any handler runs, changes nothing, and the redirect answers it as an unknown link.
 */
describe(`inputs the database cannot store (${dialectName})`, () => {
  const t = useTestApp();
  const user = t.user('pro');
  let code = '';
  let webhookId = '';

  const as = (options: InjectOptions) => t.as(user, options);
  const anonymous = (options: InjectOptions) => t.app.inject(options);
  const expect4xx = (res: LightMyRequestResponse, label: string) => {
    expect(res.statusCode, `${label}: ${res.body}`).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, `${label}: ${res.body}`).toBeLessThan(500);
  };

  /** What the probes must leave as it was. */
  const state = async () => ({
    links: (await as({ method: 'GET', url: '/api/v1/links?limit=100' })).json<{ links: unknown[] }>().links,
    webhooks: (await as({ method: 'GET', url: '/api/v1/webhooks' })).json<{ webhooks: unknown[] }>().webhooks,
    folders: (await as({ method: 'GET', url: '/api/v1/folders' })).json<unknown>(),
    usage: (await as({ method: 'GET', url: '/api/usage' })).json<{ overageLimitCents: number | null }>().overageLimitCents,
  });
  let before: Awaited<ReturnType<typeof state>>;

  beforeAll(async () => {
    const link = await as({ method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/input', maxClicks: 5 } });
    expect(link.statusCode, link.body).toBe(201);
    code = link.json<{ shortCode: string }>().shortCode;
    const hook = await as({ method: 'POST', url: '/api/v1/webhooks', payload: { url: 'https://example.com/hook', events: ['link.deleted'] } });
    expect(hook.statusCode, hook.body).toBe(201);
    webhookId = hook.json<{ id: string }>().id;
    before = await state();
  });

  describe('a NUL in the URL', () => {
    it.each([
      ['/a%00b/abc', 'a namespaced path'],
      ['/a%00b/abc+', 'a namespaced preview'],
      ['/abc%00d', 'a code'],
      ['/abc%00d+', 'a preview'],
    ])('%s (%s) is the 404 page of an unknown link, without a key', async (url) => {
      const res = await anonymous({ method: 'GET', url });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers.location).toBeUndefined();
      expect((await anonymous({ method: 'HEAD', url })).statusCode).toBe(404);
    });

    it.each([
      ['/api/qr/a%00b/abc', 'INVALID_PREFIX'],
      ['/api/qr/abc%00de', 'INVALID_SHORT_CODE'],
      ['/api/ns/stats/a%00b/abc', 'INVALID_PREFIX'],
      ['/api/stats/abc%00de', 'INVALID_SHORT_CODE'],
      ['/api/domains/check/a%00b.example.com', 'INVALID_HOSTNAME'],
      ['/api/link-scan/a%00b', 'INVALID_SHORT'],
    ])('GET %s without a key is 400 %s', async (url, errorCode) => {
      expectError(await anonymous({ method: 'GET', url }), 400, errorCode, url);
    });

    it.each([
      ['GET', '/api/v1/links?search=a%00b', 'INVALID_SEARCH'],
      ['GET', '/api/links?search=a%00b', 'INVALID_SEARCH'],
      ['GET', '/api/v1/links?folderId=a%00b', 'INVALID_FOLDER_ID'],
      ['GET', '/api/v1/links?view=a%00b', 'INVALID_VIEW'],
      ['GET', '/api/v1/links?tag=a%00b', 'INVALID_TAG'],
      ['GET', '/api/v1/links?domain=a%00b.example.com', 'INVALID_DOMAIN'],
      ['GET', '/api/v1/links/a%00b', 'INVALID_SHORT_PATH'],
      ['GET', '/api/v1/links/a%00b/stats', 'INVALID_SHORT_PATH'],
      ['GET', '/api/analytics/links/a%00b', 'INVALID_SHORT_PATH'],
      ['DELETE', '/api/v1/folders/a%00b', 'INVALID_FOLDER_ID'],
      ['DELETE', '/api/folders/a%00b', 'INVALID_FOLDER_ID'],
      ['DELETE', '/api/keys/a%00b', 'INVALID_KEY_ID'],
      ['DELETE', '/api/user/namespaces/a%00b', 'INVALID_NAMESPACE'],
      ['DELETE', '/api/user/domains/a%00b.example.com', 'INVALID_DOMAIN'],
      ['DELETE', '/api/v1/webhooks/a%00b', 'INVALID_WEBHOOK_ID'],
      ['GET', '/api/v1/webhooks/a%00b/deliveries', 'INVALID_WEBHOOK_ID'],
      ['DELETE', '/api/v1/links/a%00b', 'INVALID_SHORT_PATH'],
    ] as const)('%s %s is 400 %s', async (method, url, errorCode) => {
      expectError(await as({ method, url }), 400, errorCode, `${method} ${url}`);
    });

    it('without a key, a route that needs one answers 401 first', async () => {
      for (const url of ['/api/v1/folders/a%00b', '/api/keys/a%00b', '/api/user/namespaces/a%00b', '/api/user/domains/a%00b']) {
        expectError(await anonymous({ method: 'DELETE', url }), 401, 'API_KEY_REQUIRED', url);
      }
    });

    it('a NUL in a query field the route does not take, or in a name, is 400 BAD_REQUEST', async () => {
      expectError(await as({ method: 'GET', url: '/api/v1/links?other=a%00b' }), 400, 'BAD_REQUEST');
      expectError(await as({ method: 'GET', url: '/api/v1/links?a%00b=1' }), 400, 'BAD_REQUEST');
    });

    it('%2500 is the text "%00", not a NUL', async () => {
      const res = await as({ method: 'GET', url: '/api/v1/links?search=%2500' });
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  describe('a NUL in a JSON body', () => {
    it.each([
      ['POST', '/api/v1/links', { url: 'https://example.com/a\u0000b' }, 'INVALID_URL'],
      ['POST', '/api/v1/links', { url: 'https://example.com/', customSlug: 'ab\u0000cd' }, 'INVALID_SLUG'],
      ['POST', '/api/links', { url: 'https://example.com/', domain: 'a\u0000b.example.com' }, 'INVALID_DOMAIN'],
      ['POST', '/api/v1/links', { url: 'https://example.com/', blockedCountries: ['G\u0000'] }, 'INVALID_BLOCKED_COUNTRIES'],
      ['POST', '/api/v1/webhooks', { url: 'https://example.com/h', events: ['link.created'], name: 'a\u0000b' }, 'INVALID_NAME'],
      ['POST', '/api/v1/webhooks', { url: 'https://example.com/h', events: ['link.created'], secret: 'a\u0000b' }, 'INVALID_SECRET'],
      ['POST', '/api/v1/webhooks', { url: 'https://example.com/h', events: ['link.created\u0000'] }, 'INVALID_EVENTS'],
      ['POST', '/api/v1/folders', { name: 'a\u0000b' }, 'INVALID_NAME'],
      ['POST', '/api/v1/links', { url: 'https://example.com/', 'a\u0000': 1 }, 'INVALID_BODY'],
    ] as const)('%s %s %j is 400 %s', async (method, url, payload, errorCode) => {
      expectError(await as({ method, url, payload }), 400, errorCode, `${method} ${url}`);
    });

    it('PATCH of a link and of a webhook', async () => {
      expectError(await as({ method: 'PATCH', url: `/api/v1/links/${code}`, payload: { url: 'https://example.com/\u0000' } }), 400, 'INVALID_URL');
      expectError(await as({ method: 'PATCH', url: `/api/v1/webhooks/${webhookId}`, payload: { name: '\u0000' } }), 400, 'INVALID_NAME');
    });

    it('an MCP call with a NUL in its arguments is refused before any tool runs', async () => {
      const payload = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_links', arguments: { search: 'a\u0000b' } } };
      const res = await as({ method: 'POST', url: '/mcp', payload, headers: { accept: 'application/json, text/event-stream' } });
      expect4xx(res, 'POST /mcp');
    });

    it('an escaped backslash before u0000 is text, not a NUL', async () => {
      const res = await as({ method: 'POST', url: '/api/v1/folders', payload: { name: 'a\\u0000b' } });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json<{ name: string }>().name).toBe('a\\u0000b');
      await as({ method: 'DELETE', url: `/api/v1/folders/${res.json<{ id: string }>().id}` });
    });
  });

  describe('numbers out of range', () => {
    const huge = ['9223372036854775808', '1e20', 'Infinity', '-Infinity', 'NaN', '2147483648', '-1', '1.5'];

    it.each(huge)('offset=%s on link lists and webhook deliveries is 400 INVALID_OFFSET', async (value) => {
      for (const base of ['/api/v1/links', '/api/links', `/api/v1/webhooks/${webhookId}/deliveries`, `/api/webhooks/${webhookId}/deliveries`]) {
        expectError(await as({ method: 'GET', url: `${base}?offset=${value}` }), 400, 'INVALID_OFFSET', `${base} offset=${value}`);
        expectError(await as({ method: 'GET', url: `${base}?limit=${value}` }), 400, 'INVALID_LIMIT', `${base} limit=${value}`);
      }
    });

    it('the largest offset is an empty page', async () => {
      const res = await as({ method: 'GET', url: '/api/v1/links?offset=2147483647' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ links: unknown[] }>().links).toEqual([]);
      const deliveries = await as({ method: 'GET', url: `/api/v1/webhooks/${webhookId}/deliveries?offset=2147483647` });
      expect(deliveries.statusCode, deliveries.body).toBe(200);
    });

    it.each([2147483648, 1e20, 9223372036854775808, -1, 1.5])('limitCents %s is 400 INVALID_LIMIT_CENTS', async (limitCents) => {
      expectError(await as({ method: 'POST', url: '/api/subscription/overage-limit', payload: { limitCents } }), 400, 'INVALID_LIMIT_CENTS');
    });

    it('the largest limitCents is stored', async () => {
      const res = await as({ method: 'POST', url: '/api/subscription/overage-limit', payload: { limitCents: 2147483647 } });
      expect(res.statusCode, res.body).toBe(200);
      expect((await as({ method: 'GET', url: '/api/usage' })).json<{ overageLimitCents: number }>().overageLimitCents).toBe(2147483647);
      await as({ method: 'POST', url: '/api/subscription/overage-limit', payload: { limitCents: before.usage ?? 0 } });
    });

    it('maxClicks past 2^31-1 is 400 INVALID_MAX_CLICKS on create and update', async () => {
      for (const maxClicks of [2147483648, 1e20]) {
        expectError(await as({ method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/big', maxClicks } }), 400, 'INVALID_MAX_CLICKS');
        expectError(await as({ method: 'POST', url: '/api/links', payload: { url: 'https://example.com/big', maxClicks } }), 400, 'INVALID_MAX_CLICKS');
        expectError(await as({ method: 'PATCH', url: `/api/v1/links/${code}`, payload: { maxClicks } }), 400, 'INVALID_MAX_CLICKS');
      }
    });

    it('a JSON number past 2^63 in a body is 400, not 500', async () => {
      const res = await as({ method: 'POST', url: '/api/v1/links', payload: '{"url":"https://example.com/n","maxClicks":1e400}', headers: { 'content-type': 'application/json' } });
      expect4xx(res, 'maxClicks 1e400');
    });
  });

  describe('JSON bodies are typed strictly', () => {
    it.each([
      ['"5"', 'a string'],
      ['true', 'a boolean'],
      ['"true"', 'the string "true"'],
      ['[5]', 'a list'],
    ])('maxClicks %s (%s) is 400 INVALID_MAX_CLICKS', async (value) => {
      const raw = (url: string, method: 'POST' | 'PATCH', body: string) => as({ method, url, payload: body, headers: { 'content-type': 'application/json' } });
      expectError(await raw('/api/v1/links', 'POST', `{"url":"https://example.com/s","maxClicks":${value}}`), 400, 'INVALID_MAX_CLICKS');
      expectError(await raw('/api/links', 'POST', `{"url":"https://example.com/s","maxClicks":${value}}`), 400, 'INVALID_MAX_CLICKS');
      expectError(await raw(`/api/v1/links/${code}`, 'PATCH', `{"maxClicks":${value}}`), 400, 'INVALID_MAX_CLICKS');
    });

    it('limitCents "100" and enabled "false" are refused', async () => {
      expectError(await as({ method: 'POST', url: '/api/subscription/overage-limit', payload: { limitCents: '100' } }), 400, 'INVALID_LIMIT_CENTS');
      expectError(await as({ method: 'PATCH', url: `/api/v1/webhooks/${webhookId}`, payload: { enabled: 'false' } }), 400, 'INVALID_ENABLED');
      expectError(await as({ method: 'PATCH', url: `/api/v1/webhooks/${webhookId}`, payload: { enabled: 0 } }), 400, 'INVALID_ENABLED');
    });

    it('a number is not a string: url 5 is INVALID_URL', async () => {
      expectError(await as({ method: 'POST', url: '/api/v1/links', payload: { url: 5 } }), 400, 'INVALID_URL');
    });

    it('queries are text and still read as numbers', async () => {
      const res = await as({ method: 'GET', url: '/api/v1/links?limit=1&offset=0' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ pagination: { limit: number } }>().pagination.limit).toBe(1);
    });
  });

  it('no probe changed anything, and the link still redirects', async () => {
    expect(await state()).toEqual(before);
    const visit = await anonymous({ method: 'GET', url: `/${code}` });
    expect(visit.statusCode).toBe(302);
    expect(visit.headers.location).toBe('https://example.com/input');
  });
});
