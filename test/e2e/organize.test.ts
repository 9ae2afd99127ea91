import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, removeDir, runCli, startServer, tempDir, type ServerProcess } from '../helpers/processes.js';
import { expectNoSeriousViolations, expectOneH1, hasChromium, launch, PHONE, signIn, signUp } from './browser.js';

/**
 * Organizing in the dashboard (issue 29): an import that shows its rows before it creates anything, webhooks that
 * can be edited, tags renamed and deleted across links, DNS guidance that fits a server on an IP address, and
 * refusals in people's words. Chromium against the shipped server, by role and label.
 */
describe.skipIf(!hasChromium)('organizing links in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let dataDir: string;
  const email = 'organizer@example.com';
  const password = 'correct horse battery';

  beforeAll(async () => {
    dataDir = tempDir('snip-e2e-organize-');
    // BASE_URL on an IP address (the server's own loopback, so the page's host is Snip's), and no WEBHOOK_ALLOW_PRIVATE.
    server = await startServer({ DATA_DIR: dataDir, BASE_URL: 'http://127.0.0.1', PUBLIC_REQUESTS_PER_MINUTE: 'unlimited' });
    browser = await launch();
    const page = await (await browser.newContext()).newPage();
    await signUp(page, server.url, email, password);
    await page.context().close();
    const tier = await runCli(['users', 'set-tier', '--email', email, '--tier', 'pro'], { DATA_DIR: dataDir });
    expect(tier.code, tier.stderr).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await killAll();
    removeDir(dataDir);
  });

  const signedIn = async (options: BrowserContextOptions = { viewport: { width: 1280, height: 900 } }): Promise<Page> => {
    const page = await (await browser.newContext({ ...options, reducedMotion: 'reduce' })).newPage();
    await signIn(page, server.url, email, password);
    return page;
  };

  /** The account's links, as the page's session reads them. */
  const linksOf = async (page: Page): Promise<{ long: string; shortCode: string; maxClicks: number | null }[]> => {
    const res = await page.request.get(`${server.url}/api/links?limit=100`);
    expect(res.status()).toBe(200);
    return ((await res.json()) as { links: { long: string; shortCode: string; maxClicks: number | null }[] }).links;
  };

  /** A state-changing call as the dashboard makes it: the session's cookie and CSRF token. */
  const call = async (page: Page, method: 'POST' | 'DELETE', path: string, data?: object) => {
    const session = (await (await page.request.get(`${server.url}/api/auth/session`)).json()) as { csrfToken: string };
    const res = await page.request.fetch(`${server.url}${path}`, { method, data, headers: { 'x-csrf-token': session.csrfToken, origin: server.url } });
    expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
    return (await res.json()) as Record<string, unknown>;
  };

  const noCodesShown = async (page: Page) => {
    expect(await page.getByText(/\bCode: [A-Z_]+/).count()).toBe(0);
    expect(await page.getByText(/\b(INVALID|MISSING)_[A-Z_]+\b/).count()).toBe(0);
  };

  it('previews an import with a bad row flagged, creates only the good rows, and then disables the import', { timeout: 120_000 }, async () => {
    const page = await signedIn();
    await page.goto(`${server.url}/app/import`);
    await expectOneH1(page, 'Bulk import');
    const good = Array.from({ length: 7 }, (_, i) => `https://example.com/imported/${i + 1},${i === 0 ? '5' : ''},row ${i + 1}`);
    const csv = ['url,maxClicks,Notes', good[0], good[1], 'https://example.com/imported/bad,abc,a typo', ...good.slice(2)].join('\n');
    await page.locator('input[type=file]').setInputFiles({ name: 'links.csv', mimeType: 'text/csv', buffer: Buffer.from(`${csv}\n`) });

    // The preview: every row, the bad one flagged by its row number, the ignored column named; nothing created yet.
    const rows = page.getByRole('table', { name: 'Rows of the file' });
    await rows.waitFor();
    await page.getByText('8 rows in links.csv: 7 links ready to import, 1 row with problems that will not be imported').waitFor();
    await page.getByText('Columns an import does not read: Notes.').waitFor();
    const bad = rows.getByRole('row').filter({ hasText: 'https://example.com/imported/bad' });
    expect(await bad.getByRole('cell').first().textContent()).toBe('4');
    await bad.getByText('maxClicks "abc" is not a whole number of 1 or more').waitFor();
    expect(await rows.getByText('Ready').count()).toBe(7);
    expect(await linksOf(page)).toEqual([]);
    await expectNoSeriousViolations(page, 'import preview');

    const importButton = page.getByRole('button', { name: 'Import 7 links' });
    await importButton.click();
    await page.getByRole('status').filter({ hasText: '7 of 7 links sent · 7 created · 0 failed' }).waitFor();
    await page.getByText('The import is done: choose another file to import more.', { exact: false }).waitFor();
    expect(await importButton.isDisabled()).toBe(true);
    expect(await rows.getByText('Created').count()).toBe(7);
    await bad.getByText('Not imported:').waitFor();

    const links = await linksOf(page);
    expect(links.map((l) => l.long).sort()).toEqual(Array.from({ length: 7 }, (_, i) => `https://example.com/imported/${i + 1}`).sort());
    expect(links.find((l) => l.long.endsWith('/imported/1'))?.maxClicks).toBe(5);
    await expectNoSeriousViolations(page, 'import results');

    // A new file makes the button live again.
    await page.locator('input[type=file]').setInputFiles({ name: 'more.csv', mimeType: 'text/csv', buffer: Buffer.from('url\nhttps://example.com/more\n') });
    expect(await page.getByRole('button', { name: 'Import 1 link' }).isEnabled()).toBe(true);
    await page.context().close();
  });

  it('fits the import preview on a 390 px phone', { timeout: 60_000 }, async () => {
    const page = await signedIn(PHONE);
    await page.goto(`${server.url}/app/import`);
    await expectOneH1(page, 'Bulk import');
    const long = `https://example.com/${'a-very-long-path-segment/'.repeat(6)}`;
    await page.locator('input[type=file]').setInputFiles({ name: 'phone.csv', mimeType: 'text/csv', buffer: Buffer.from(`url,expiresAt\n${long},tomorrow\n`) });
    await page.getByRole('table', { name: 'Rows of the file' }).getByText('expiresAt "tomorrow" is not a date and time', { exact: false }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(391);
    await page.context().close();
  });

  it('says why a private webhook address is refused, naming WEBHOOK_ALLOW_PRIVATE, assumes https://, and edits a webhook', { timeout: 120_000 }, async () => {
    const page = await signedIn();
    await page.goto(`${server.url}/app/webhooks`);
    await expectOneH1(page, 'Webhooks');
    await page.getByLabel('Endpoint URL').fill('https://192.168.1.20/hooks/snip');
    await page.getByRole('checkbox', { name: 'link.created' }).check();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page
      .getByText(
        "Endpoint URL must not point at a private, loopback or link-local address; the server's operator can allow private hosts and http:// by setting WEBHOOK_ALLOW_PRIVATE=true.",
      )
      .waitFor();
    await noCodesShown(page);

    // No scheme typed: https:// is assumed rather than "not an absolute URL".
    await page.getByLabel('Endpoint URL').fill('hooks.example.com/snip');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByTestId('webhook-secret').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    const list = page.getByRole('list', { name: 'Your webhooks' });
    await list.getByText('https://hooks.example.com/snip').waitFor();

    await list.getByRole('button', { name: 'Edit webhook hooks.example.com' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit webhook hooks.example.com' });
    await dialog.getByLabel('Endpoint URL').fill('https://hooks.example.com/v2');
    await dialog.getByLabel('Name').fill('Order system');
    await dialog.getByRole('checkbox', { name: 'link.created' }).uncheck();
    await dialog.getByRole('checkbox', { name: 'link.click' }).check();
    await dialog.getByRole('switch', { name: 'Enabled' }).uncheck();
    await expectNoSeriousViolations(page, 'webhook edit dialog');
    // Nothing chosen is refused in words, in the dialog.
    await dialog.getByRole('checkbox', { name: 'link.click' }).uncheck();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Choose at least one event to send', { exact: false }).waitFor();
    await dialog.getByRole('checkbox', { name: 'link.click' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    const card = list.getByRole('listitem').filter({ hasText: 'Order system' });
    await card.getByText('https://hooks.example.com/v2').waitFor();
    await card.getByText('Paused').waitFor();
    await card.getByText('link.click', { exact: true }).waitFor();
    expect(await card.getByText('link.created', { exact: true }).count()).toBe(0);
    expect(await card.getByRole('switch', { name: 'Enabled: Order system' }).isChecked()).toBe(false);
    await page.context().close();
  });

  it('renames a tag across links, refuses a name in use in words, and deletes a tag while the links stay', { timeout: 120_000 }, async () => {
    const page = await signedIn();
    const codes: string[] = [];
    for (const [n, tag] of [[1, 'promo'], [2, 'Promo'], [3, 'keep']] as const) {
      const made = await call(page, 'POST', '/api/links', { url: `https://example.com/tagged/${n}` });
      codes.push(made.shortCode as string);
      await call(page, 'POST', `/api/links/${made.shortCode as string}/tags`, { tag });
    }
    const links = await linksOf(page);

    await page.goto(`${server.url}/app/tags`);
    await expectOneH1(page, 'Tags');
    const table = page.getByRole('table', { name: 'Your tags' });
    await table.getByRole('link', { name: '2 links tagged promo' }).waitFor();
    await table.getByRole('link', { name: '1 link tagged keep' }).waitFor();

    await table.getByRole('button', { name: 'Rename tag promo' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename tag promo' });
    await rename.getByLabel('New name').fill('Spring sale');
    await expectNoSeriousViolations(page, 'rename tag dialog');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await rename.waitFor({ state: 'detached' });
    await table.getByRole('link', { name: '2 links tagged Spring sale' }).waitFor();
    expect(await table.getByText('promo', { exact: true }).count()).toBe(0);

    // A name another tag has: refused, in words, under the field.
    await table.getByRole('button', { name: 'Rename tag keep' }).click();
    const clash = page.getByRole('dialog', { name: 'Rename tag keep' });
    await clash.getByLabel('New name').fill('spring sale');
    await clash.getByRole('button', { name: 'Rename' }).click();
    await clash.getByText('You already have a tag "spring sale": choose another name.').waitFor();
    await noCodesShown(page);
    await clash.getByRole('button', { name: 'Cancel' }).click();

    await table.getByRole('button', { name: 'Delete tag Spring sale' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete tag Spring sale?' });
    await confirm.getByText('The tag is taken off the 2 links that carry it.', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Delete tag' }).click();
    await confirm.waitFor({ state: 'detached' });
    await expect.poll(() => table.getByText('Spring sale', { exact: true }).count()).toBe(0);
    await table.getByRole('link', { name: '1 link tagged keep' }).waitFor();
    expect((await linksOf(page)).map((l) => l.shortCode).sort()).toEqual(links.map((l) => l.shortCode).sort());
    expect(links.map((l) => l.shortCode)).toEqual(expect.arrayContaining(codes));
    await expectNoSeriousViolations(page, 'tags page');
    await page.context().close();
  });

  it('gives DNS guidance that fits a server on an IP address, explains HTTPS, and counts "1 domain"', { timeout: 120_000 }, async () => {
    const page = await signedIn();
    await page.goto(`${server.url}/app/domains`);
    await expectOneH1(page, 'Domains');
    await page.getByLabel('Domain').fill('links.example.org');
    await page.getByRole('button', { name: 'Add domain' }).click();
    const records = page.getByRole('region', { name: 'DNS records for links.example.org' });
    await records.getByText('_snip-verify.links.example.org').waitFor();
    // BASE_URL is an IP address: an A record to it, never a CNAME naming an IP.
    await records.getByText('A record.', { exact: false }).waitFor();
    await records.getByText('which a CNAME record cannot name', { exact: false }).waitFor();
    expect(await records.getByText('CNAME', { exact: true }).count()).toBe(0);
    await records.getByText('127.0.0.1', { exact: true }).waitFor();
    // HTTPS is explained rather than "SSL pending".
    expect(await page.getByText(/SSL (pending|active)/).count()).toBe(0);
    await page.getByText("This server's short links use http://, so links on links.example.org do too and need no certificate.", { exact: false }).waitFor();
    const summary = await page.getByTestId('domains-summary').textContent();
    expect(summary).toMatch(/^1 (domain \(no maximum on your plan\)|of \d+ domains?)/);
    expect(summary).not.toMatch(/\b1 domains\b/);
    await expectNoSeriousViolations(page, 'domains page');
    await page.context().close();
  });
});
