import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, killAll, removeDir, request, runCli, startServer, tempDir, type ServerProcess } from '../helpers/processes.js';
import { expectOneH1, hasChromium, launch, PHONE, signUp } from './browser.js';

const TIER_NAMES = /\b(free|pro|builder|enterprise)\b/i;

/**
 * The account side of the dashboard in Chromium: gates read from the plan limits the server answers (never from
 * tier names), the overage cap with "No cap" as a choice of its own, and API keys with names and their last use.
 */
describe.skipIf(!hasChromium)('plan, overage cap and API keys in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let dataDir: string;
  let env: Record<string, string>;
  const email = 'member@example.com';
  const password = 'correct horse battery';
  let page: Page;

  beforeAll(async () => {
    dataDir = tempDir('snip-e2e-account-');
    env = { DATA_DIR: dataDir, PUBLIC_REQUESTS_PER_MINUTE: 'unlimited' };
    // The first account of a database is the operator's, without plan limits: a throwaway one made first keeps the
    // browser's account an ordinary member on the Free plan.
    const first = await runCli(['users', 'create', '--email', 'operator@example.com'], env);
    expect(first.code, first.stderr).toBe(0);
    server = await startServer(env);
    browser = await launch();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signUp(page, server.url, email, password);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await killAll();
    removeDir(dataDir);
  });

  const open = async (path: string, h1: string) => {
    await page.goto(`${server.url}/app/${path}`);
    await expectOneH1(page, h1);
  };

  it("on the Free plan, gates say what the server's plan leaves out, naming no tier; a plan change lifts them", async () => {
    await open('keys', 'API keys');
    const apiHint = page.getByRole('alert').filter({ hasText: 'Your plan does not include API access' });
    await apiHint.waitFor();
    const hintText = (await apiHint.textContent())!;
    expect(hintText).toContain('Ask the person who runs this Snip server to change your plan.');
    expect(hintText).not.toMatch(TIER_NAMES);

    await open('domains', 'Domains');
    const domainsHint = page.getByRole('alert').filter({ hasText: 'Your plan does not include custom domains' });
    await domainsHint.waitFor();
    expect(await domainsHint.textContent()).not.toMatch(TIER_NAMES);

    // The Free plan charges nothing past its clicks: the cap card says there is nothing to cap, and offers no field.
    await open('account', 'Plan & account');
    await page.getByText('Your plan does not charge for clicks past its monthly number', { exact: false }).waitFor();
    expect(await page.getByRole('radio', { name: 'No cap' }).count()).toBe(0);
    expect(await page.getByText('Plans are set by the person who runs this Snip server.').count()).toBe(1);

    const tier = await runCli(['users', 'set-tier', '--email', email, '--tier', 'pro'], env);
    expect(tier.code, tier.stderr).toBe(0);
    await open('keys', 'API keys');
    await page.getByRole('table', { name: 'Your API keys' }).waitFor();
    expect(await page.getByText('Your plan does not include API access').count()).toBe(0);
  });

  it('names "No cap" as a choice, then caps at an amount above zero, and the card says which', async () => {
    await open('account', 'Plan & account');
    const form = page.getByRole('form', { name: 'Overage cap' });
    // The plan's default cap is in force until the account chooses.
    await form.getByText('Now: $10.00 a month.').waitFor();
    expect(await form.getByRole('radio', { name: 'Cap at' }).isChecked()).toBe(true);

    await form.getByRole('radio', { name: 'No cap' }).check();
    expect(await form.getByLabel('Cap in US dollars a month').count()).toBe(0);
    await form.getByRole('button', { name: 'Save cap' }).click();
    await form.getByText('Now: no cap set.').waitFor();
    await page.getByText('No cap set: overage is charged without a limit.').waitFor();
    // Not the plan's doing: the page never claims the plan has no limit, and shows no $0.00 amount.
    expect(await page.getByText('No limit on this plan').count()).toBe(0);
    expect(await page.locator('input[value="$0.00"]').count()).toBe(0);

    await page.reload();
    await expectOneH1(page, 'Plan & account');
    await form.getByText('Now: no cap set.').waitFor();
    expect(await form.getByRole('radio', { name: 'No cap' }).isChecked()).toBe(true);

    // A cap is an amount above zero; 0 is refused on the page rather than sent as "no cap".
    await form.getByRole('radio', { name: 'Cap at' }).check();
    const amount = form.getByLabel('Cap in US dollars a month');
    await amount.fill('0');
    await form.getByRole('button', { name: 'Save cap' }).click();
    await form.getByText('Enter an amount above $0.00, or choose No cap').waitFor();
    await form.getByText('Now: no cap set.').waitFor();

    await amount.fill('7.5');
    await form.getByRole('button', { name: 'Save cap' }).click();
    await form.getByText('Now: $7.50 a month.').waitFor();
    await page.getByText('$0.00 of $7.50 cap').waitFor();
    expect(await page.getByText('No cap set: overage is charged without a limit.').count()).toBe(0);
  });

  it('says the first key was never shown, names a new key, and shows its last use after a call with it', async () => {
    await open('keys', 'API keys');
    const table = page.getByRole('table', { name: 'Your API keys' });
    await table.getByRole('row').filter({ hasText: 'Made with your account' }).waitFor();
    await page.getByText('Your account came with a key, but its full value is never shown in the dashboard.', { exact: false }).waitFor();

    await page.getByLabel('Name', { exact: true }).fill('Deploy script');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your new API key "Deploy script"' });
    const key = (await dialog.getByTestId('new-api-key').textContent())!;
    expect(key).toMatch(/^snip_[A-Za-z0-9]+$/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    const row = table.getByRole('row').filter({ hasText: 'Deploy script' });
    await row.getByText('Never used').waitFor();

    const call = await request(server.url, { method: 'GET', path: '/api/user', headers: bearer(key) });
    expect(call.status).toBe(200);
    await page.reload();
    await expectOneH1(page, 'API keys');
    await row.getByText(/^Last used (just now|\d+ seconds? ago)$/).waitFor();
    expect(await row.getByText('Never used').count()).toBe(0);
    // The account's own key was not used: it still says so.
    await table.getByRole('row').filter({ hasText: 'Made with your account' }).getByText('Never used').waitFor();
  });

  it('fits a 390 px phone on the keys and account pages', async () => {
    const phone = await (await browser.newContext(PHONE)).newPage();
    await phone.context().addCookies(await page.context().cookies());
    for (const [path, h1] of [
      ['keys', 'API keys'],
      ['account', 'Plan & account'],
    ] as const) {
      await phone.goto(`${server.url}/app/${path}`);
      await expectOneH1(phone, h1);
      await phone.waitForLoadState('networkidle');
      expect(await phone.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(391);
    }
    await phone.context().close();
  });
});
