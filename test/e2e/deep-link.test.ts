import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, removeDir, startServer, tempDir, type ServerProcess } from '../helpers/processes.js';
import { expectOneH1, hasChromium, launch } from './browser.js';

/**
 * A deep link survives signing in: a signed-out person who opens /app/webhooks?x=1 signs in and lands there, not on
 * the links. The page to return to rides in the sign-in page's address (`?next=`), which anyone can write, so only
 * a dashboard page of Snip's own origin is followed: never another host, scheme or a path out of /app.
 */
describe.skipIf(!hasChromium)('deep links across sign-in, in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let dataDir: string;
  const email = 'deep-linker@example.com';
  const password = 'correct horse battery';

  beforeAll(async () => {
    dataDir = tempDir('snip-e2e-deep-');
    server = await startServer({ DATA_DIR: dataDir, PUBLIC_REQUESTS_PER_MINUTE: 'unlimited' });
    const made = await fetch(`${server.url}/api/auth/sign-up`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    expect(made.status).toBe(201);
    browser = await launch();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await killAll();
    removeDir(dataDir);
  });

  const fresh = async (): Promise<Page> => (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  const origin = () => new URL(server.url).origin;
  const fillAndSubmit = async (page: Page, button: 'Sign in' | 'Sign up', who = email) => {
    // The form that will be sent, not the one a router transition still shows (see signUp in browser.ts).
    await page.getByRole('button', { name: button }).waitFor();
    await page.getByLabel('Email').fill(who);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: button }).click();
  };

  it('leads a signed-out person from /app/webhooks?x=1 to sign in, then back to /app/webhooks?x=1', { timeout: 60_000 }, async () => {
    const page = await fresh();
    await page.goto(`${server.url}/app/webhooks?x=1`);
    await page.waitForURL((url) => url.pathname === '/app/sign-in');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/app/webhooks?x=1');
    await fillAndSubmit(page, 'Sign in');
    await page.waitForURL((url) => url.pathname === '/app/webhooks');
    expect(page.url()).toBe(`${origin()}/app/webhooks?x=1`);
    await expectOneH1(page, 'Webhooks');
    // Signed in already, the sign-in address with a next leads there at once.
    await page.goto(`${server.url}/app/sign-in?next=${encodeURIComponent('/app/keys')}`);
    await page.waitForURL((url) => url.pathname === '/app/keys');
    await expectOneH1(page, 'API keys');
    // Signing out by choice is no deep link: the sign-in page carries no `next`, and signing in opens the links.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/app/sign-in');
    expect(page.url()).toBe(`${origin()}/app/sign-in`);
    await fillAndSubmit(page, 'Sign in');
    await page.waitForURL((url) => url.pathname === '/app/links');
    await page.context().close();
  });

  it('keeps the page asked for through "Create an account" and sign-up', { timeout: 60_000 }, async () => {
    const page = await fresh();
    await page.goto(`${server.url}/app/domains`);
    await page.waitForURL((url) => url.pathname === '/app/sign-in');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL((url) => url.pathname === '/app/sign-up');
    await fillAndSubmit(page, 'Sign up', 'deep-newcomer@example.com');
    await page.waitForURL((url) => url.pathname === '/app/domains');
    await page.context().close();
  });

  // Nine sign-ins in fresh browser contexts: over 120 s on a loaded CI machine.
  it('opens the links, and no other site, whatever else `next` says', { timeout: 300_000 }, async () => {
    const hostile = [
      '//evil.test/app/webhooks',
      'https://evil.test/app/webhooks',
      '/app/../x',
      '/app/%2e%2e/x',
      '/app//evil.test',
      '/app/\\evil.test',
      '/\\evil.test',
      'javascript:alert(1)',
      '/app/sign-in',
    ];
    const left: string[] = [];
    const watch = (page: Page) =>
      page.on('request', (request) => {
        if (new URL(request.url()).origin !== origin()) left.push(request.url());
      });
    // Signing in with the form, and arriving at the sign-in page signed in already: both lead to the links.
    const signedIn = await fresh();
    watch(signedIn);
    for (const next of hostile) {
      const page = await fresh();
      watch(page);
      await page.goto(`${server.url}/app/sign-in?next=${encodeURIComponent(next)}`);
      await fillAndSubmit(page, 'Sign in');
      await page.waitForURL((url) => url.pathname === '/app/links');
      expect(page.url(), next).toBe(`${origin()}/app/links`);
      await page.context().close();

      await signedIn.goto(`${server.url}/app/sign-in?next=${encodeURIComponent(next)}`);
      if (next === hostile[0]) await fillAndSubmit(signedIn, 'Sign in');
      await signedIn.waitForURL((url) => url.pathname === '/app/links');
      expect(signedIn.url(), next).toBe(`${origin()}/app/links`);
    }
    expect(left).toEqual([]);
    await signedIn.context().close();
  });
});
