import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSource, type FakeSource } from '../helpers/fake-sources.js';
import { killAll, removeDir, runCli, startServer, tempDir, type ServerProcess } from '../helpers/processes.js';
import { BROWSER_UA, expectOneH1, hasChromium, launch, PHONE, seriousViolations, signIn, signUp } from './browser.js';

/**
 * The import page's second section (issue 31): links of another shortener, previewed as a dry run before anything is
 * made, then imported, in Chromium against the shipped server, with a local stand-in for Shlink's API.
 */
describe.skipIf(!hasChromium)('importing from another shortener in Chromium', () => {
  let server: ServerProcess;
  let shlink: FakeSource;
  let browser: Browser;
  let dataDir: string;
  const email = 'mover@example.com';
  const password = 'correct horse battery';
  const key = 'shlink-secret-key';
  const SECTION = 'section[aria-labelledby="import-source-heading"]';

  beforeAll(async () => {
    shlink = await startFakeSource('shlink', {
      key,
      defaultDomain: 'old.example',
      links: [
        { code: 'spring', url: 'https://example.com/moved/spring', title: 'Spring sale' },
        { code: 'summer', url: 'https://example.com/moved/summer' },
        { code: 'autumn', url: 'https://example.com/moved/autumn' },
        { code: 'gone', url: 'https://example.com/moved/gone', expiresAt: '2020-01-01T00:00:00+00:00' },
      ],
      visits: {
        spring: [
          { at: '2024-03-02T10:00:00+00:00', userAgent: BROWSER_UA, country: 'DE', referrer: 'https://news.example/' },
          { at: '2024-03-01T10:00:00+00:00', userAgent: BROWSER_UA, country: 'FR' },
        ],
      },
    });
    dataDir = tempDir('snip-e2e-source-import-');
    // The fake listens on 127.0.0.1, which an import started over the API may reach only when the operator allows it.
    // Pro allows 5 new links a day here (the operator, whose account the first tests use, has no plan limits).
    const plans = fileURLToPath(new URL('../fixtures/plans-links-per-day.json', import.meta.url));
    server = await startServer({ DATA_DIR: dataDir, IMPORT_ALLOW_PRIVATE: 'true', PUBLIC_REQUESTS_PER_MINUTE: 'unlimited', PLANS_FILE: plans });
    browser = await launch();
    const page = await (await browser.newContext()).newPage();
    await signUp(page, server.url, email, password);
    await page.context().close();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await shlink?.close();
    await killAll();
    removeDir(dataDir);
  });

  const signedIn = async (options: BrowserContextOptions = { viewport: { width: 1280, height: 900 } }): Promise<Page> => {
    const page = await (await browser.newContext({ ...options, reducedMotion: 'reduce' })).newPage();
    await signIn(page, server.url, email, password);
    return page;
  };

  const longsOf = async (page: Page): Promise<string[]> => {
    const res = await page.request.get(`${server.url}/api/links?limit=100`);
    expect(res.status()).toBe(200);
    return ((await res.json()) as { links: { long: string }[] }).links.map((l) => l.long).sort();
  };

  const scheme = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
  /** axe's critical and serious findings on the import page, the section's result included, in light and then dark. */
  const sectionViolations = async (page: Page, label: string): Promise<string[]> => {
    const found: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
      await expect.poll(() => scheme(page)).toBe(colorScheme);
      found.push(...(await seriousViolations(page, `${label}, ${colorScheme}`)));
    }
    return found;
  };

  const openSection = async (page: Page) => {
    await page.goto(`${server.url}/app/import`);
    await expectOneH1(page, 'Bulk import');
    await page.getByRole('heading', { name: 'From another shortener', level: 2 }).waitFor();
    return page.locator(SECTION);
  };

  it('previews the links of a Shlink server, imports them, and lists them among the links', { timeout: 120_000 }, async () => {
    const page = await signedIn();
    const section = await openSection(page);

    // Shlink is self-hosted: without its address nothing is sent.
    await section.getByLabel('API key', { exact: true }).fill(key);
    await section.getByRole('button', { name: 'Preview' }).click();
    await section.getByText('API address is required for Shlink', { exact: false }).waitFor();
    expect(shlink.requests).toEqual([]);

    // The public APIs' addresses show as placeholders for Bitly and Dub.
    await section.getByLabel('Source', { exact: true }).click();
    await page.getByRole('option', { name: 'Bitly', exact: true }).click();
    expect(await section.getByLabel('API address', { exact: false }).getAttribute('placeholder')).toBe('https://api-ssl.bitly.com');
    await section.getByLabel('Source', { exact: true }).click();
    await page.getByRole('option', { name: 'Shlink', exact: true }).click();

    // A wrong key: the source's refusal, in a sentence by the key field.
    await section.getByLabel('API address', { exact: false }).fill(shlink.base);
    await section.getByLabel('API key', { exact: true }).fill('not-the-key');
    await section.getByRole('button', { name: 'Preview' }).click();
    await section.getByText('The source refused the key', { exact: false }).waitFor();
    expect(await section.getByText(/\bSOURCE_[A-Z_]+\b/).count()).toBe(0);

    await section.getByLabel('API key', { exact: true }).fill(key);
    await section.getByRole('checkbox', { name: 'Bring clicks' }).check();
    await section.getByRole('button', { name: 'Preview' }).click();
    await section.getByRole('status').filter({ hasText: 'Preview: 3 links will be imported, 1 skipped, 0 cannot be imported.' }).waitFor();
    const previewed = section.getByRole('table', { name: 'Links of the source, previewed' });
    expect(await previewed.getByRole('row').count()).toBe(5);
    const spring = previewed.getByRole('row').filter({ hasText: 'https://old.example/spring' });
    await spring.getByRole('cell', { name: 'Will be imported' }).waitFor();
    const gone = previewed.getByRole('row').filter({ hasText: 'https://old.example/gone' });
    await gone.getByText('Skipped').waitFor();
    await gone.getByText('no longer redirects at the source', { exact: false }).waitFor();
    // A preview makes nothing.
    expect(await longsOf(page)).toEqual([]);
    expect(await sectionViolations(page, '1280 preview')).toEqual([]);

    const importButton = section.getByRole('button', { name: 'Import 3 links' });
    await importButton.click();
    await section.getByRole('status').filter({ hasText: 'Done: 3 links imported, 1 skipped, 0 could not be imported. 2 clicks came with them.' }).waitFor();
    const imported = section.getByRole('table', { name: 'Links of the source, imported' });
    expect(await imported.getByRole('cell', { name: 'Imported', exact: true }).count()).toBe(3);
    expect(await importButton.isDisabled()).toBe(true);
    expect(await longsOf(page)).toEqual(['https://example.com/moved/autumn', 'https://example.com/moved/spring', 'https://example.com/moved/summer']);
    expect(await sectionViolations(page, '1280 result')).toEqual([]);

    // The links list shows them.
    await page.getByRole('link', { name: 'Links', exact: true }).first().click();
    const list = page.getByRole('list', { name: 'Your links' });
    for (const season of ['spring', 'summer', 'autumn']) await list.getByText(`example.com/moved/${season}`, { exact: false }).first().waitFor();
    await page.context().close();
  });

  it('previews again on a 390 px phone: everything already imported is skipped, and the page fits', { timeout: 90_000 }, async () => {
    const page = await signedIn(PHONE);
    const section = await openSection(page);
    await section.getByLabel('API address', { exact: false }).fill(shlink.base);
    await section.getByLabel('API key', { exact: true }).fill(key);
    // Enter in a field previews, as the button does.
    await section.getByLabel('API key', { exact: true }).press('Enter');
    await section.getByRole('status').filter({ hasText: 'Preview: 0 links will be imported, 4 skipped, 0 cannot be imported.' }).waitFor();
    const previewed = section.getByRole('table', { name: 'Links of the source, previewed' });
    expect(await previewed.getByText('Imported by an earlier run', { exact: false }).count()).toBe(3);
    expect(await section.getByRole('button', { name: 'No links to import' }).isDisabled()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(391);
    expect(await sectionViolations(page, '390 preview')).toEqual([]);
    await page.context().close();
  });

  it('says in words where the plan’s daily link limit stops an import, in the preview and in the run', { timeout: 120_000 }, async () => {
    const many = await startFakeSource('shlink', {
      key,
      defaultDomain: 'many.example',
      pageSize: 3,
      links: Array.from({ length: 8 }, (_, i) => ({ code: `many-${i}`, url: `https://example.com/many/${i}` })),
    });
    try {
      const member = 'limited@example.com';
      const first = await (await browser.newContext()).newPage();
      await signUp(first, server.url, member, password);
      await first.context().close();
      const tier = await runCli(['users', 'set-tier', '--email', member, '--tier', 'pro'], { DATA_DIR: dataDir });
      expect(tier.code, tier.stderr).toBe(0);

      const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' })).newPage();
      await signIn(page, server.url, member, password);
      const section = await openSection(page);
      await section.getByLabel('API address', { exact: false }).fill(many.base);
      await section.getByLabel('API key', { exact: true }).fill(key);
      await section.getByRole('button', { name: 'Preview' }).click();
      // A real run charges each page of 3 whole: the first fits the 5 a day, the second does not.
      const notice = section.getByRole('alert').filter({ hasText: 'Your plan’s daily link limit would stop this import part-way' });
      await notice.waitFor();
      await notice.getByText('The limit is 5 links per day. The 3 links marked to be imported fit today', { exact: false }).waitFor();
      await section.getByRole('status').filter({ hasText: 'Preview: 3 links will be imported' }).waitFor();
      expect(await section.getByText(/\bRATE_LIMITED\b|Too many requests/).count()).toBe(0);
      expect(await longsOf(page)).toEqual([]);
      expect(await sectionViolations(page, '1280 limited preview')).toEqual([]);

      await section.getByRole('button', { name: 'Import 3 links' }).click();
      await section.getByRole('alert').filter({ hasText: 'Your plan’s daily link limit stopped the import part-way' }).waitFor();
      await section.getByText('3 links came in before that and stay imported', { exact: false }).waitFor();
      expect(await longsOf(page)).toEqual(['https://example.com/many/0', 'https://example.com/many/1', 'https://example.com/many/2']);

      // The create form says the same limit in the same words once the day's last two links are made.
      await page.goto(`${server.url}/app/links`);
      await expectOneH1(page, 'Links');
      for (const n of [3, 4, 5]) {
        await page.getByLabel('Destination URL').fill(`https://example.com/many/${n}`);
        await page.getByRole('button', { name: 'Create link' }).click();
        if (n < 5) await expect.poll(async () => (await longsOf(page)).length).toBe(n + 1);
      }
      await page.getByText("Your plan's limit of 5 links per day is reached. It starts again at midnight UTC", { exact: false }).first().waitFor();
      expect(await page.getByText(/\bRATE_LIMITED\b|Wait a moment/).count()).toBe(0);
      expect(await longsOf(page)).toHaveLength(5);
      await page.context().close();
    } finally {
      await many.close();
    }
  });
});
