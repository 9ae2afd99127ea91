import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';

/** What a person opening the server's address in a browser gets, before any link. */
describe('GET / and the icon', () => {
  const t = useTestApp();

  it("sends a visitor of Snip's own host to the dashboard", async () => {
    for (const host of ['snip.test', 'SNIP.test']) {
      const res = await t.app.inject({ method: 'GET', url: '/', headers: { host } });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/app');
    }
  });

  it("answers a custom domain's root with a small page saying what the server is, with links to the API reference", async () => {
    const user = await t.createUser('pro');
    await t.as(user, { method: 'POST', url: '/api/user/domains', payload: { domain: 'go.brand.example' } });
    await t.core.database.db.updateTable('domains').set({ status: 'active' }).where('hostname', '=', 'go.brand.example').execute();
    const res = await t.app.inject({ method: 'GET', url: '/', headers: { host: 'go.brand.example' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<h1>Snip</h1>');
    expect(res.body).toContain('href="http://snip.test/openapi.yaml"');
    expect(res.body).toContain('href="http://snip.test/docs"');
    // The quick start names this server's own address.
    expect(res.body).toContain('http://snip.test/api/v1/links');
  });

  it('serves /favicon.ico as an image, not a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.body).toMatch(/^<svg /);
  });

  it('serves the interactive API reference at /docs from the package (no CDN)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger');
    expect(res.body).not.toMatch(/src="https?:\/\//);
    const spec = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(spec.statusCode).toBe(200);
    expect(spec.json()).toHaveProperty('paths./api/v1/links');
  });
});

describe('GET / with ROOT_REDIRECT', () => {
  const t = useTestApp({ ROOT_REDIRECT: 'https://example.org/welcome?from=snip' });

  it('sends visitors to the operator\'s page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: { host: 'snip.test' } });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://example.org/welcome?from=snip');
  });
});
