import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, killAll, removeDir, request, runCli, startServer, tempDir, type ServerProcess } from '../helpers/processes.js';
import { check, DESKTOP, openPage, visit as visitPage } from './axe-tour.js';
import { BROWSER_UA, hasChromium, launch, PHONE, signIn } from './browser.js';

/**
 * axe (WCAG 2.1 A and AA) on every page of the dashboard and its dialogs, at desktop and phone widths, in the light
 * and the dark scheme: nothing critical or serious. One test gathers every state's findings, so a failure lists them
 * all at once, each headed by its page, width and scheme.
 */

/** Every page behind the sign-in; `:link` stands for the link's own page. A new page is one more line. */
const PAGES = ['/links', '/links/:link', '/import', '/folders', '/tags', '/utm-templates', '/domains', '/webhooks', '/keys', '/account', '/admin', '/no-such-page'];
/** The pages whose content changes with the plan, seen again by a member on the free plan. */
const MEMBER_PAGES = ['/links', '/import', '/domains', '/webhooks', '/keys', '/account', '/admin'];

describe.skipIf(!hasChromium)('accessibility of the dashboard (axe, WCAG 2.1 AA)', () => {
  let server: ServerProcess;
  let browser: Browser;
  let dataDir: string;
  const operator = { email: 'operator@example.com', password: 'correct horse battery' };
  const member = { email: 'member@example.com', password: 'staple battery horse' };
  let shortPath = '';

  const base = () => server.url;
  const api = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await request(base(), { method, path, headers: bearer(key), body });
    expect(res.status, `${method} ${path}: ${res.body}`).toBeLessThan(300);
    return JSON.parse(res.body || '{}') as Record<string, unknown>;
  };

  beforeAll(async () => {
    dataDir = tempDir('snip-a11y-');
    server = await startServer({ DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE: 'true', PUBLIC_REQUESTS_PER_MINUTE: 'unlimited' });
    browser = await launch();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await killAll();
    removeDir(dataDir);
  });

  const open = (options: BrowserContextOptions) => openPage(browser, options);
  const visit = (page: Page, path: string) => visitPage(page, base(), path.replace(':link', shortPath));

  /** The sign-in page, then the sign-up page it links to, in a signed-out page. */
  const signedOutPages = async (page: Page, width: string, found: string[]) => {
    await page.goto(`${base()}/app/sign-in`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await check(page, `${width} sign-in`, found);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('button', { name: 'Sign up' }).waitFor();
    await check(page, `${width} sign-up`, found);
  };

  /** Every page, the navigation, the account menu and the dialogs, as the signed-in operator sees them. */
  const operatorTour = async (page: Page, width: string, found: string[]) => {
    // The first Tab reaches the skip link, which leads past the header and navigation to the page.
    await visit(page, '/links');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');

    for (const path of PAGES) {
      await visit(page, path);
      await check(page, `${width} ${path}`, found);
    }

    // The navigation names Admin for the operator; on a phone it opens from its button.
    if (width === 'phone') await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('link', { name: 'Admin' }).waitFor();
    if (width === 'phone') {
      await check(page, `${width} navigation open`, found);
      await page.getByRole('button', { name: 'Close navigation' }).click();
    }

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menu').waitFor();
    await check(page, `${width} account menu`, found);
    await page.keyboard.press('Escape');

    // A link's actions menu and its edit dialog.
    await visit(page, '/links');
    await page.getByRole('button', { name: /^Actions for / }).first().click();
    await page.getByRole('menu').waitFor();
    await check(page, `${width} /links actions menu`, found);
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await page.getByRole('dialog').waitFor();
    await check(page, `${width} /links edit dialog`, found);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // Dialogs: a confirmation before a delete, an API key shown once, and a notification (toast).
    await visit(page, '/folders');
    await page.getByRole('button', { name: 'Delete folder Campaigns' }).click();
    await page.getByRole('dialog').waitFor();
    await check(page, `${width} /folders confirm delete`, found);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.getByLabel('Folder name').fill(`Shown on ${width}`);
    await page.getByRole('button', { name: 'Create folder' }).click();
    await page.getByText(`Folder Shown on ${width} created`).waitFor();
    await check(page, `${width} notification`, found);

    await visit(page, '/keys');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`Checked on ${width}`);
    await page.getByRole('button', { name: 'Create API key' }).click();
    await page.getByRole('dialog').waitFor();
    await check(page, `${width} /keys new key`, found);
  };

  it('finds nothing critical or serious on any page or dialog, at both widths, in light and dark', { timeout: 420_000 }, async () => {
    const found: string[] = [];

    // The first account, made in the browser, is the operator's.
    const desktop = await open(DESKTOP);
    await signedOutPages(desktop, 'desktop', found);
    await desktop.getByLabel('Email').fill(operator.email);
    await desktop.getByLabel('Password').fill(operator.password);
    await desktop.getByRole('button', { name: 'Sign up' }).click();
    await desktop.waitForURL(/\/app\/links$/);

    // Data for every page to show: a link with a click, a folder, a tag, a UTM template, a webhook, a domain and a
    // second API key.
    const tier = await runCli(['users', 'set-tier', '--email', operator.email, '--tier', 'pro'], { DATA_DIR: dataDir });
    expect(tier.code, tier.stderr).toBe(0);
    const created = await runCli(['keys', 'create', '--email', operator.email], { DATA_DIR: dataDir });
    expect(created.code, created.stderr).toBe(0);
    const key = String((JSON.parse(created.stdout) as { apiKey: string }).apiKey);
    const folder = await api('POST', '/api/v1/folders', key, { name: 'Campaigns', color: '#4263eb' });
    const link = await api('POST', '/api/v1/links', key, { url: 'https://example.com/a/long/page', folderId: folder.id });
    shortPath = String(link.shortCode);
    await api('POST', `/api/v1/links/${encodeURIComponent(shortPath)}/tags`, key, { tag: 'launch' });
    await api('POST', '/api/v1/utm-templates', key, { name: 'Newsletter', utmSource: 'newsletter', utmMedium: 'email' });
    await api('POST', '/api/v1/webhooks', key, { url: 'http://127.0.0.1:8099/hooks/snip', events: ['link.click'] });
    await api('POST', '/api/user/domains', key, { domain: 'links.example.org' });
    const click = await fetch(`${base()}/${shortPath}`, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA } });
    expect(click.status).toBe(302);
    // The second account is a member's, there before the tours start, so the Admin page always lists two.
    const second = await request(base(), { method: 'POST', path: '/api/auth/sign-up', body: member });
    expect(second.status, second.body).toBeLessThan(300);

    // Three browsers' worth at once (most of each is waiting on the server): the operator at each width, and a
    // member on the free plan, whose pages explain what the plan does not include, and who has no Admin.
    const phoneTour = async () => {
      const phone = await open(PHONE);
      await signedOutPages(phone, 'phone', found);
      await signIn(phone, base(), operator.email, operator.password);
      await operatorTour(phone, 'phone', found);
    };
    const memberTour = async () => {
      const page = await open(DESKTOP);
      await signIn(page, base(), member.email, member.password);
      for (const path of MEMBER_PAGES) {
        await visit(page, path);
        await check(page, `member ${path}`, found);
      }
      expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    };
    await Promise.all([operatorTour(desktop, 'desktop', found), phoneTour(), memberTour()]);

    expect(found.sort()).toEqual([]);
  });

  it("paints a dark system's page dark before the dashboard's script has run (no white flash)", async () => {
    const page = await (await browser.newContext({ colorScheme: 'dark' })).newPage();
    // The script never arrives: what shows is what index.html paints on its own.
    await page.route('**/app/assets/*.js', (route) => route.abort());
    await page.goto(`${base()}/app/sign-in`);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(36, 36, 36)');
    // A light system keeps the browser's white page (the body is transparent until Mantine's variables arrive).
    await page.emulateMedia({ colorScheme: 'light' });
    expect(['rgb(255, 255, 255)', 'rgba(0, 0, 0, 0)']).toContain(await page.evaluate(() => getComputedStyle(document.body).backgroundColor));
    await page.context().close();
  });
});
