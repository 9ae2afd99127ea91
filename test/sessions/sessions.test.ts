import { describe, expect, it } from 'vitest';
import { dialectName, useTestApp } from '../helpers/app.js';
import { Browser, uniqueEmail } from './session-client.js';

const PASSWORD = 'correct horse battery';

describe('sign-up and sign-in', () => {
  const t = useTestApp();

  it('sign-up makes a Free account with a namespace and a first key, and signs the browser in with a strict cookie', async () => {
    const browser = new Browser(t.app);
    const email = uniqueEmail('ada');
    const res = await browser.signUp(email.toUpperCase());
    const body = res.json();
    expect(body).toEqual({ account: { id: expect.any(String), email, tier: 'free', namespace: expect.any(String), role: 'member' }, csrfToken: expect.any(String) });
    const cookie = res.cookies.find((c) => c.name === 'snip_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie.secure).toBeFalsy(); // BASE_URL is http here
    const keys = await t.core.accounts.keysOf(email);
    expect(keys.keys).toHaveLength(1);

    const session = await browser.send({ method: 'GET', url: '/api/auth/session' });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toEqual(body);
  });

  it('refuses a bad email, a short password and a taken email with their codes, creating nothing', async () => {
    const before = (await t.core.accounts.listAccounts()).length;
    const browser = new Browser(t.app);
    const cases: Array<[unknown, number, string]> = [
      [{ email: 'not-an-email', password: PASSWORD }, 400, 'INVALID_EMAIL'],
      [{ email: uniqueEmail(), password: 'short' }, 400, 'INVALID_PASSWORD'],
      [{ email: uniqueEmail(), password: 'x'.repeat(257) }, 400, 'INVALID_PASSWORD'],
      [{ email: uniqueEmail() }, 400, 'MISSING_PASSWORD'],
      [{ email: uniqueEmail(), password: 12345678 }, 400, 'INVALID_PASSWORD'],
    ];
    for (const [payload, status, code] of cases) {
      const res = await browser.send({ method: 'POST', url: '/api/auth/sign-up', payload: payload as object });
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status, code });
      expect(res.cookies).toHaveLength(0);
    }
    expect((await t.core.accounts.listAccounts()).length).toBe(before);
    const email = uniqueEmail();
    await new Browser(t.app).signUp(email);
    const again = await browser.send({ method: 'POST', url: '/api/auth/sign-up', payload: { email, password: PASSWORD } });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('EMAIL_TAKEN');
  });

  it('two sign-ups of one email at once make one account', async () => {
    const email = uniqueEmail();
    const answers = await Promise.all(Array.from({ length: 4 }, () => new Browser(t.app).send({ method: 'POST', url: '/api/auth/sign-up', payload: { email, password: PASSWORD } })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409]);
    expect((await t.core.accounts.listAccounts()).filter((a) => a.email === email)).toHaveLength(1);
  });

  it('signs in with the right password only, saying the same for an unknown email and for an account without a password', async () => {
    const email = uniqueEmail();
    await new Browser(t.app).signUp(email, PASSWORD);
    const cliMade = await t.createUser('pro');
    const browser = new Browser(t.app);
    for (const [who, password] of [[email, 'wrong password'], [uniqueEmail(), PASSWORD], [cliMade.email, PASSWORD]] as const) {
      const res = await browser.signIn(who, password);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: true, code: 'BAD_CREDENTIALS', message: 'That email and password do not match an account' });
      expect(res.cookies).toHaveLength(0);
    }
    const ok = await browser.signIn(` ${email.toUpperCase()} `, PASSWORD);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().account.email).toBe(email);
    expect((await browser.send({ method: 'GET', url: '/api/auth/session' })).statusCode).toBe(200);
  });

  it('answers 401 SESSION_REQUIRED for no cookie, an unknown one and a forged one', async () => {
    for (const cookie of [undefined, 'snip_session=nope', `snip_session=${'A'.repeat(43)}`]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/session', headers: cookie ? { cookie } : {} });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('SESSION_REQUIRED');
    }
  });
});

