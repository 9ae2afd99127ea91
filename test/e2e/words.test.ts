import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, removeDir, startServer, tempDir, type ServerProcess } from '../helpers/processes.js';
import { expectOneH1, hasChromium, launch, signUp } from './browser.js';

interface ApiLink {
  shortCode: string;
  fullPath: string | null;
  long: string;
}

/** Words of the API that a person must never be shown: field names, codes and the "Code:" line that carried them. */
const API_WORDS = ['customSlug', 'Code:', 'INVALID_SLUG', 'BAD_CREDENTIALS'];

/**
 * The dashboard speaks people's words (issue 29, problem 6): an address typed without a scheme is taken as https, a
 * refusal names the form's label rather than the API's field, a failed sign-in says what went wrong without its
 * code; and the operator's choice of plan for new accounts is what a browser sign-up then gets. One server; its first
 * account is the operator's, with no plan gates, so custom slugs are open to it.
 */
describe.skipIf(!hasChromium)("the dashboard's words in Chromium", () => {
  let server: ServerProcess;
  let browser: Browser;
  let dataDir: string;
  let context: BrowserContext;
  let page: Page;
  let csrf = '';
  const operator = 'operator@example.com';
  const password = 'correct horse battery';

  const base = () => server.url;
  const api = async <T,>(p: Page, path: string): Promise<T> => {
    const res = await p.request.get(`${base()}${path}`);
    expect(res.ok(), `GET ${path}: ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  };
  const linksTo = async (search: string) => (await api<{ links: ApiLink[] }>(page, `/api/links?search=${encodeURIComponent(search)}`)).links;
  const linkList = () => page.getByRole('list', { name: 'Your links' });
  const pageText = (p: Page) => p.locator('body').innerText();

  beforeAll(async () => {
    dataDir = tempDir('snip-e2e-words-');
    server = await startServer({ DATA_DIR: dataDir, PUBLIC_REQUESTS_PER_MINUTE: 'unlimited' });
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await signUp(page, base(), operator, password);
    csrf = (await api<{ csrfToken: string }>(page, '/api/auth/session')).csrfToken;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await killAll();
    removeDir(dataDir);
  });

  it('takes `example.com/page` as https://example.com/page, in the create form and in the edit dialog', { timeout: 60_000 }, async () => {
    await page.goto(`${base()}/app/links`);
    await expectOneH1(page, 'Links');
    await page.getByLabel('Destination URL').fill('example.com/page');
    await page.getByRole('button', { name: 'Create link' }).click();
    await linkList().getByText('https://example.com/page', { exact: true }).waitFor();
    const [made] = await linksTo('example.com/page');
    expect(made?.long).toBe('https://example.com/page');

    await page.goto(`${base()}/app/links/${made!.shortCode}`);
    await expectOneH1(page, made!.shortCode);
    await page.getByText('Redirects to https://example.com/page').waitFor();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Destination URL').fill('www.example.org/edited?x=1');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Redirects to https://www.example.org/edited?x=1').waitFor();
    expect((await linksTo(made!.shortCode)).map((l) => l.long)).toEqual(['https://www.example.org/edited?x=1']);
  });

  it('refuses a bad custom slug in words naming "Custom slug", never `customSlug` or a code, and creates nothing', { timeout: 60_000 }, async () => {
    await page.goto(`${base()}/app/links`);
    await expectOneH1(page, 'Links');
    await page.getByRole('button', { name: 'More options' }).click();
    const slug = page.getByLabel('Custom slug');
    for (const bad of ['has space', 'a/b']) {
      await slug.fill(bad);
      await page.getByLabel('Destination URL').fill(`https://example.com/slug-${bad.length}`);
      await page.getByRole('button', { name: 'Create link' }).click();
      await page.getByText('Custom slug may contain only letters, digits and hyphens.', { exact: true }).waitFor();
      expect(await slug.getAttribute('aria-invalid')).toBe('true');
      const text = await pageText(page);
      for (const word of API_WORDS) expect(text, bad).not.toContain(word);
      expect(await linksTo(`slug-${bad.length}`)).toEqual([]);
    }
    // A good slug then goes through: the message was about the slug, not the form.
    await slug.fill('good-slug');
    await page.getByRole('button', { name: 'Create link' }).click();
    await expect.poll(async () => (await linksTo('slug-3')).map((l) => l.fullPath?.endsWith('good-slug'))).toEqual([true]);
    expect(await page.getByText('Custom slug may contain only').count()).toBe(0);
  });

  it('says a wrong password in words, with no code on the page', { timeout: 60_000 }, async () => {
    const visitor = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    for (const email of [operator, 'nobody@example.com']) {
      await visitor.goto(`${base()}/app/sign-in`);
      await expectOneH1(visitor, 'Sign in to Snip');
      await visitor.getByLabel('Email').fill(email);
      await visitor.getByLabel('Password').fill('not the password');
      await visitor.getByRole('button', { name: 'Sign in' }).click();
      const alert = visitor.getByRole('alert').filter({ hasText: 'Could not sign in' });
      await alert.getByText('That email and password do not match an account here. Check both and try again.', { exact: true }).waitFor();
      const text = await pageText(visitor);
      for (const word of API_WORDS) expect(text, email).not.toContain(word);
      expect(visitor.url()).toMatch(/\/app\/sign-in$/);
    }
    await visitor.context().close();
  });

  it('gives a browser sign-up the plan the Sign-ups section names, a setting that survives a reload', { timeout: 120_000 }, async () => {
    await page.goto(`${base()}/app/admin`);
    await expectOneH1(page, 'Admin');
    const plan = page.getByRole('combobox', { name: 'Plan for new accounts' });
    expect(await plan.inputValue()).toBe('Free');
    await page.getByRole('radiogroup', { name: 'Sign-ups' }).getByRole('radio', { name: 'Open', exact: true }).check();
    await plan.click();
    await page.getByRole('option', { name: 'Builder', exact: true }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Sign-ups saved: Open, new accounts on Builder').first().waitFor();

    await page.reload();
    await expectOneH1(page, 'Admin');
    await expect.poll(() => page.getByRole('combobox', { name: 'Plan for new accounts' }).inputValue()).toBe('Builder');
    expect(await page.getByRole('radiogroup', { name: 'Sign-ups' }).getByRole('radio', { name: 'Open', exact: true }).isChecked()).toBe(true);
    expect(await api(page, '/api/admin/sign-ups')).toEqual({ mode: 'open', tier: 'builder' });

    const newcomer = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signUp(newcomer, base(), 'newcomer@example.com', password);
    await newcomer.goto(`${base()}/app/account`);
    await expectOneH1(newcomer, 'Plan & account');
    const card = newcomer.locator('.mantine-Paper-root').filter({ has: newcomer.getByRole('heading', { name: 'Plan', exact: true }) });
    await card.getByText('Builder', { exact: true }).waitFor();
    await card.getByText('Plans are set by the person who runs this Snip server.').waitFor();
    // The session and the profile the dashboard reads say the same; the plan's own limits come with it.
    const session = await api<{ account: { tier: string; role: string } }>(newcomer, '/api/auth/session');
    expect(session.account).toMatchObject({ tier: 'builder', role: 'member' });
    const profile = await api<{ tier: string; limits: { customSlugs: boolean; webhooks: number | null } }>(newcomer, '/api/user');
    expect(profile).toMatchObject({ tier: 'builder', limits: { customSlugs: true, webhooks: 10 } });
    await newcomer.context().close();

    // Back to Free, so the setting is seen to be the operator's and not a default.
    const reset = await page.request.put(`${base()}/api/admin/sign-ups`, { data: { mode: 'open', tier: 'free' }, headers: { 'x-csrf-token': csrf } });
    expect(reset.status()).toBe(200);
    const later = await (await browser.newContext()).newPage();
    await signUp(later, base(), 'later@example.com', password);
    expect((await api<{ account: { tier: string } }>(later, '/api/auth/session')).account.tier).toBe('free');
    await later.context().close();
  });
});
