import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError } from '../helpers/api-errors.js';
import { dialectName, useTestApp } from '../helpers/app.js';

/**
 * Attack: a page of Snip's framed (clickjacking) or made to run script, a JSON answer sniffed as HTML, a key sent in
 * a form the client did not mean as a bearer token. Every HTML page carries CSP, X-Frame-Options, nosniff and a
 * Referrer-Policy; every typed answer nosniff; the redirect stays as it was; `Authorization` is Bearer or a 401.
 */
function expectHtmlHeaders(res: LightMyRequestResponse, label: string): void {
  expect(res.headers['content-type'], label).toMatch(/^text\/html/);
  const csp = String(res.headers['content-security-policy']);
  expect(csp, label).toContain("frame-ancestors 'none'");
  expect(csp, label).toContain("default-src 'none'");
  expect(csp, label).not.toMatch(/script-src/);
  expect(csp, label).not.toMatch(/unsafe-eval/);
  expect(res.headers['x-frame-options'], label).toBe('DENY');
  expect(res.headers['x-content-type-options'], label).toBe('nosniff');
  expect(res.headers['referrer-policy'], label).toBe('no-referrer');
}

describe(`security headers (${dialectName})`, () => {
  const t = useTestApp();
  const user = t.user('pro');
  let code = '';

  beforeAll(async () => {
    const res = await t.as(user, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/headers' } });
    code = res.json<{ shortCode: string }>().shortCode;
  });

  it('the preview and the 404, 410 pages carry them', async () => {
    const pages: Array<[string, number]> = [
      [`/${code}+`, 200],
      ['/Zz9Zz9', 404],
      ['/Zz9Zz9+', 404],
      ['/nobody/nothing', 404],
    ];
    for (const [url, status] of pages) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(status);
      expectHtmlHeaders(res, url);
    }
    const capped = await t.as(user, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/capped', maxClicks: 1 } });
    const cappedCode = capped.json<{ shortCode: string }>().shortCode;
    expect((await t.app.inject({ method: 'GET', url: `/${cappedCode}` })).statusCode).toBe(302);
    const gone = await t.app.inject({ method: 'GET', url: `/${cappedCode}` });
    expect(gone.statusCode).toBe(410);
    expectHtmlHeaders(gone, '410');
  });

  it("the warning page of an unsafe destination and a custom domain's own 404 page carry them", async () => {
    const redirects = t.core.redirects;
    const visit = vi.spyOn(redirects, 'visit').mockResolvedValueOnce({ kind: 'unsafe', url: 'https://bad.example.com/', threats: ['phishing'] } as never);
    const warning = await t.app.inject({ method: 'GET', url: `/${code}` });
    visit.mockRestore();
    expect(warning.statusCode, warning.body).toBe(200);
    expectHtmlHeaders(warning, 'warning');

    const domain = vi
      .spyOn(t.core.domains, 'activeDomain')
      .mockReturnValue({ hostname: 'brand.example.com', accountId: 'x', notFoundPage: { type: 'html', html: '<p>Gone</p>' } } as never);
    const custom = await t.app.inject({ method: 'GET', url: '/Zz9Zz9', headers: { host: 'brand.example.com' } });
    domain.mockRestore();
    expect(custom.statusCode, custom.body).toBe(404);
    expect(custom.body).toContain('<p>Gone</p>');
    expectHtmlHeaders(custom, 'custom 404');
  });

  it('the redirect is unchanged: status and Location only, no page headers', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await t.app.inject({ method, url: `/${code}` });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('https://example.com/headers');
      for (const header of ['content-security-policy', 'x-frame-options', 'referrer-policy', 'x-content-type-options']) {
        expect(res.headers[header], `${method} ${header}`).toBeUndefined();
      }
    }
  });

  it('JSON answers, errors and other typed answers carry nosniff and no CSP', async () => {
    for (const res of [
      await t.as(user, { method: 'GET', url: '/api/v1/links' }),
      await t.app.inject({ method: 'GET', url: '/api/v1/links' }),
      await t.app.inject({ method: 'GET', url: '/healthz' }),
      await t.app.inject({ method: 'GET', url: '/api/nothing-here' }),
      await t.app.inject({ method: 'GET', url: '/openapi.yaml' }),
      await t.app.inject({ method: 'GET', url: `/api/qr/${code}` }),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBeUndefined();
    }
  });

  it('the API reference still works: no CSP there, framing still refused', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    const page = res.statusCode === 302 ? await t.app.inject({ method: 'GET', url: String(res.headers.location) }) : res;
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toBeUndefined();
    expect(page.headers['x-frame-options']).toBe('DENY');
  });

  describe('Authorization without the Bearer scheme', () => {
    it.each([
      ['a bare key', (key: string) => key],
      ['Basic', (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`],
      ['Token', (key: string) => `Token ${key}`],
      ['Bearer glued to the key', (key: string) => `Bearer${key}`],
    ])('%s is 401 API_KEY_REQUIRED with WWW-Authenticate: Bearer', async (_label, header) => {
      for (const url of ['/api/v1/links', '/api/links', `/api/stats/${code}`]) {
        const res = await t.app.inject({ method: 'GET', url, headers: { authorization: header(user.apiKey) } });
        expectError(res, 401, 'API_KEY_REQUIRED', url);
        expect(res.headers['www-authenticate'], url).toBe('Bearer');
      }
    });

    it('Bearer in any case works; a missing key and an unknown one say so in WWW-Authenticate', async () => {
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/links', headers: { authorization: `bearer ${user.apiKey}` } })).statusCode).toBe(200);
      const missing = await t.app.inject({ method: 'GET', url: '/api/v1/links' });
      expectError(missing, 401, 'API_KEY_REQUIRED');
      expect(missing.headers['www-authenticate']).toBe('Bearer');
      const unknown = await t.as(`snip_${'A'.repeat(40)}`, { method: 'GET', url: '/api/v1/links' });
      expectError(unknown, 401, 'INVALID_API_KEY');
      expect(unknown.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    });

    it('a route open to anyone answers without the header, and 401 with a bare one', async () => {
      expect((await t.app.inject({ method: 'GET', url: `/api/stats/${code}` })).statusCode).toBe(200);
      expectError(await t.app.inject({ method: 'GET', url: `/api/stats/${code}`, headers: { authorization: user.apiKey } }), 401, 'API_KEY_REQUIRED');
    });
  });
});