describe('a session calls the same operations as a key', () => {
  const t = useTestApp();

  it('lets a Free account use links and folders from the dashboard, while its API key has no API access', async () => {
    const browser = new Browser(t.app);
    const email = uniqueEmail();
    await browser.signUp(email);
    const created = await browser.send({ method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/from-the-dashboard' } });
    expect(created.statusCode, created.body).toBe(201);
    const list = await browser.send({ method: 'GET', url: '/api/links' });
    expect(list.json().links.map((l: { long: string }) => l.long)).toEqual(['https://example.com/from-the-dashboard']);
    const folder = await browser.send({ method: 'POST', url: '/api/folders', payload: { name: 'Campaigns' } });
    expect(folder.statusCode).toBe(201);

    const [key] = (await t.core.accounts.keysOf(email)).keys;
    expect(key).toBeDefined();
    const { apiKey } = await t.core.accounts.createKey((await t.core.accounts.requireByEmail(email)).id);
    const byKey = await t.as(apiKey, { method: 'GET', url: '/api/links' });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().code).toBe('TIER_REQUIRED');
  });

  it('keeps every other tier rule: a Free session cannot add custom domains or bulk-create', async () => {
    const browser = new Browser(t.app);
    await browser.signUp(uniqueEmail());
    const domain = await browser.send({ method: 'POST', url: '/api/user/domains', payload: { domain: 'links.example.org' } });
    expect(domain.statusCode).toBe(403);
    expect(domain.json().code).toBe('TIER_UPGRADE_REQUIRED');
    const bulk = await browser.send({ method: 'POST', url: '/api/bulk', payload: { urls: ['https://example.com'] } });
    expect(bulk.statusCode).toBe(403);
  });

  it('refuses a change without the CSRF token, or with another session\'s, and changes nothing', async () => {
    const browser = new Browser(t.app);
    await browser.signUp(uniqueEmail());
    const other = new Browser(t.app);
    await other.signUp(uniqueEmail());
    for (const token of [undefined, '', other.csrfToken!, `${browser.csrfToken}x`]) {
      const headers: Record<string, string> = { cookie: browser.cookie! };
      if (token !== undefined) headers['x-csrf-token'] = token;
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/links', headers, payload: { url: 'https://example.com/forged' } });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('CSRF_TOKEN_INVALID');
    }
    const deleteAttempt = await t.app.inject({ method: 'DELETE', url: '/api/keys/anything', headers: { cookie: browser.cookie! } });
    expect(deleteAttempt.json().code).toBe('CSRF_TOKEN_INVALID');
    expect((await browser.send({ method: 'GET', url: '/api/links' })).json().links).toEqual([]);
  });

  it('a key in Authorization wins over a cookie, and MCP never reads the cookie', async () => {
    const browser = new Browser(t.app);
    await browser.signUp(uniqueEmail());
    const pro = await t.createUser('pro');
    const res = await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: browser.cookie!, authorization: `Bearer ${pro.apiKey}` } });
    expect(res.json().email).toBe(pro.email);
    const mcp = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { cookie: browser.cookie!, 'x-csrf-token': browser.csrfToken!, accept: 'application/json, text/event-stream' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(mcp.statusCode).toBe(401);
  });

  it('sign-out ends the session on the server, not just in the browser', async () => {
    const browser = new Browser(t.app);
    await browser.signUp(uniqueEmail());
    const stolen = browser.cookie!;
    const noToken = await t.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: { cookie: stolen } });
    expect(noToken.json().code).toBe('CSRF_TOKEN_INVALID');
    const out = await browser.send({ method: 'POST', url: '/api/auth/sign-out' });
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === 'snip_session')?.value).toBe('');
    const reuse = await t.app.inject({ method: 'GET', url: '/api/links', headers: { cookie: stolen } });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().code).toBe('SESSION_REQUIRED');
  });

  it('a password change ends every other session and keeps this browser signed in', async () => {
    const email = uniqueEmail();
    const laptop = new Browser(t.app);
    await laptop.signUp(email, PASSWORD);
    const phone = new Browser(t.app);
    expect((await phone.signIn(email, PASSWORD)).statusCode).toBe(200);

    const wrong = await laptop.send({ method: 'POST', url: '/api/auth/password', payload: { currentPassword: 'not it at all', newPassword: 'a new passphrase' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('WRONG_PASSWORD');
    const weak = await laptop.send({ method: 'POST', url: '/api/auth/password', payload: { currentPassword: PASSWORD, newPassword: 'short' } });
    expect(weak.json().code).toBe('INVALID_PASSWORD');

    const changed = await laptop.send({ method: 'POST', url: '/api/auth/password', payload: { currentPassword: PASSWORD, newPassword: 'a new passphrase' } });
    expect(changed.statusCode).toBe(200);
    expect((await laptop.send({ method: 'GET', url: '/api/links' })).statusCode).toBe(200);
    expect((await phone.send({ method: 'GET', url: '/api/links' })).statusCode).toBe(401);
    expect((await new Browser(t.app).signIn(email, PASSWORD)).statusCode).toBe(401);
    expect((await new Browser(t.app).signIn(email, 'a new passphrase')).statusCode).toBe(200);
  });

  it('deleting the account ends its sessions', async () => {
    const email = uniqueEmail();
    const browser = new Browser(t.app);
    await browser.signUp(email);
    await t.core.accounts.deleteAccount(email);
    expect((await browser.send({ method: 'GET', url: '/api/auth/session' })).statusCode).toBe(401);
  });
});

describe('sign-in attempts are limited per account and per address', () => {
  const t = useTestApp({ AUTH_ATTEMPTS_PER_ADDRESS: '25' });

  it('refuses the 11th failure on one account from one address within 15 minutes, even with the right password, with Retry-After; another address signs in', async () => {
    const email = uniqueEmail();
    await new Browser(t.app).signUp(email, PASSWORD);
    // Concurrent guesses: the counter is charged before the hash, so exactly ten are checked.
    const guesses = await Promise.all(Array.from({ length: 14 }, (_, i) => new Browser(t.app).signIn(email, `wrong guess ${i}`)));
    const statuses = guesses.map((g) => g.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(4);
    const right = await new Browser(t.app).signIn(email, PASSWORD);
    expect(right.statusCode).toBe(429);
    expect(right.json()).toMatchObject({ code: 'TOO_MANY_SIGN_IN_ATTEMPTS' });
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    const elsewhere = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in', remoteAddress: '203.0.113.44', payload: { email, password: PASSWORD } });
    expect(elsewhere.statusCode).toBe(200);
    t.clock.advance(15 * 60_000);
    expect((await new Browser(t.app).signIn(email, PASSWORD)).statusCode).toBe(200);
  });

  it('never counts a successful sign-in', async () => {
    const email = uniqueEmail();
    await new Browser(t.app).signUp(email, PASSWORD);
    for (let i = 0; i < 12; i++) expect((await new Browser(t.app).signIn(email, PASSWORD)).statusCode).toBe(200);
  });

  it('refuses an address that keeps failing across many accounts', async () => {
    // A fresh 15-minute window, whole: the attempts must not straddle two however slow the machine.
    t.clock.startWindow(15 * 60_000);
    const answers = [];
    for (let i = 0; i < 27; i++) answers.push((await new Browser(t.app).signIn(uniqueEmail(), PASSWORD)).statusCode);
    // This window already holds the sign-ups above in it only if they fell in it: count from the first refusal.
    const firstRefusal = answers.indexOf(429);
    expect(firstRefusal).toBeGreaterThan(0);
    expect(answers.slice(firstRefusal).every((s) => s === 429)).toBe(true);
    const other = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in', remoteAddress: '203.0.113.9', payload: { email: uniqueEmail(), password: PASSWORD } });
    expect(other.statusCode).toBe(401);
  });

  it('counts an IPv6 /64 as one address across accounts: rotating through it gains nothing', async () => {
    t.clock.startWindow(15 * 60_000);
    const answers = [];
    for (let i = 1; i <= 27; i++) {
      answers.push((await t.app.inject({ method: 'POST', url: '/api/auth/sign-in', remoteAddress: `2001:db8:77:1::${i.toString(16)}`, payload: { email: uniqueEmail(), password: PASSWORD } })).statusCode);
    }
    expect(answers.filter((s) => s === 401)).toHaveLength(25);
    expect(answers.slice(25)).toEqual([429, 429]);
    const neighbour = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in', remoteAddress: '2001:db8:77:2::1', payload: { email: uniqueEmail(), password: PASSWORD } });
    expect(neighbour.statusCode).toBe(401);
  });
});

describe('dashboard calls and the quotas', () => {
  const t = useTestApp({ PLANS_FILE: new URL('../fixtures/plans-hourly.json', import.meta.url).pathname });

  it('do not use up the hourly API quota of keys', async () => {
    const email = uniqueEmail();
    const browser = new Browser(t.app);
    await browser.signUp(email);
    await t.core.accounts.setTier(email, 'pro');
    for (let i = 0; i < 5; i++) expect((await browser.send({ method: 'GET', url: '/api/links' })).statusCode).toBe(200);
    const { apiKey } = await t.core.accounts.createKey((await t.core.accounts.requireByEmail(email)).id);
    const byKey = await t.as(apiKey, { method: 'GET', url: '/api/links' });
    expect(byKey.statusCode).toBe(200);
    expect(byKey.headers['x-ratelimit-remaining']).toBe('2');
  });
});

describe('dashboard calls and the per-minute limits', () => {
  const t = useTestApp({ PLANS_FILE: new URL('../fixtures/plans-minute.json', import.meta.url).pathname, PUBLIC_REQUESTS_PER_MINUTE: '12' });

  it("are limited per client address, not by the plan's requests per minute: a page's many calls fit", async () => {
    t.clock.startWindow();
    const browser = new Browser(t.app);
    const email = uniqueEmail();
    await browser.signUp(email);
    await t.core.accounts.setTier(email, 'pro');
    const perMinute = t.config.plans.pro.requestsPerMinute!;
    expect(perMinute).toBeLessThan(11);
    // The sign-up itself spent one of the address's 12.
    const answers = await Promise.all(Array.from({ length: 11 }, () => browser.send({ method: 'GET', url: '/api/links' })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(11).fill(200));
    const over = await browser.send({ method: 'GET', url: '/api/links' });
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('RATE_LIMITED');
    // Another address still gets in, and the plan's own limit still holds for the account's key.
    const elsewhere = await t.app.inject({ method: 'GET', url: '/api/links', remoteAddress: '198.51.100.7', headers: { cookie: browser.cookie! } });
    expect(elsewhere.statusCode).toBe(200);
  });
});

describe('SIGNUP=closed', () => {
  const t = useTestApp({ SIGNUP: 'closed' });

  it('refuses sign-up with 403 SIGNUP_CLOSED; accounts the operator made still sign in', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/sign-up', payload: { email: uniqueEmail(), password: PASSWORD } });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('SIGNUP_CLOSED');
    const user = await t.createUser('free');
    await t.core.sessions.setPasswordAsOperator(user.email, PASSWORD);
    expect((await new Browser(t.app).signIn(user.email, PASSWORD)).statusCode).toBe(200);
  });
});

describe.runIf(dialectName === 'postgres')('on PostgreSQL', () => {
  const t = useTestApp();
  it('refuses NUL bytes and huge inputs with 400s, not database errors', async () => {
    for (const payload of [{ email: 'a\u0000@example.com', password: PASSWORD }, { email: `${'a'.repeat(400)}@example.com`, password: PASSWORD }]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in', payload });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
  });
});
