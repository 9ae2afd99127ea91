import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Browser, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { bearer, killAll, removeDir, request, runCli, startServer, tempDir, type ServerProcess } from '../helpers/processes.js';
import { approve, CallbackServer, MemoryOAuthClient } from '../oauth/helpers.js';
import { check, DESKTOP, openPage, visit } from './axe-tour.js';
import { BROWSER_UA, hasChromium, launch, PHONE, signIn, signUp } from './browser.js';

/**
 * axe (WCAG 2.1 A and AA) on the dashboard's dialogs and passing states that accessibility.test.ts does not open:
 * every edit dialog and delete confirmation, the webhook's secret and deliveries, the import's preview and results,
 * the links list's filters and "Save view", a link the operator disabled, and the free plan's pages. Each at 1280 and
 * 390 px, in the light and the dark scheme: nothing critical or serious. Dialogs are cancelled, never confirmed, so
 * both widths tour the same data at once.
 */

/** The pages whose content changes with the plan, as a member on the free plan sees them. */
const MEMBER_PAGES = ['/links', '/import', '/domains', '/webhooks', '/keys', '/account'];

describe.skipIf(!hasChromium)('accessibility of the dashboard dialogs (axe, WCAG 2.1 AA)', () => {
  let server: ServerProcess;
  let browser: Browser;
  let receiver: Receiver;
  let dataDir: string;
  const callback = new CallbackServer();
  const operator = { email: 'operator@example.com', password: 'correct horse battery' };
  const member = { email: 'member@example.com', password: 'staple battery horse' };
  const links = { shown: '', disabled: '', url: 'https://example.com/a/long/page' };

  const base = () => server.url;
  const api = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await request(base(), { method, path, headers: bearer(key), body });
    expect(res.status, `${method} ${path}: ${res.body}`).toBeLessThan(300);
    return JSON.parse(res.body || '{}') as Record<string, unknown>;
  };
  /** A call as the page's signed-in session makes it (cookie and CSRF token): the Admin API takes no key. */
  const asSession = async (page: Page, method: string, path: string, data?: object) => {
    const { csrfToken } = (await (await page.request.get(`${base()}/api/auth/session`)).json()) as { csrfToken: string };
    const res = await page.request.fetch(`${base()}${path}`, { method, data, headers: { 'x-csrf-token': csrfToken } });
    expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  };

  beforeAll(async () => {
    dataDir = tempDir('snip-a11y-dialogs-');
    receiver = await startReceiver();
    await callback.start();
    server = await startServer({ DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE: 'true', PUBLIC_REQUESTS_PER_MINUTE: 'unlimited' });
    browser = await launch();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await killAll();
    await callback.close();
    await receiver?.close();
    removeDir(dataDir);
  });

  /** Everything the tours open: links (one disabled), a tag, a folder, a template, a webhook with deliveries, a domain, namespaces, an OAuth connection. */
  const makeData = async (signedIn: Page) => {
    const tier = await runCli(['users', 'set-tier', '--email', operator.email, '--tier', 'pro'], { DATA_DIR: dataDir });
    expect(tier.code, tier.stderr).toBe(0);
    const created = await runCli(['keys', 'create', '--email', operator.email], { DATA_DIR: dataDir });
    expect(created.code, created.stderr).toBe(0);
    const key = String((JSON.parse(created.stdout) as { apiKey: string }).apiKey);

    // The first delivery is answered, the later ones fail: the log shows both.
    const endpoint = receiver.endpoint('/hooks/orders', (_request, nth) => (nth === 1 ? 200 : 500));
    await api('POST', '/api/v1/webhooks', key, { url: endpoint, name: 'Orders', events: ['link.created', 'link.click'] });
    const folder = await api('POST', '/api/v1/folders', key, { name: 'Campaigns', color: '#4263eb' });
    const shown = await api('POST', '/api/v1/links', key, { url: links.url, folderId: folder.id });
    links.shown = String(shown.shortCode);
    await api('POST', `/api/v1/links/${encodeURIComponent(links.shown)}/tags`, key, { tag: 'launch' });
    const click = await fetch(`${base()}/${links.shown}`, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA } });
    expect(click.status).toBe(302);
    const disabled = await api('POST', '/api/links', key, { url: 'https://example.com/reported' });
    links.disabled = String(disabled.shortCode);
    await asSession(signedIn, 'POST', `/api/admin/links/${String(disabled.id)}/disable`, { reason: 'Reported as phishing' });
    await api('POST', '/api/v1/utm-templates', key, { name: 'Newsletter', utmSource: 'newsletter', utmMedium: 'email' });
    await api('POST', '/api/user/domains', key, { domain: 'links.example.org' });

    // A namespace held with no links left, so Release is offered: it kept its place only while its link lived.
    await api('PUT', '/api/user/namespace', key, { namespace: 'spring' });
    const slugged = await api('POST', '/api/v1/links', key, { url: 'https://example.com/spring', customSlug: 'sale' });
    await api('PUT', '/api/user/namespace', key, { namespace: 'summer' });
    await api('DELETE', `/api/links/${encodeURIComponent(String(slugged.fullPath))}`, key);

    // An assistant connected by OAuth, as an MCP client connects: the SDK registers it and the owner allows it.
    const oauth = new MemoryOAuthClient(callback.url, 'Test Assistant');
    expect(await auth(oauth, { serverUrl: new URL(`http://localhost:${server.port}/mcp`) })).toBe('REDIRECT');
    const consent = await openPage(browser, DESKTOP);
    await approve(consent, callback.seen, oauth.authorizationUrl!, 'Allow', operator);
    await consent.context().close();

    await expect.poll(() => receiver.to('/hooks/orders').length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  };

  /** Opens a dialog with `opener`, checks it, and closes it again without doing anything. */
  const dialog = async (page: Page, opener: Locator, state: string, found: string[], close: 'Cancel' | 'Escape' = 'Cancel') => {
    await opener.click();
    const open = page.getByRole('dialog');
    await open.waitFor();
    await page.waitForLoadState('networkidle');
    await check(page, state, found);
    if (close === 'Escape') await page.keyboard.press('Escape');
    else await open.getByRole('button', { name: 'Cancel' }).click();
    await open.waitFor({ state: 'detached' });
  };

  const operatorTour = async (page: Page, width: string, found: string[]) => {
    await visit(page, base(), '/folders');
    await dialog(page, page.getByRole('button', { name: 'Edit folder Campaigns' }), `${width} folder edit`, found, 'Escape');

    await visit(page, base(), '/utm-templates');
    await dialog(page, page.getByRole('button', { name: 'Edit template Newsletter' }), `${width} UTM template edit`, found, 'Escape');
    await dialog(page, page.getByRole('button', { name: 'Delete template Newsletter' }), `${width} UTM template delete`, found);

    await visit(page, base(), '/tags');
    await check(page, `${width} /tags`, found);
    await dialog(page, page.getByRole('button', { name: 'Rename tag launch' }), `${width} tag rename`, found);
    await dialog(page, page.getByRole('button', { name: 'Delete tag launch' }), `${width} tag delete`, found);

    await visit(page, base(), '/domains');
    await page.getByRole('region', { name: 'DNS records for links.example.org' }).waitFor();
    await check(page, `${width} /domains with DNS records`, found);
    await dialog(page, page.getByRole('button', { name: 'Delete links.example.org' }), `${width} domain delete`, found);

    await visit(page, base(), '/keys');
    await dialog(page, page.getByRole('button', { name: /^Revoke key / }).first(), `${width} API key revoke`, found);

    await visit(page, base(), '/webhooks');
    await dialog(page, page.getByRole('button', { name: 'Edit webhook Orders' }), `${width} webhook edit`, found, 'Escape');
    await page.getByRole('button', { name: 'Deliveries of Orders' }).click();
    await page.getByRole('dialog', { name: 'Deliveries of Orders' }).getByText('delivered', { exact: true }).first().waitFor();
    await check(page, `${width} webhook deliveries`, found);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await dialog(page, page.getByRole('button', { name: 'Delete webhook Orders' }), `${width} webhook delete`, found);
    await page.getByLabel('Endpoint URL').fill(receiver.endpoint(`/hooks/${width}`));
    await page.getByRole('checkbox', { name: 'link.created' }).check();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByRole('dialog', { name: 'Webhook created' }).getByTestId('webhook-secret').waitFor();
    await check(page, `${width} webhook created (secret)`, found);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await visit(page, base(), '/import');
    const csv = `url,maxClicks,Notes\nhttps://example.com/imported/${width},5,first\nhttps://example.com/imported/bad,abc,a typo\n`;
    await page.locator('input[type=file]').setInputFiles({ name: `${width}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('table', { name: 'Rows of the file' }).getByText('is not a whole number', { exact: false }).waitFor();
    await check(page, `${width} import preview`, found);
    await page.getByRole('button', { name: 'Import 1 link' }).click();
    await page.getByRole('status').filter({ hasText: '1 of 1 link sent · 1 created · 0 failed' }).waitFor();
    await check(page, `${width} import results`, found);

    await visit(page, base(), '/links');
    if (width === 'phone') {
      await page.getByRole('button', { name: 'Filters' }).click();
      await page.getByLabel('Search').waitFor();
      await check(page, `${width} /links filters open`, found);
    }
    await page.getByRole('button', { name: 'Save these filters as a view' }).click();
    await page.getByRole('textbox', { name: 'View name' }).waitFor();
    await check(page, `${width} /links save view`, found);
    await page.keyboard.press('Escape');
    await page.getByRole('textbox', { name: 'View name' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: new RegExp(`^Actions for .*/${links.shown}$`) }).click();
    await dialog(page, page.getByRole('menuitem', { name: 'Delete' }), `${width} /links delete`, found);

    await visit(page, base(), `/links/${links.shown}`);
    await dialog(page, page.getByRole('button', { name: 'Delete', exact: true }), `${width} link page delete`, found);
    await visit(page, base(), `/links/${links.disabled}`);
    await page.getByText('Disabled by the operator: Reported as phishing', { exact: true }).waitFor();
    await check(page, `${width} link page disabled`, found);

    await visit(page, base(), '/account');
    await dialog(page, page.getByRole('button', { name: 'Release namespace spring' }), `${width} namespace release`, found);
    await dialog(page, page.getByRole('button', { name: 'Disconnect Test Assistant' }), `${width} connected app disconnect`, found);
  };

  const memberTour = async (options: BrowserContextOptions, width: string, found: string[]) => {
    const page = await openPage(browser, options);
    await signIn(page, base(), member.email, member.password);
    for (const path of MEMBER_PAGES) {
      await visit(page, base(), path);
      await check(page, `${width} member ${path}`, found);
    }
    await page.context().close();
  };

  it('finds nothing critical or serious in any dialog or state, at both widths, in light and dark', { timeout: 400_000 }, async () => {
    const found: string[] = [];
    // The first account, made in the browser, is the operator's; the second, a member's on the free plan.
    const desktop = await openPage(browser, DESKTOP);
    await signUp(desktop, base(), operator.email, operator.password);
    const second = await request(base(), { method: 'POST', path: '/api/auth/sign-up', body: member });
    expect(second.status, second.body).toBeLessThan(300);
    await makeData(desktop);

    const tour = async (options: BrowserContextOptions, width: string, page?: Page) => {
      const signedIn = page ?? (await openPage(browser, options));
      if (!page) await signIn(signedIn, base(), operator.email, operator.password);
      await operatorTour(signedIn, width, found);
    };
    // The member's pages at 1280 px are accessibility.test.ts's.
    await Promise.all([tour(DESKTOP, 'desktop', desktop), (async () => {
      await tour(PHONE, 'phone');
      await memberTour(PHONE, 'phone', found);
    })()]);

    expect(found.sort()).toEqual([]);
  });
});
