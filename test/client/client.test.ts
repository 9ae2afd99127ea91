import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createSnipClient, isApiError, type SnipClient } from '../../client/index.js';
import { CLIENT_DIR, generateClientFiles } from '../../scripts/generate-client.js';
import { dialectName, useTestApp } from '../helpers/app.js';

/** The ApiError a call rejects with (fails the test when it resolves or rejects with anything else). */
async function refusal(call: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await call.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('the typed client is generated from the server', () => {
  it('client/schema.d.ts and client/error-codes.ts are what `npm run client` writes now', async () => {
    const files = await generateClientFiles();
    for (const [name, text] of Object.entries(files)) {
      const committed = fs.readFileSync(path.join(CLIENT_DIR, name), 'utf8');
      // Not toBe: a 600 KB diff helps no one; the name and the fix do.
      expect(committed === text, `client/${name} differs from the server's /openapi.yaml: run \`npm run client\``).toBe(true);
    }
  });
});

describe(`the typed client against a live server (${dialectName})`, () => {
  const t = useTestApp();
  const user = t.user('pro');
  let baseUrl = '';
  /** Requests made through `counted` clients, by method and path (query included). */
  const requests: string[] = [];
  const counted = (request: Request) => {
    const url = new URL(request.url);
    requests.push(`${request.method} ${url.pathname}${url.search}`);
    return fetch(request);
  };
  let snip: SnipClient;

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    snip = createSnipClient({ baseUrl, apiKey: user.apiKey, fetch: counted });
  });

  it('creates a link on A and on B, and reads each back on the other dialect', async () => {
    const a = await snip.post('/api/v1/links', { body: { url: 'https://example.com/from-a' } });
    expect(a).toMatchObject({ success: true, long: 'https://example.com/from-a', source: 'api' });
    const b = await snip.post('/api/links', { body: { url: 'https://example.com/from-b' } });
    expect(b).toMatchObject({ long: 'https://example.com/from-b', url: expect.stringContaining(b.shortCode) });

    const viaB = await snip.get('/api/links/{shortPath}', { params: { path: { shortPath: a.shortCode } } });
    expect(viaB.long).toBe('https://example.com/from-a');
    const viaA = await snip.get('/api/v1/links/{shortPath}', { params: { path: { shortPath: b.shortCode } } });
    expect(viaA.long).toBe('https://example.com/from-b');
  });

  it('names a namespaced link by prefix/slug as one path parameter', async () => {
    const { namespace } = await snip.put('/api/user/namespace', { body: { namespace: `ns${Date.now().toString(36)}` } });
    const link = await snip.post('/api/links', { body: { url: 'https://example.com/slugged', customSlug: 'launch-day' } });
    expect(link.fullPath).toBe(`${namespace}/launch-day`);
    const read = await snip.get('/api/links/{shortPath}', { params: { path: { shortPath: `${namespace}/launch-day` } } });
    expect(read.long).toBe('https://example.com/slugged');
  });

  it('walks every link page by page with `each`, in both dialects', async () => {
    for (let i = 0; i < 5; i += 1) await snip.post('/api/v1/links', { body: { url: `https://example.com/page/${i}` } });
    const all = await snip.get('/api/v1/links', { params: { query: { limit: 100, offset: 0 } } });
    expect(all.links.length).toBeGreaterThanOrEqual(7);

    for (const list of ['/api/v1/links', '/api/links'] as const) {
      requests.length = 0;
      const seen: string[] = [];
      for await (const link of snip.each(list, (page) => page.links, { pageSize: 3 })) seen.push(link.shortCode);
      expect(seen).toEqual(all.links.map((l) => l.shortCode));
      // One request per page of 3, and none after the page that said hasMore: false.
      expect(requests).toHaveLength(Math.ceil(all.links.length / 3));
      expect(requests[1]).toBe(`GET ${list}?limit=3&offset=3`);
    }
  });

  it('passes filters through `each` and stops when the loop does', async () => {
    const tagged = await snip.post('/api/v1/links', { body: { url: 'https://example.com/tagged' } });
    await snip.post('/api/links/{shortPath}/tags', { params: { path: { shortPath: tagged.shortCode } }, body: { tag: 'launch' } });
    const found: string[] = [];
    for await (const link of snip.each('/api/links', (page) => page.links, { query: { tag: 'launch' } })) found.push(link.shortCode);
    expect(found).toEqual([tagged.shortCode]);

    requests.length = 0;
    for await (const link of snip.each('/api/v1/links', (page) => page.links, { pageSize: 1 })) if (link) break;
    expect(requests).toHaveLength(1);
  });

  it('throws ApiError with the typed code of a bad input, on A and on B', async () => {
    for (const list of ['/api/v1/links', '/api/links'] as const) {
      const error = await refusal(snip.post(list, { body: { url: 'javascript:alert(1)' } }));
      expect(error).toMatchObject({ status: 400, code: 'INVALID_URL' });
      expect(error.message).toMatch(/URL/);
      expect(isApiError(error, 'INVALID_URL')).toBe(true);
    }
  });

  it('throws 404 NOT_FOUND for an unknown link, on A and on B', async () => {
    const a = await refusal(snip.get('/api/v1/links/{shortPath}', { params: { path: { shortPath: 'nosuch1' } } }));
    const b = await refusal(snip.delete('/api/links/{shortPath}', { params: { path: { shortPath: 'nosuch1' } } }));
    for (const error of [a, b]) expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('without a key: API_KEY_REQUIRED, and onUnauthorized hears the documented path', async () => {
    const heard: string[] = [];
    const anonymous = createSnipClient({ baseUrl, onUnauthorized: (p) => heard.push(p) });
    const error = await refusal(anonymous.get('/api/v1/links', { params: { query: { limit: 20, offset: 0 } } }));
    expect(error).toMatchObject({ status: 401, code: 'API_KEY_REQUIRED' });
    const wrong = createSnipClient({ baseUrl, apiKey: 'snip_not-a-key' });
    expect(await refusal(wrong.get('/api/user'))).toMatchObject({ status: 401, code: 'INVALID_API_KEY' });
    const links = await refusal(anonymous.post('/api/links', { body: { url: 'https://example.com' } }));
    expect(links.status).toBe(401);
    expect(heard).toEqual(['/api/v1/links', '/api/links']);
  });

  it("a dashboard-style session: the cookie signs calls in, and state changes carry the session's CSRF token", async () => {
    // Node's fetch keeps no cookies: a one-cookie jar stands in for the browser.
    let cookie = '';
    const browser = async (request: Request) => {
      if (cookie) request.headers.set('cookie', cookie);
      const response = await fetch(request);
      const set = response.headers.get('set-cookie');
      if (set) cookie = set.split(';')[0]!;
      return response;
    };
    let csrf: string | null = null;
    const dashboard = createSnipClient({ baseUrl, fetch: browser, csrfToken: () => csrf });
    const session = await dashboard.post('/api/auth/sign-up', { body: { email: `client-${Date.now()}@example.com`, password: 'a long enough password' } });
    expect(cookie).not.toBe('');
    expect(await dashboard.get('/api/auth/session')).toMatchObject({ account: { email: session.account.email } });

    const refused = await refusal(dashboard.post('/api/links', { body: { url: 'https://example.com/no-token' } }));
    expect(refused).toMatchObject({ status: 403, code: 'CSRF_TOKEN_INVALID' });
    csrf = session.csrfToken;
    const link = await dashboard.post('/api/links', { body: { url: 'https://example.com/with-token' } });
    expect(link).toMatchObject({ long: 'https://example.com/with-token', source: 'dashboard' });
  });

  it('NETWORK_ERROR when nothing answers; an abort stays an AbortError', async () => {
    const gone = createSnipClient({ baseUrl: 'http://127.0.0.1:9', apiKey: user.apiKey });
    expect(await refusal(gone.get('/api/user'))).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
    const aborted = snip.get('/api/user', { signal: AbortSignal.abort() });
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
  });
});
