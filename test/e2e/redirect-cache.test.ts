import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectName, sharedDatabase } from '../helpers/databases.js';
import { bearer, killAll, request, runCli, startServer, type ServerProcess } from '../helpers/processes.js';
import { BROWSER_UA, hasChromium, launch } from './browser.js';

/**
 * Issue 27: with REDIRECT_STATUS=301, Chromium made three visits of a short link and Snip counted one, because it kept
 * the 301 (it keeps a permanent redirect that says nothing about caching for ever) and went straight to the
 * destination; an edited link kept leading to its old destination. Here the built server answers 301 with a
 * Cache-Control that forbids storing, and one browser context visits a link three times: three clicks, and the edit
 * takes effect on the next visit.
 */
describe.skipIf(!hasChromium)(`a 301 short link in Chromium: every visit reaches Snip (${dialectName})`, () => {
  let server: ServerProcess;
  let browser: Browser;
  let destination: http.Server;
  let cleanup: () => Promise<void>;
  let landing: string;
  let key: string;
  /** The paths the destination server was asked for. */
  const landed: string[] = [];

  beforeAll(async () => {
    destination = http.createServer((req, res) => {
      landed.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Landed</title><h1>${req.url === '/second' ? 'Second' : 'First'}</h1>`);
    });
    await new Promise<void>((resolve) => destination.listen(0, '127.0.0.1', resolve));
    // BASE_URL names another host, so a loopback destination is no loop back to Snip (src/links/rules.ts).
    landing = `http://127.0.0.1:${(destination.address() as AddressInfo).port}`;
    const shared = await sharedDatabase();
    cleanup = shared.cleanup;
    const created = await runCli(['users', 'create', '--email', 'redirect-cache@example.com', '--tier', 'pro'], shared.env);
    expect(created.code, created.stderr).toBe(0);
    key = String(JSON.parse(created.stdout).apiKey);
    server = await startServer({ ...shared.env, BASE_URL: 'http://snip.test', REDIRECT_STATUS: '301', PUBLIC_REQUESTS_PER_MINUTE: 'unlimited' });
    browser = await launch();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await killAll();
    await new Promise((resolve) => destination?.close(resolve));
    await cleanup?.();
  });

  const clicks = async (code: string): Promise<number> => {
    const res = await request(server.url, { method: 'GET', path: `/api/v1/links/${code}`, headers: bearer(key) });
    expect(res.status).toBe(200);
    return Number(res.json().clicks);
  };

  /** One visit typed into the address bar: where the browser ends, and the 301 it followed on the way. */
  const follow = async (page: Page, code: string) => {
    const response = await page.goto(`${server.url}/${code}`);
    const hop = response?.request().redirectedFrom();
    const redirect = hop ? await hop.response() : null;
    return { url: page.url(), redirect: redirect ? { status: redirect.status(), cacheControl: redirect.headers()['cache-control'] } : null };
  };

  it('counts three visits of one context as three clicks, and follows an edit at once', { timeout: 90_000 }, async () => {
    const made = await request(server.url, { method: 'POST', path: '/api/v1/links', headers: bearer(key), body: { url: `${landing}/first` } });
    expect(made.status, made.body).toBe(201);
    const code = String(made.json().shortCode);

    // A real browser's User-Agent: headless Chromium's own says it is a bot, whose visits are never counted.
    const context: BrowserContext = await browser.newContext({ userAgent: BROWSER_UA });
    const page = await context.newPage();
    for (let visit = 1; visit <= 3; visit++) {
      const seen = await follow(page, code);
      expect(seen.url, `visit ${visit}`).toBe(`${landing}/first`);
      // Had the browser reused a kept 301, no request would have reached Snip and there would be no hop to see.
      expect(seen.redirect, `visit ${visit}`).toEqual({ status: 301, cacheControl: expect.stringContaining('no-store') });
    }
    await expect.poll(() => clicks(code), { timeout: 10_000 }).toBe(3);
    expect(landed.filter((path) => path === '/first')).toHaveLength(3);

    const edited = await request(server.url, { method: 'PATCH', path: `/api/v1/links/${code}`, headers: bearer(key), body: { url: `${landing}/second` } });
    expect(edited.status, edited.body).toBe(200);
    const after = await follow(page, code);
    expect(after.url).toBe(`${landing}/second`);
    expect(await page.locator('h1').textContent()).toBe('Second');
    await expect.poll(() => clicks(code), { timeout: 10_000 }).toBe(4);
    await context.close();
  });
});
