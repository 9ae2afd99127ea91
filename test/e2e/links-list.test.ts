import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, removeDir, startServer, tempDir, type ServerProcess } from '../helpers/processes.js';
import { BROWSER_UA, expectOneH1, hasChromium, launch, PHONE, signIn, signUp } from './browser.js';

interface ApiLink {
  id: string;
  shortCode: string;
  fullPath: string | null;
  url: string;
  long: string;
  tags: string[];
  folderId: string | null;
}

/**
 * The links list and a link's page as a person uses them (issue 29): exports of the filtered list, a link page that
 * counts a click while it is open and agrees with itself across periods, edit and delete from that page, the create
 * form keeping its tags and previewing its UTM parameters exactly, and the list on a 390 px phone. One server, one
 * browser, one account; each test adds what it needs.
 */
describe.skipIf(!hasChromium)('the links list and link page in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let dataDir: string;
  let desktop: BrowserContext;
  let page: Page;
  let csrf = '';
  const email = 'lister@example.com';
  const password = 'correct horse battery';
  const links: Record<string, ApiLink> = {};
  let folderId = '';

  const base = () => server.url;
  const api = async <T,>(method: string, path: string, data?: object): Promise<T> => {
    const res = await page.request.fetch(`${base()}${path}`, { method, data, headers: { 'x-csrf-token': csrf } });
    expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  };
  const createLink = async (name: string, url: string, options: { tag?: string; folder?: boolean } = {}) => {
    const link = await api<ApiLink>('POST', '/api/links', { url });
    const path = encodeURIComponent(link.fullPath ?? link.shortCode);
    if (options.tag) await api('POST', `/api/links/${path}/tags`, { tag: options.tag });
    if (options.folder) await api('POST', `/api/link/${path}/folder`, { folderId });
    links[name] = link;
    return link;
  };
  const linkList = (p: Page) => p.getByRole('list', { name: 'Your links' });
  const visit = async (link: ApiLink) => {
    const res = await fetch(link.url, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA } });
    expect(res.status).toBe(302);
  };
  const stat = (p: Page, label: string) => p.getByTestId(label);
  const number = async (p: Page, label: string) => Number((await stat(p, label).textContent())?.replace(/\D/g, '') || NaN);

  beforeAll(async () => {
    dataDir = tempDir('snip-e2e-links-');
    server = await startServer({ DATA_DIR: dataDir, PUBLIC_REQUESTS_PER_MINUTE: 'unlimited' });
    browser = await launch();
    desktop = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await desktop.newPage();
    await signUp(page, base(), email, password);
    csrf = (await (await page.request.get(`${base()}/api/auth/session`)).json()).csrfToken;
    folderId = (await api<{ id: string }>('POST', '/api/folders', { name: 'Campaigns' })).id;
    await api('POST', '/api/utm-templates', { name: 'Black Friday', utmSource: 'newsletter', utmCampaign: 'black friday' });
    await createLink('spring', 'https://shop.example.com/spring', { tag: 'sale', folder: true });
    await createLink('winter', 'https://shop.example.com/winter', { tag: 'sale' });
    await createLink('blog', 'https://blog.example.org/post');
    await createLink('other', 'https://example.net/other');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await killAll();
    removeDir(dataDir);
  });

  it('exports exactly the filtered list as CSV and as JSON', { timeout: 60_000 }, async () => {
    await page.goto(`${base()}/app/links?tag=sale`);
    await expectOneH1(page, 'Links');
    await page.getByText('2 links match', { exact: true }).waitFor();
    expect(await linkList(page).getByRole('listitem').count()).toBe(2);

    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(csvDownload.suggestedFilename()).toMatch(/^snip-links-\d{4}-\d\d-\d\d\.csv$/);
    const rows = parse(fs.readFileSync((await csvDownload.path())!, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.shortCode)).toEqual([links.winter!.shortCode, links.spring!.shortCode]);
    expect(rows.map((r) => r.destination)).toEqual(['https://shop.example.com/winter', 'https://shop.example.com/spring']);

    // A search narrows it further; the JSON file follows.
    await page.getByLabel('Search').fill('WINTER');
    await expect.poll(() => linkList(page).getByRole('listitem').count()).toBe(1);
    await page.getByText('1 link match', { exact: true }).waitFor();
    const [jsonDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    expect(jsonDownload.suggestedFilename()).toMatch(/\.json$/);
    const file = JSON.parse(fs.readFileSync((await jsonDownload.path())!, 'utf8')) as { links: { shortCode: string; shortUrl: string }[] };
    expect(file.links.map((l) => [l.shortCode, l.shortUrl])).toEqual([[links.winter!.shortCode, links.winter!.url]]);

    // Without filters: every link, in the list's order.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => linkList(page).getByRole('listitem').count()).toBe(4);
    const [all] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    const every = JSON.parse(fs.readFileSync((await all.path())!, 'utf8')) as { links: { shortCode: string }[] };
    expect(every.links.map((l) => l.shortCode)).toEqual(['other', 'blog', 'winter', 'spring'].map((n) => links[n]!.shortCode));
  });

  it('shows the list densely: a total, the base URL once, a short path and a site letter per row, about half the old height', { timeout: 60_000 }, async () => {
    await page.goto(`${base()}/app/links`);
    await page.getByText('4 links', { exact: true }).waitFor();
    // BASE_URL names the host as localhost; the test reaches it as 127.0.0.1.
    const shortBase = links.other!.url.slice(0, -links.other!.shortCode.length);
    await page.getByText(`· short URLs start with ${shortBase}`).waitFor();
    const row = linkList(page).getByRole('listitem').first();
    const short = row.getByRole('link', { name: links.other!.url, exact: true });
    // In sight: the path; for screen readers and copying: the whole short URL.
    expect(await short.textContent()).toBe(links.other!.url);
    expect(await short.evaluate((a) => a.lastChild?.textContent)).toBe(`/${links.other!.shortCode}`);
    expect((await short.boundingBox())!.width).toBeLessThan(80);
    await row.getByText('E', { exact: true }).waitFor({ state: 'attached' });
    const box = (await row.boundingBox())!;
    expect(box.height).toBeLessThan(64);
    await page.getByRole('combobox', { name: 'Links per page' }).waitFor();
  });

  it('counts a new click on an open link page within a few seconds, without a reload', { timeout: 60_000 }, async () => {
    await page.goto(`${base()}/app/links/${links.blog!.shortCode}`);
    await expectOneH1(page, links.blog!.shortCode);
    await expect.poll(() => stat(page, 'Total clicks').textContent()).toBe('0');
    const clicked = Date.now();
    await visit(links.blog!);
    await expect.poll(() => stat(page, 'Total clicks').textContent(), { timeout: 8_000, interval: 200 }).toBe('1');
    expect(Date.now() - clicked).toBeLessThan(7_000);
    await expect.poll(() => stat(page, 'Clicks in the last 7 days').textContent()).toBe('1');
    await page.getByRole('table').getByText('Chrome').first().waitFor({ state: 'attached' });
    // Nothing between the page and the server may keep an answer: no validators, no freshness.
    for (const path of [`/api/v1/links/${links.blog!.shortCode}/stats`, `/api/analytics/links/${links.blog!.shortCode}?period=7d`, `/api/analytics/links/${links.blog!.shortCode}/hourly`]) {
      const headers = (await page.request.get(`${base()}${path}`)).headers();
      expect([headers.etag, headers['last-modified'], headers.expires], path).toEqual([undefined, undefined, undefined]);
      expect(headers['cache-control'] ?? 'no-store', path).toMatch(/no-store|no-cache|max-age=0/);
    }
  });

  it('agrees with itself across a period switch: a period never counts more than the total', { timeout: 60_000 }, async () => {
    await page.goto(`${base()}/app/links/${links.blog!.shortCode}`);
    await expect.poll(() => stat(page, 'Total clicks').textContent()).toBe('1');
    // The case the study met: a click after the page loaded, then a switch to 24 hours.
    await visit(links.blog!);
    await page.getByText('24h', { exact: true }).click();
    await stat(page, 'Clicks in the last 24 hours').waitFor();
    const seen: [number, number][] = [];
    for (let i = 0; i < 25; i++) {
      const total = await number(page, 'Total clicks');
      const day = await number(page, 'Clicks in the last 24 hours');
      if (!Number.isNaN(day)) seen.push([total, day]);
      await page.waitForTimeout(200);
    }
    for (const [total, day] of seen) expect(day).toBeLessThanOrEqual(total);
    expect(seen.at(-1)).toEqual([2, 2]);
    await page.getByText('30d', { exact: true }).click();
    await expect.poll(async () => [await number(page, 'Total clicks'), await number(page, 'Clicks in the last 30 days')]).toEqual([2, 2]);
    // The list shows each row's last seven days at a glance, said in words to a screen reader.
    await page.goto(`${base()}/app/links`);
    await page.getByRole('img', { name: '2 clicks in the last 7 days' }).waitFor();
  });

  it('edits and deletes a link from its page', { timeout: 60_000 }, async () => {
    const link = links.other!;
    await page.goto(`${base()}/app/links/${link.shortCode}`);
    await expectOneH1(page, link.shortCode);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Destination URL').fill('https://example.net/changed');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Redirects to https://example.net/changed').waitFor();

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog', { name: 'Delete this link?' }).getByRole('button', { name: 'Delete link' }).click();
    await page.waitForURL(/\/app\/links$/);
    await expectOneH1(page, 'Links');
    await page.getByText('3 links', { exact: true }).waitFor();
    expect(await linkList(page).getByRole('link', { name: link.url, exact: true }).count()).toBe(0);
    expect((await page.request.get(`${base()}/api/links/${link.shortCode}`)).status()).toBe(404);
  });

  it("says why the operator disabled a link, and offers neither Edit nor Delete", { timeout: 60_000 }, async () => {
    // The first account on an empty server is its operator: it may disable any link, its own included.
    await api('POST', `/api/admin/links/${links.spring!.id}/disable`, { reason: 'Reported as phishing' });
    await page.goto(`${base()}/app/links/${links.spring!.shortCode}`);
    await expectOneH1(page, links.spring!.shortCode);
    await page.getByText('Disabled by the operator: Reported as phishing', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
    await page.goto(`${base()}/app/links/${links.winter!.shortCode}`);
    await page.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    expect(await page.getByText(/^Disabled by the operator/).count()).toBe(0);
  });

  it('keeps the tags for the next link, as it keeps the folder and the UTM template', { timeout: 60_000 }, async () => {
    await page.goto(`${base()}/app/links`);
    await expectOneH1(page, 'Links');
    await page.getByRole('button', { name: 'More options' }).click();
    const tags = page.getByRole('combobox', { name: 'Tags', exact: true });
    await tags.fill('keep-me');
    await tags.press('Enter');
    for (const path of ['first', 'second']) {
      await page.getByLabel('Destination URL').fill(`https://example.com/${path}`);
      await page.getByRole('button', { name: 'Create link' }).click();
      await linkList(page).getByText(`https://example.com/${path}`, { exact: true }).waitFor();
      await expect.poll(() => page.getByLabel('Destination URL').inputValue()).toBe('');
    }
    const tagged = await api<{ links: ApiLink[] }>('GET', '/api/links?tag=keep-me');
    expect(tagged.links.map((l) => l.long)).toEqual(['https://example.com/second', 'https://example.com/first']);
    // The tag is still there for a third, and said under the collapsed options.
    await page.getByRole('button', { name: 'Fewer options' }).click();
    await page.getByText('Next links get tags keep-me').waitFor();
  });

  it('previews the UTM parameters exactly as the created link gets them', { timeout: 60_000 }, async () => {
    await page.goto(`${base()}/app/links`);
    // The templates are asked for when the options open: a Select opened before they arrive had no option to show.
    const templates = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/utm-templates');
    await page.getByRole('button', { name: 'More options' }).click();
    await templates;
    await page.getByRole('combobox', { name: 'UTM template' }).click();
    await page.getByRole('option', { name: 'Black Friday' }).click();
    await page.getByLabel('Destination URL').fill('https://shop.example.com/deal?ref=a+b&utm_source=old#top');
    const preview = page.getByTestId('utm-preview');
    await expect.poll(() => preview.textContent()).toBe('https://shop.example.com/deal?ref=a+b&utm_source=newsletter&utm_campaign=black%20friday#top');
    const shown = await preview.textContent();
    await page.getByRole('button', { name: 'Create link' }).click();
    await linkList(page).getByText(shown!, { exact: true }).waitFor();
    const made = await api<{ links: ApiLink[] }>('GET', '/api/links?search=deal');
    expect(made.links.map((l) => l.long)).toEqual([shown]);
  });

  it('on a 390 px phone: the first link near the top, filters behind a button, no sideways scrolling, no path broken', { timeout: 60_000 }, async () => {
    const phone = await (await browser.newContext(PHONE)).newPage();
    await signIn(phone, base(), email, password);
    await expectOneH1(phone, 'Links');
    const first = linkList(phone).getByRole('listitem').first();
    await first.waitFor();
    expect((await first.boundingBox())!.y).toBeLessThan(300);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // Each short path on one line.
    for (const anchor of await linkList(phone).getByRole('link', { name: /^http/ }).all()) {
      expect((await anchor.boundingBox())!.height).toBeLessThan(26);
    }
    await expect.poll(() => phone.getByLabel('Search').isVisible()).toBe(false);
    await phone.getByRole('button', { name: 'Filters' }).click();
    await phone.getByLabel('Search').fill('blog');
    await expect.poll(() => linkList(phone).getByRole('listitem').count()).toBe(1);
    await phone.getByRole('button', { name: 'Filters (1)' }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.context().close();
  });
});
