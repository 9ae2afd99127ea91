import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, removeDir, startServer, tempDir, type ServerProcess } from '../helpers/processes.js';
import { expectOneH1, hasChromium, launch, PHONE, signIn, signUp } from './browser.js';

/**
 * The link page's routing editor in Chromium against the built server (node dist/main.js): rules, their order, an A/B
 * split, a password and a social preview, saved in one change and read back after a reload and from the API.
 */
describe.skipIf(!hasChromium)('the routing editor in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let dataDir: string;
  const email = 'router@example.com';
  const password = 'correct horse battery';
  let code = '';

  beforeAll(async () => {
    dataDir = tempDir('snip-e2e-routing-');
    server = await startServer({ DATA_DIR: dataDir, PUBLIC_REQUESTS_PER_MINUTE: 'unlimited' });
    browser = await launch();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await killAll();
    removeDir(dataDir);
  });

  const base = () => server.url;
  const routing = (page: Page) => page.getByRole('form', { name: 'Routing' });
  const rule = (page: Page, n: number) => routing(page).getByRole('group', { name: `Rule ${n}`, exact: true });
  const variant = (page: Page, n: number) => routing(page).getByRole('group', { name: `Variant ${n}`, exact: true });
  const readLink = async (page: Page) => {
    const res = await page.request.get(`${base()}/api/links/${code}`);
    expect(res.status()).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  };

  it('adds and reorders rules, splits 50/50, sets a password and a preview, and keeps them after a reload', { timeout: 120_000 }, async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signUp(page, base(), email, password);
    await expectOneH1(page, 'Links');
    await page.getByLabel('Destination URL').fill('https://example.com/default');
    await page.getByRole('button', { name: 'Create link' }).click();
    const inList = page.getByRole('list', { name: 'Your links' }).getByRole('link', { name: /\/[A-Za-z0-9]{6}$/ });
    await inList.waitFor();
    code = (await inList.textContent())!.split('/').pop()!;
    await inList.click();
    await expectOneH1(page, code);

    // Two rules: iPhones, then France.
    await routing(page).getByRole('button', { name: 'Add rule' }).click();
    await rule(page, 1).getByLabel('Device').selectOption('ios');
    await rule(page, 1).getByLabel('Destination URL').fill('https://example.com/ios');
    await routing(page).getByRole('button', { name: 'Add rule' }).click();
    await rule(page, 2).getByLabel('Condition 1: type').selectOption('country');
    await rule(page, 2).getByLabel('Country code').fill('fr');
    await rule(page, 2).getByRole('button', { name: 'Add condition' }).click();
    await rule(page, 2).getByRole('group', { name: 'Condition 2' }).getByLabel('Condition 2: type').selectOption('query');
    await rule(page, 2).getByLabel('Parameter', { exact: true }).fill('utm_source');
    await rule(page, 2).getByLabel('Destination URL').fill('https://example.com/fr');

    // France first, moved by keyboard: focus stays on the moved rule's buttons.
    await rule(page, 2).getByRole('button', { name: 'Move up' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => rule(page, 1).getByLabel('Condition 1: type').inputValue()).toBe('country');
    expect(await rule(page, 2).getByLabel('Device').inputValue()).toBe('ios');
    expect(await page.evaluate(() => [document.activeElement?.textContent, document.activeElement?.closest('fieldset')?.querySelector('legend')?.textContent])).toEqual(['Move down', 'Rule 1']);

    // An A/B split whose weights do not add up to 100 is refused before the server is asked.
    await routing(page).getByRole('button', { name: 'Add variant' }).click();
    await routing(page).getByRole('button', { name: 'Add variant' }).click();
    await variant(page, 1).getByLabel('Variant 1 URL').fill('https://example.com/a');
    await variant(page, 1).getByLabel('Variant 1 weight').fill('50');
    await variant(page, 2).getByLabel('Variant 2 URL').fill('https://example.com/b');
    await variant(page, 2).getByLabel('Variant 2 weight').fill('40');
    await page.getByTestId('variant-total').getByText('Total: 90% (must be 100%)').waitFor();
    await routing(page).getByRole('button', { name: 'Save routing' }).click();
    await routing(page).getByText('Variant weights must add up to 100% (they add up to 90%).').waitFor();
    expect((await readLink(page)).rules).toBeNull();
    await variant(page, 2).getByLabel('Variant 2 weight').fill('50');
    await page.getByTestId('variant-total').getByText('Total: 100%', { exact: true }).waitFor();

    // A server refusal is shown with its message.
    await routing(page).getByLabel('Expired URL').fill(`${base()}/elsewhere`);
    await routing(page).getByRole('button', { name: 'Save routing' }).click();
    const refusal = routing(page).getByRole('alert').filter({ hasText: 'Routing not saved' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/Expired URL/);
    await routing(page).getByLabel('Expired URL').fill('https://example.com/over');

    await routing(page).getByRole('textbox', { name: 'Password', exact: true }).fill('open sesame');
    await routing(page).getByLabel('Preview title').fill('Spring sale');
    await routing(page).getByLabel('Preview description').fill('Everything half price');
    await page.getByRole('figure', { name: 'Preview in a chat app' }).getByText('Spring sale').waitFor();
    const patched = page.waitForRequest((r) => r.method() === 'PATCH');
    await routing(page).getByRole('button', { name: 'Save routing' }).click();
    expect(Object.keys((await patched).postDataJSON() as object).sort()).toEqual(['expiredUrl', 'password', 'rules', 'socialPreview', 'variants']);
    await routing(page).getByText('Password protected').waitFor();

    // After a reload the page shows what was saved, and never the password.
    await page.reload();
    await expectOneH1(page, code);
    await rule(page, 1).getByLabel('Country code').waitFor();
    expect(await rule(page, 1).getByLabel('Country code').inputValue()).toBe('FR');
    expect(await rule(page, 1).getByLabel('Parameter', { exact: true }).inputValue()).toBe('utm_source');
    expect(await rule(page, 1).getByLabel('Destination URL').inputValue()).toBe('https://example.com/fr');
    expect(await rule(page, 2).getByLabel('Device').inputValue()).toBe('ios');
    expect(await rule(page, 2).getByLabel('Destination URL').inputValue()).toBe('https://example.com/ios');
    expect(await variant(page, 1).getByLabel('Variant 1 weight').inputValue()).toBe('50%');
    expect(await variant(page, 2).getByLabel('Variant 2 URL').inputValue()).toBe('https://example.com/b');
    await routing(page).getByText('Password protected').waitFor();
    expect(await routing(page).getByLabel('New password').inputValue()).toBe('');
    expect(await routing(page).getByLabel('Preview title').inputValue()).toBe('Spring sale');
    expect(await page.content()).not.toContain('open sesame');

    const saved = await readLink(page);
    expect(saved).toMatchObject({
      rules: [
        { conditions: [{ type: 'country', value: 'FR' }, { type: 'query', key: 'utm_source' }], url: 'https://example.com/fr' },
        { conditions: [{ type: 'device', value: 'ios' }], url: 'https://example.com/ios' },
      ],
      variants: [
        { url: 'https://example.com/a', weight: 50 },
        { url: 'https://example.com/b', weight: 50 },
      ],
      passwordProtected: true,
      expiredUrl: 'https://example.com/over',
      socialPreview: { title: 'Spring sale', description: 'Everything half price' },
    });
    expect(saved).not.toHaveProperty('password');

    // Try a visitor: the password comes first; once removed, the French rule answers.
    const tryForm = page.getByRole('form', { name: 'Try a visitor' });
    await tryForm.getByLabel('Visitor’s country').fill('FR');
    await tryForm.getByLabel('Query string').fill('utm_source=news');
    await tryForm.getByRole('button', { name: 'Try this visitor' }).click();
    await page.getByTestId('resolve-result').getByText('The visitor is asked for the password first.').waitFor();

    // Only what changed is sent.
    await routing(page).getByRole('button', { name: 'Remove password' }).click();
    const removal = page.waitForRequest((r) => r.method() === 'PATCH');
    await routing(page).getByRole('button', { name: 'Save routing' }).click();
    expect((await removal).postDataJSON()).toEqual({ password: null });
    await routing(page).getByText('No password: visitors are redirected straight away.').waitFor();
    expect((await readLink(page)).passwordProtected).toBe(false);
    expect((await readLink(page)).rules).toHaveLength(2);
    await tryForm.getByRole('button', { name: 'Try this visitor' }).click();
    await page.getByTestId('resolve-result').getByText('Rule 1 matched.').waitFor();
    expect(await page.getByTestId('resolve-result').getByRole('link').textContent()).toBe('https://example.com/fr');
    await page.context().close();
  });

  it('shows the A/B test side by side: counted clicks per destination reached', { timeout: 120_000 }, async () => {
    // Twenty browsers (distinct user agents from one address) follow the link; the split sends them to a or b.
    const reached = new Map<string, number>();
    for (let i = 0; i < 20; i++) {
      const userAgent = `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/1${String(i).padStart(2, '0')}.0.0.0 Safari/537.36`;
      const res = await fetch(`${base()}/${code}`, { redirect: 'manual', headers: { 'user-agent': userAgent } });
      expect(res.status).toBe(302);
      const to = res.headers.get('location')!;
      reached.set(to, (reached.get(to) ?? 0) + 1);
    }
    expect([...reached.keys()].sort()).toEqual(['https://example.com/a', 'https://example.com/b']);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signIn(page, base(), email, password);
    await page.goto(`${base()}/app/links/${code}`);
    await expectOneH1(page, code);
    const table = page.getByRole('table', { name: 'Clicks by destination' });
    await table.waitFor();
    for (const [url, name] of [['https://example.com/a', 'Variant A (50%)'], ['https://example.com/b', 'Variant B (50%)']] as const) {
      const row = table.getByRole('row').filter({ hasText: url });
      await row.getByText(name).waitFor();
      await row.getByText(new RegExp(`^${reached.get(url)} \\(`)).waitFor();
    }
    await page.context().close();
  });

  it('names every control and fits a 390 px phone', { timeout: 120_000 }, async () => {
    const page = await (await browser.newContext(PHONE)).newPage();
    await signIn(page, base(), email, password);
    await page.goto(`${base()}/app/links/${code}`);
    await expectOneH1(page, code);
    await rule(page, 2).getByLabel('Device').waitFor();
    await routing(page).getByRole('button', { name: 'Add rule' }).click();
    await rule(page, 3).getByLabel('Condition 1: type').selectOption('address');
    await rule(page, 3).getByRole('button', { name: 'Add condition' }).click();
    await rule(page, 3).getByLabel('Condition 2: type').selectOption('query');
    const unnamed = await page.evaluate(() =>
      [...document.querySelectorAll('input:not([type=hidden]), select, textarea, button')]
        .filter((el) => {
          const e = el as HTMLInputElement;
          const labelled = e.labels?.length || e.getAttribute('aria-label') || e.getAttribute('aria-labelledby') || (e.tagName === 'BUTTON' && e.textContent?.trim());
          return !labelled && !e.closest('[aria-hidden=true]') && e.offsetParent !== null;
        })
        .map((el) => el.outerHTML.slice(0, 120)),
    );
    expect(unnamed).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(391);
    await page.context().close();
  });
});
