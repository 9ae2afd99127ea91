import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';

/** A stand-in build (the real one is made by scripts/build.mjs and driven in Chromium by test/e2e). */
const built = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-app-'));
beforeAll(() => {
  fs.mkdirSync(path.join(built, 'assets'));
  fs.writeFileSync(path.join(built, 'index.html'), '<!doctype html><title>Snip</title><div id="root"></div><script type="module" src="/app/assets/index-abc123.js"></script>');
  fs.writeFileSync(path.join(built, 'assets', 'index-abc123.js'), 'console.log("dashboard")');
});
afterAll(() => fs.rmSync(built, { recursive: true, force: true }));

describe('the dashboard at /app', () => {
  const t = useTestApp({ DASHBOARD_DIR: built });

  it('answers its page at /app and at any address under it, so reloads and shared links open', async () => {
    for (const url of ['/app', '/app/', '/app/links', '/app/links/ns/slug', '/app/keys?x=1']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('runs only its own scripts: a CSP of self, no framing', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/app/links' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('serves hashed assets for a year, and 404s for an unknown one', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/app/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.body).toContain('dashboard');
    const missing = await t.app.inject({ method: 'GET', url: '/app/assets/nope.js' });
    expect(missing.statusCode).toBe(404);
    const escape = await t.app.inject({ method: 'GET', url: '/app/assets/..%2f..%2fpackage.json' });
    expect(escape.statusCode).toBe(404);
  });

  it('keeps app out of the namespaces people may claim', async () => {
    const user = await t.createUser('pro');
    const res = await t.as(user, { method: 'PUT', url: '/api/user/namespace', payload: { namespace: 'app' } });
    expect(res.statusCode).toBe(400);
  });
});

describe('without a built dashboard', () => {
  const t = useTestApp({ DASHBOARD_DIR: path.join(built, 'missing') });

  it('says how to build it instead of a blank page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/app' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
  });
});
