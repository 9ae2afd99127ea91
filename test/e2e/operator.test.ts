import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, removeDir, startServer, tempDir, type ServerProcess } from '../helpers/processes.js';
import { BROWSER_UA, expectOneH1, hasChromium, launch, PHONE, seriousViolations, signIn } from './browser.js';

/**
 * The person running Snip, in the browser (issue 29): the first account of an empty server is the operator's, and
 * its Admin page runs accounts, sign-ups, abuse reports, the server's status and the audit log. One server for the
 * file; each journey leads on from the one before, as an operator's first hour would.
 */
describe.skipIf(!hasChromium)('the operator in Chromium', () => {
  let server: ServerProcess;
  let browser: Browser;
  let dataDir: string;
  const password = 'correct horse battery';
  const operator = 'operator@example.com';
  const member = 'member@example.com';
  const invited = 'invited@example.com';
  let op: Page;
  let mem: Page;
  let memberKey = '';
  let memberLink = { shortUrl: '', code: '' };
  const destination = 'https://example.com/member/landing-page';

  beforeAll(async () => {
    dataDir = tempDir('snip-e2e-operator-');
    server = await startServer({ DATA_DIR: dataDir, PUBLIC_REQUESTS_PER_MINUTE: 'unlimited' });
    browser = await launch();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await killAll();
    removeDir(dataDir);
  });

  const base = () => server.url;
  const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };
  const fresh = async (options: BrowserContextOptions = DESKTOP): Promise<Page> => (await browser.newContext(options)).newPage();
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base()}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  /** A call as the page's own session makes it: its cookie, and its CSRF token unless `csrf` is false. */
  async function asSession(page: Page, method: string, path: string, body?: unknown, csrf = true) {
    const session = await page.request.get(`${base()}/api/auth/session`);
    const token = session.ok() ? ((await session.json()) as { csrfToken: string }).csrfToken : '';
    const response = await page.request.fetch(`${base()}${path}`, {
      method,
      headers: csrf && token ? { 'x-csrf-token': token } : {},
      ...(body === undefined ? {} : { data: body }),
    });
    const text = await response.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // not JSON: the status is what counts
    }
    const error = json.error as { code?: string } | undefined;
    return { status: response.status(), json, code: (error && typeof error === 'object' ? error.code : undefined) ?? (json.code as string | undefined) };
  }

  /** The error code of a refusal, in either dialect (A: `{ error: { code } }`, B: `{ error, code }`). */
  const refusalCode = (body: Record<string, unknown>): string | undefined => {
    const error = body.error;
    if (error && typeof error === 'object' && typeof (error as { code?: unknown }).code === 'string') return (error as { code: string }).code;
    return typeof body.code === 'string' ? body.code : undefined;
  };
  const refusal = async (response: Response) => ({ status: response.status, code: refusalCode((await response.json().catch(() => ({}))) as Record<string, unknown>) });

  const openAdmin = async (page: Page) => {
    await page.goto(`${base()}/app/admin`);
    await expectOneH1(page, 'Admin');
  };
  const accountCard = (page: Page, email: string) => page.getByRole('list', { name: 'Accounts' }).getByRole('listitem').filter({ hasText: email });
  const choose = async (page: Page, label: string, option: string) => {
    await page.getByLabel(label, { exact: true }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };
  const saveSignUps = async (mode: 'Open' | 'Invite only' | 'Closed') => {
    await op.getByRole('radiogroup', { name: 'Sign-ups' }).getByRole('radio', { name: mode, exact: true }).check();
    await op.getByRole('button', { name: 'Save', exact: true }).click();
    await op.getByText(`Sign-ups saved: ${mode}`).first().waitFor();
  };

  it('the first account, made in the browser on an empty server, is the operator: an Admin link and no plan gates', { timeout: 120_000 }, async () => {
    const options = await fetch(`${base()}/api/auth/sign-up-options`);
    expect(await options.json()).toEqual({ mode: 'open', firstAccount: true });

    op = await fresh();
    await op.goto(`${base()}/app/sign-up`);
    await expectOneH1(op, 'Create your Snip account');
    await op.getByText('You will run this server').waitFor();
    expect(await op.getByRole('main').count()).toBe(1);
    await op.getByLabel('Email').fill(operator);
    await op.getByLabel('Password').fill(password);
    await op.getByRole('button', { name: 'Sign up' }).click();
    await op.waitForURL(/\/app\/links$/);

    const session = await asSession(op, 'GET', '/api/auth/session');
    expect((session.json.account as { role: string }).role).toBe('operator');
    await op.getByRole('link', { name: 'Admin', exact: true }).waitFor();

    // A Free tier, yet no plan gate: custom domains (Pro and above for members) are open to the operator.
    await op.getByRole('link', { name: 'Domains' }).click();
    await expectOneH1(op, 'Domains');
    await op.getByRole('heading', { name: 'Add a domain' }).waitFor();
    expect(await op.getByText('Your plan does not include').count()).toBe(0);

    await op.getByRole('link', { name: 'Admin', exact: true }).click();
    await expectOneH1(op, 'Admin');
    for (const section of ['Accounts', 'Sign-ups', 'Link abuse', 'Server status', 'Audit log']) await op.getByRole('heading', { name: section, exact: true }).waitFor();
    await accountCard(op, operator).getByText('Operator', { exact: true }).waitFor();
    // The operator's own account offers nothing that would lock them out.
    expect(await op.getByRole('button', { name: `Disable ${operator}` }).count()).toBe(0);
    expect(await op.getByRole('button', { name: `Delete ${operator}` }).count()).toBe(0);
    await op.getByTestId('Accounts').getByText('1', { exact: true }).waitFor();
    expect(await op.getByTestId('Database').textContent()).toBe('SQLite');

    const after = await fetch(`${base()}/api/auth/sign-up-options`);
    expect(await after.json()).toEqual({ mode: 'open', firstAccount: false });
  });

  it("changes another account's plan with `Plan for <email>`, and that account's session sees it", { timeout: 120_000 }, async () => {
    mem = await fresh();
    await mem.goto(`${base()}/app/sign-up`);
    await expectOneH1(mem, 'Create your Snip account');
    expect(await mem.getByText('You will run this server').count()).toBe(0);
    await mem.getByLabel('Email').fill(member);
    await mem.getByLabel('Password').fill(password);
    await mem.getByRole('button', { name: 'Sign up' }).click();
    await mem.waitForURL(/\/app\/links$/);
    expect(await mem.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
    expect(((await asSession(mem, 'GET', '/api/auth/session')).json.account as { tier: string }).tier).toBe('free');

    await openAdmin(op);
    await op.getByLabel('Search accounts').fill('member@');
    await expect.poll(() => op.getByRole('list', { name: 'Accounts' }).getByRole('listitem').count()).toBe(1);
    await choose(op, `Plan for ${member}`, 'Pro');
    await op.getByText(`${member} is now on the Pro plan`).waitFor();
    expect(await op.getByLabel(`Plan for ${member}`, { exact: true }).inputValue()).toBe('Pro');

    // The member's open page, reloaded, shows the new plan; its session answers it.
    await mem.reload();
    await mem.getByRole('button', { name: 'Account menu' }).click();
    await mem.getByText('Pro plan').waitFor();
    await mem.keyboard.press('Escape');
    expect(((await asSession(mem, 'GET', '/api/auth/session')).json.account as { tier: string }).tier).toBe('pro');
  });

  it('with sign-ups Closed, the sign-up page says so and shows no form, and a sign-up request gets 403 SIGNUP_CLOSED', { timeout: 120_000 }, async () => {
    await saveSignUps('Closed');
    const visitor = await fresh();
    await visitor.goto(`${base()}/app/sign-up`);
    await expectOneH1(visitor, 'Sign-up is closed');
    await visitor.getByText('Sign-up is closed on this server').waitFor();
    expect(await visitor.getByLabel('Email').count()).toBe(0);
    await visitor.getByRole('link', { name: 'Sign in', exact: true }).waitFor();
    await visitor.context().close();

    expect(await refusal(await post('/api/auth/sign-up', { email: 'late@example.com', password }))).toEqual({ status: 403, code: 'SIGNUP_CLOSED' });
    expect(await (await fetch(`${base()}/api/auth/sign-up-options`)).json()).toEqual({ mode: 'closed', firstAccount: false });
  });

  it('with sign-ups Invite only, `Create invite link` makes a link that signs up one account, once', { timeout: 120_000 }, async () => {
    await saveSignUps('Invite only');
    await op.getByRole('button', { name: 'Create invite link' }).click();
    const inviteUrl = (await op.locator('pre').filter({ hasText: '/app/sign-up?invite=' }).textContent())!.trim();
    expect(inviteUrl).toMatch(/^https?:\/\/[^/]+\/app\/sign-up\?invite=[^&\s]+$/);
    const invite = new URL(inviteUrl);
    const inviteToken = invite.searchParams.get('invite')!;
    const onThisServer = `${base()}${invite.pathname}${invite.search}`;
    await op.getByRole('button', { name: 'Copy invite link' }).waitFor();

    // Without the link: no form, and the API asks for an invite.
    const stranger = await fresh();
    await stranger.goto(`${base()}/app/sign-up`);
    await expectOneH1(stranger, 'An invite link is needed');
    expect(await stranger.getByLabel('Email').count()).toBe(0);
    await stranger.context().close();
    expect(await refusal(await post('/api/auth/sign-up', { email: 'stranger@example.com', password }))).toEqual({ status: 403, code: 'INVITE_REQUIRED' });

    // With it: the form, and an account.
    const guest = await fresh();
    await guest.goto(onThisServer);
    await expectOneH1(guest, 'Create your Snip account');
    await guest.getByText('You were invited').waitFor();
    await guest.getByLabel('Email').fill(invited);
    await guest.getByLabel('Password').fill(password);
    await guest.getByRole('button', { name: 'Sign up' }).click();
    await guest.waitForURL(/\/app\/links$/);
    await guest.context().close();

    // The same link a second time: refused, in words.
    const second = await fresh();
    await second.goto(onThisServer);
    await second.getByLabel('Email').fill('second@example.com');
    await second.getByLabel('Password').fill(password);
    await second.getByRole('button', { name: 'Sign up' }).click();
    await second.getByRole('alert').getByText('This invite link has already been used').waitFor();
    expect(second.url()).toContain('/app/sign-up');
    await second.context().close();
    expect(await refusal(await post('/api/auth/sign-up', { email: 'third@example.com', password, invite: inviteToken }))).toEqual({ status: 400, code: 'INVALID_INVITE' });
  });

  it('`Disable <email>` stops its open session and its API key at once, while its links keep redirecting', { timeout: 120_000 }, async () => {
    const key = await asSession(mem, 'POST', '/api/keys', {});
    expect(key.status).toBe(201);
    memberKey = key.json.apiKey as string;
    const made = await post('/api/v1/links', { url: destination }, { authorization: `Bearer ${memberKey}` });
    expect(made.status).toBe(201);
    const link = (await made.json()) as { shortUrl: string };
    memberLink = { shortUrl: link.shortUrl, code: new URL(link.shortUrl).pathname.slice(1) };
    const visitUrl = `${base()}/${memberLink.code}`;

    await openAdmin(op);
    await op.getByRole('button', { name: `Disable ${member}` }).click();
    const dialog = op.getByRole('dialog');
    await dialog.getByLabel('Reason (optional)').fill('Spam reports');
    await dialog.getByRole('button', { name: 'Disable account' }).click();
    await dialog.waitFor({ state: 'detached' });
    const card = accountCard(op, member);
    await card.getByText('Disabled', { exact: true }).waitFor();
    await card.getByText(/Spam reports/).waitFor();
    await op.getByRole('button', { name: `Enable ${member}` }).waitFor();

    // Its session: refused at once, and the open dashboard goes to the sign-in page.
    // Its sessions ended (401); a key is refused for what it is (403 ACCOUNT_DISABLED).
    expect((await asSession(mem, 'GET', '/api/links')).status).toBe(401);
    await mem.reload();
    await mem.waitForURL(/\/app\/sign-in/);
    // Its key: refused at once.
    expect(await refusal(await fetch(`${base()}/api/v1/links`, { headers: { authorization: `Bearer ${memberKey}` } }))).toEqual({ status: 403, code: 'ACCOUNT_DISABLED' });
    // Its link: still redirecting.
    const visit = await fetch(visitUrl, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA } });
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toBe(destination);
    // Signing in is refused, in words.
    expect(await refusal(await post('/api/auth/sign-in', { email: member, password }))).toEqual({ status: 403, code: 'ACCOUNT_DISABLED' });
    await mem.getByLabel('Email').fill(member);
    await mem.getByLabel('Password').fill(password);
    await mem.getByRole('button', { name: 'Sign in' }).click();
    await mem.getByRole('alert').getByText("disabled by the server's operator").waitFor();

    // Enabled again, it signs in; the old key works again too.
    await op.getByRole('button', { name: `Enable ${member}` }).click();
    await op.getByRole('button', { name: `Disable ${member}` }).waitFor();
    await card.getByText('Active', { exact: true }).waitFor();
    await signIn(mem, base(), member, password);
    expect((await fetch(`${base()}/api/v1/links`, { headers: { authorization: `Bearer ${memberKey}` } })).status).toBe(200);
  });

  it('`Find a link` + `Disable link` with a reason: visitors get the disabled page (410), the owner sees why', { timeout: 120_000 }, async () => {
    await openAdmin(op);
    await op.getByLabel('Find a link').fill('nosuch');
    await op.getByRole('button', { name: 'Find', exact: true }).click();
    await op.getByRole('alert').getByText('No link on this server has that address').waitFor();
    await op.getByLabel('Find a link').fill(memberLink.shortUrl);
    await op.getByRole('button', { name: 'Find', exact: true }).click();
    const found = op.getByRole('table', { name: 'The link found' });
    await found.getByText(member, { exact: true }).waitFor();
    await found.getByText(destination, { exact: true }).waitFor();
    await found.getByText('Active (redirects)').waitFor();

    // A reason is required: the owner is shown it.
    await op.getByRole('button', { name: 'Disable link' }).click();
    await op.getByText('Say why the link is disabled').waitFor();
    await op.getByLabel('Reason', { exact: true }).fill('Phishing reported by a visitor');
    await op.getByRole('button', { name: 'Disable link' }).click();
    await op.getByRole('button', { name: 'Enable link' }).waitFor();
    await found.getByText(/Disabled .*Phishing reported by a visitor/).waitFor();

    const visit = await fetch(`${base()}/${memberLink.code}`, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA } });
    expect(visit.status).toBe(410);
    const page = await visit.text();
    // The contract's words were "This link has been disabled"; the server says "This short link has been disabled".
    expect(page).toMatch(/link has been disabled/);
    expect(page).not.toContain(destination);

    // Found by its path alone, too.
    await op.getByLabel('Find a link').fill(memberLink.code);
    await op.getByRole('button', { name: 'Find', exact: true }).click();
    await found.getByText(/Phishing reported by a visitor/).waitFor();

    // The owner sees the reason on the link's page and cannot change the link.
    await mem.goto(`${base()}/app/links/${memberLink.code}`);
    await expectOneH1(mem, memberLink.code);
    await mem.getByText('Phishing reported by a visitor').first().waitFor();
    const edit = await fetch(`${base()}/api/v1/links/${memberLink.code}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${memberKey}` },
      body: JSON.stringify({ url: 'https://example.com/elsewhere' }),
    });
    expect(await refusal(edit)).toEqual({ status: 403, code: 'LINK_DISABLED' });
  });

  it('the audit log lists those actions, newest first, with who and when', { timeout: 120_000 }, async () => {
    await openAdmin(op);
    const log = op.getByRole('table', { name: 'Audit log' });
    await log.waitFor();
    const rows = log.locator('tbody tr');
    const texts = await rows.allTextContents();
    const newest = texts[0]!;
    expect(newest).toMatch(/Disabled the link/);
    expect(newest).toContain('Phishing reported by a visitor');
    expect(newest).toContain(operator);
    expect(newest).toContain(String(new Date().getFullYear()));
    for (const action of ['Changed the plan', 'Changed sign-ups', 'Made an invite link', 'Disabled the account', 'Enabled the account']) {
      expect(texts.some((row) => row.includes(action) && row.includes(operator)), `${action} in ${JSON.stringify(texts)}`).toBe(true);
    }
    // Newest first: the plan change (the first action) comes after the link's disabling.
    const plan = texts.findIndex((row) => row.includes('Changed the plan'));
    const disabled = texts.findIndex((row) => row.includes('Disabled the link'));
    expect(plan).toBeGreaterThan(disabled);
  });

  it('a member never sees the Admin link and gets 403 on /api/admin/*; the admin routes refuse a request without the CSRF token', { timeout: 120_000 }, async () => {
    await mem.goto(`${base()}/app/links`);
    await expectOneH1(mem, 'Links');
    expect(await mem.getByRole('link', { name: 'Admin', exact: true }).count()).toBe(0);
    await mem.goto(`${base()}/app/admin`);
    await expectOneH1(mem, 'Admin');
    await mem.getByText("Only the server's operator can see this page").waitFor();
    expect(await mem.getByLabel('Search accounts').count()).toBe(0);

    for (const [method, path, body] of [
      ['GET', '/api/admin/accounts', undefined],
      ['GET', '/api/admin/status', undefined],
      ['GET', '/api/admin/audit', undefined],
      ['PUT', '/api/admin/sign-ups', { mode: 'open', tier: 'enterprise' }],
      ['POST', '/api/admin/invites', {}],
    ] as const) {
      const answer = await asSession(mem, method, path, body);
      expect({ path, status: answer.status, code: answer.code }).toEqual({ path, status: 403, code: 'OPERATOR_REQUIRED' });
    }
    const byKey = await refusal(await fetch(`${base()}/api/admin/accounts`, { headers: { authorization: `Bearer ${memberKey}` } }));
    expect(byKey).toEqual({ status: 403, code: 'OPERATOR_REQUIRED' });

    // The operator's own session, without its CSRF token: refused, and nothing changed.
    const noToken = await asSession(op, 'PUT', '/api/admin/sign-ups', { mode: 'open', tier: 'enterprise' }, false);
    expect({ status: noToken.status, code: noToken.code }).toEqual({ status: 403, code: 'CSRF_TOKEN_INVALID' });
    const invite = await asSession(op, 'POST', '/api/admin/invites', {}, false);
    expect({ status: invite.status, code: invite.code }).toEqual({ status: 403, code: 'CSRF_TOKEN_INVALID' });
    expect((await asSession(op, 'GET', '/api/admin/sign-ups')).json).toEqual({ mode: 'invite', tier: 'free' });
    // With it, the same change goes through.
    expect((await asSession(op, 'PUT', '/api/admin/sign-ups', { mode: 'open', tier: 'free' })).status).toBe(200);
  });

  it('`Reset password for <email>` makes a one-time link that sets a new password and signs in', { timeout: 120_000 }, async () => {
    await openAdmin(op);
    await op.getByRole('button', { name: `Reset password for ${member}` }).click();
    const dialog = op.getByRole('dialog');
    const resetUrl = new URL((await dialog.locator('pre').textContent())!.trim());
    expect(resetUrl.pathname).toBe('/app/reset-password');
    await dialog.getByRole('button', { name: 'Copy reset link' }).waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();

    const person = await fresh();
    const link = `${base()}${resetUrl.pathname}${resetUrl.search}`;
    await person.goto(link);
    await expectOneH1(person, 'Set a new password');
    await person.getByLabel('New password').fill('a brand new password');
    await person.getByRole('button', { name: 'Set password' }).click();
    await person.waitForURL(/\/app\/links$/);
    await expectOneH1(person, 'Links');
    // The link works once.
    await person.context().clearCookies();
    await person.goto(link);
    await person.getByLabel('New password').fill('yet another password');
    await person.getByRole('button', { name: 'Set password' }).click();
    await person.getByRole('alert').getByText('This password reset link has already been used').waitFor();
    await person.context().close();

    expect((await post('/api/auth/sign-in', { email: member, password: 'a brand new password' })).status).toBe(200);
    await signIn(mem, base(), member, 'a brand new password');
  });

  it('`Make <email> an operator` and `Remove operator <email>` change the role; `Delete <email>` asks once, then says what went', { timeout: 120_000 }, async () => {
    await openAdmin(op);
    await op.getByRole('button', { name: `Make ${invited} an operator` }).click();
    await op.getByText(`${invited} is now an operator`).waitFor();
    await accountCard(op, invited).getByText('Operator', { exact: true }).waitFor();
    await op.getByRole('button', { name: `Remove operator ${invited}` }).click();
    await op.getByText(`${invited} is no longer an operator`).waitFor();
    await op.getByRole('button', { name: `Make ${invited} an operator` }).waitFor();

    await op.getByRole('button', { name: `Delete ${invited}` }).click();
    const dialog = op.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await dialog.waitFor({ state: 'detached' });
    await op.getByText(`${invited} was deleted`).waitFor();
    // Sign-up made the account its first key, as `users create` does.
    await op.getByText(/With it went 0 links, 1 API key and 0 recorded clicks/).waitFor();
    expect(await accountCard(op, invited).count()).toBe(0);
    expect(await refusal(await post('/api/auth/sign-in', { email: invited, password }))).toEqual({ status: 401, code: 'BAD_CREDENTIALS' });
  });

  it('axe finds nothing critical or serious on the Admin page, its dialogs and the signed-out pages, at 1280 and 390 px, light and dark', { timeout: 180_000 }, async () => {
    const found: string[] = [];
    const adminLoaded = async (page: Page) => {
      await openAdmin(page);
      await page.getByRole('table', { name: 'Audit log' }).waitFor();
      await page.getByTestId('Version').waitFor();
      await page.getByRole('radiogroup', { name: 'Sign-ups' }).waitFor();
      await accountCard(page, member).waitFor();
    };

    for (const [label, options] of [
      ['1280 px', DESKTOP],
      ['390 px', PHONE],
      ['390 px dark', { ...PHONE, colorScheme: 'dark' }],
      ['1280 px dark', { ...DESKTOP, colorScheme: 'dark' }],
    ] as [string, BrowserContextOptions][]) {
      const page = await fresh(options);
      // Signed out pages first.
      await page.goto(`${base()}/app/sign-in`);
      await expectOneH1(page, 'Sign in to Snip');
      expect(await page.getByRole('main').count()).toBe(1);
      found.push(...(await seriousViolations(page, `sign-in, ${label}`)));
      await page.getByRole('link', { name: 'Create an account' }).click();
      await expectOneH1(page, 'Create your Snip account');
      found.push(...(await seriousViolations(page, `sign-up, ${label}`)));
      await page.goto(`${base()}/app/reset-password?token=not-a-real-one`);
      await expectOneH1(page, 'Set a new password');
      found.push(...(await seriousViolations(page, `reset password, ${label}`)));

      await signIn(page, base(), operator, password);
      await adminLoaded(page);
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      found.push(...(await seriousViolations(page, `admin, ${label}`)));

      await page.getByLabel('Find a link').fill(memberLink.code);
      await page.getByRole('button', { name: 'Find', exact: true }).click();
      await page.getByRole('table', { name: 'The link found' }).waitFor();
      await page.getByRole('button', { name: 'Create invite link' }).click();
      await page.locator('pre').filter({ hasText: 'invite=' }).waitFor();
      found.push(...(await seriousViolations(page, `admin with a link found and an invite, ${label}`)));

      await page.getByRole('button', { name: `Disable ${member}` }).click();
      await page.getByRole('dialog').getByLabel('Reason (optional)').waitFor();
      found.push(...(await seriousViolations(page, `disable dialog, ${label}`)));
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      await page.getByRole('button', { name: `Delete ${member}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete account' }).waitFor();
      found.push(...(await seriousViolations(page, `delete dialog, ${label}`)));
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      await page.getByRole('button', { name: `Reset password for ${member}` }).click();
      await page.getByRole('dialog').locator('pre').waitFor();
      found.push(...(await seriousViolations(page, `reset link dialog, ${label}`)));
      await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
      await page.context().close();

      // The member's view of the page.
      const other = await fresh(options);
      await signIn(other, base(), member, 'a brand new password');
      await other.goto(`${base()}/app/admin`);
      await other.getByText("Only the server's operator can see this page").waitFor();
      found.push(...(await seriousViolations(other, `admin as a member, ${label}`)));
      await other.context().close();
    }
    expect(found).toEqual([]);
  });

  it('the sign-up page for a closed server and for invites only passes axe too', { timeout: 120_000 }, async () => {
    const found: string[] = [];
    for (const mode of ['closed', 'invite'] as const) {
      expect((await asSession(op, 'PUT', '/api/admin/sign-ups', { mode, tier: 'free' })).status).toBe(200);
      for (const [label, options] of [
        ['1280 px', DESKTOP],
        ['390 px dark', { ...PHONE, colorScheme: 'dark' }],
      ] as [string, BrowserContextOptions][]) {
        const page = await fresh(options);
        await page.goto(`${base()}/app/sign-up`);
        await expectOneH1(page, mode === 'closed' ? 'Sign-up is closed' : 'An invite link is needed');
        found.push(...(await seriousViolations(page, `sign-up ${mode}, ${label}`)));
        await page.context().close();
      }
    }
    expect((await asSession(op, 'PUT', '/api/admin/sign-ups', { mode: 'open', tier: 'free' })).status).toBe(200);
    expect(found).toEqual([]);
  });
});
