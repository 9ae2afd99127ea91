import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, removeDir, runCli, startServer, tempDir, type ServerProcess } from '../helpers/processes.js';
import { BROWSER_UA, expectOneH1, hasChromium, launch, PHONE, signIn, signUp } from './browser.js';

/**
 * The dashboard as a person uses it: Debian's Chromium against the server started as `npm start` starts it
 * (node dist/main.js, with the dashboard built into dist/app), by role and label only.
 */
describe.skipIf(!hasChromium)('the dashboard in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let dataDir: string;
  const email = 'newcomer@example.com';
  const password = 'correct horse battery';
  let shortUrl = '';

  beforeAll(async () => {
    dataDir = tempDir('snip-e2e-');
    server = await startServer({ DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE: 'true', PUBLIC_REQUESTS_PER_MINUTE: 'unlimited'});
    browser = await launch();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await killAll();
    removeDir(dataDir);
  });

  const base = () => server.url;
  const fresh = async (options = {}): Promise<Page> => (await browser.newContext(options)).newPage();

  it('signs up, creates an API key and a link, counts a visit in the chart, files a folder, and signs out and in', { timeout: 120_000 }, async () => {
    const page = await fresh({ viewport: { width: 1280, height: 900 } });
    await signUp(page, base(), email, password);
    await expectOneH1(page, 'Links');

    // An API key, shown once.
    await page.getByRole('link', { name: 'API keys' }).click();
    await expectOneH1(page, 'API keys');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const key = await page.getByRole('dialog').getByText(/^snip_/).textContent();
    expect(key).toMatch(/^snip_[A-Za-z0-9]+$/);
    await page.getByRole('button', { name: 'Done' }).click();
    // Sign-up made the first key, as `users create` does; this is the second.
    await expect.poll(() => page.getByRole('cell', { name: /^snip_/ }).count()).toBe(2);

    // A link: its short URL appears as text in the list.
    await page.getByRole('link', { name: 'Links', exact: true }).click();
    await page.getByLabel('Destination URL').fill('https://example.com/a/long/page');
    await page.getByRole('button', { name: 'Create link' }).click();
    const inList = page.getByRole('list', { name: 'Your links' }).getByRole('link', { name: /^http:\/\/(localhost|127\.0\.0\.1):\d+\/[A-Za-z0-9]{6}$/ });
    await inList.waitFor();
    shortUrl = (await inList.textContent())!;

    // A visit, as a browser makes it, is counted and charted on the link's page.
    const visit = await fetch(shortUrl, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA } });
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toBe('https://example.com/a/long/page');
    await inList.click();
    await expectOneH1(page, shortUrl.split('/').pop()!);
    // The link's page refreshes its numbers by itself (a reload would only restart the wait on a slow machine).
    await expect.poll(() => page.getByTestId('Total clicks').textContent(), { timeout: 20_000, interval: 500 }).toBe('1');
    await expect.poll(() => page.getByRole('img', { name: /Clicks per day/ }).count()).toBe(1);
    await page.getByText('desktop').first().waitFor();

    // A folder.
    await page.getByRole('link', { name: 'Folders' }).click();
    await expectOneH1(page, 'Folders');
    await page.getByLabel('Folder name').fill('Campaigns');
    await page.getByRole('button', { name: 'Create folder' }).click();
    await page.getByRole('list', { name: 'Your folders' }).getByText('Campaigns').waitFor();

    // Edit the link: file it in the folder and tag it; the Tags page then counts it.
    await page.getByRole('link', { name: 'Links', exact: true }).click();
    await expectOneH1(page, 'Links');
    await page.getByRole('button', { name: `Actions for ${shortUrl}` }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Folder', { exact: true }).click();
    await page.getByRole('option', { name: 'Campaigns' }).click();
    await dialog.getByLabel('Tags', { exact: true }).fill('launch');
    await dialog.getByLabel('Tags', { exact: true }).press('Enter');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('list', { name: 'Your links' }).getByRole('listitem');
    await row.getByText('launch', { exact: true }).waitFor();
    await row.getByText('Campaigns', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Tags' }).click();
    await expectOneH1(page, 'Tags');
    await page.getByRole('link', { name: '1 link tagged launch' }).click();
    await expectOneH1(page, 'Links');
    await page.getByRole('list', { name: 'Your links' }).getByText(shortUrl, { exact: true }).waitFor();

    // Sign out from the account menu, then back in: the link is still there.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/app\/sign-in$/);
    await page.goto(`${base()}/app/links`);
    await page.waitForURL(/\/app\/sign-in$/);
    await signIn(page, base(), email, password);
    await page.getByRole('list', { name: 'Your links' }).getByText(shortUrl, { exact: true }).waitFor();
    await page.context().close();
  });

  it('on a paid plan, creates a webhook with its secret shown once and adds a domain with its DNS records', { timeout: 120_000 }, async () => {
    const tier = await runCli(['users', 'set-tier', '--email', email, '--tier', 'pro'], { DATA_DIR: dataDir });
    expect(tier.code, tier.stderr).toBe(0);
    const page = await fresh({ viewport: { width: 1280, height: 900 } });
    await signIn(page, base(), email, password);

    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expectOneH1(page, 'Webhooks');
    await page.getByLabel('Endpoint URL').fill(`http://127.0.0.1:8099/hooks/snip`);
    await page.getByRole('checkbox', { name: 'link.deleted' }).check();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const secret = await page.getByTestId('webhook-secret').textContent();
    expect(secret?.length).toBeGreaterThan(10);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('list', { name: 'Your webhooks' }).getByText(`http://127.0.0.1:8099/hooks/snip`).waitFor();

    await page.getByRole('link', { name: 'Domains' }).click();
    await expectOneH1(page, 'Domains');
    await page.getByLabel('Domain').fill('links.example.org');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByText('_snip-verify.links.example.org').waitFor();
    await page.getByText(/^snip-verify=[0-9a-f]+$/).waitFor();
    await page.getByRole('button', { name: 'Verify' }).waitFor();
    await page.context().close();
  });

  it('every page has one h1 and no control without a name', { timeout: 120_000 }, async () => {
    const page = await fresh({ viewport: { width: 1280, height: 900 } });
    await signIn(page, base(), email, password);
    const pages = ['links', 'import', 'folders', 'tags', 'utm-templates', 'domains', 'webhooks', 'keys', 'account', `links/${shortUrl.split('/').pop()}`];
    for (const path of pages) {
      await page.goto(`${base()}/app/${path}`);
      await expectOneH1(page);
      const unnamed = await page.evaluate(() =>
        [...document.querySelectorAll('input:not([type=hidden]), select, textarea, button')]
          .filter((el) => {
            const e = el as HTMLInputElement;
            const labelled = e.labels?.length || e.getAttribute('aria-label') || e.getAttribute('aria-labelledby') || (e.tagName === 'BUTTON' && e.textContent?.trim());
            return !labelled && !e.closest('[aria-hidden=true]') && e.offsetParent !== null;
          })
          .map((el) => el.outerHTML.slice(0, 120)),
      );
      expect(unnamed, path).toEqual([]);
    }
    await page.context().close();
  });

  it('works on a 390 px phone: the links page fits, creates a link, and the navigation opens from its button', { timeout: 120_000 }, async () => {
    const page = await fresh(PHONE);
    await signIn(page, base(), email, password);
    await expectOneH1(page, 'Links');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(391);
    await page.getByLabel('Destination URL').fill('https://example.com/from/a/phone');
    await page.getByRole('button', { name: 'Create link' }).click();
    await page.getByRole('list', { name: 'Your links' }).getByText('https://example.com/from/a/phone').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(391);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('link', { name: 'Folders' }).click();
    await expectOneH1(page, 'Folders');
    await page.context().close();
  });
});
