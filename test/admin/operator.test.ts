import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectName, startApp, type TestApp } from '../helpers/app.js';
import { Browser, uniqueEmail } from '../sessions/session-client.js';
import { CLI_ACTOR } from '../../src/admin/audit.js';

const PASSWORD = 'correct horse battery';

describe(`the operator's Admin area (${dialectName})`, () => {
  let t: TestApp;
  let operator: Browser;
  let operatorEmail: string;
  let member: Browser;
  let memberEmail: string;
  let memberId: string;

  const adminGet = (browser: Browser, url: string) => browser.send({ method: 'GET', url });

  beforeAll(async () => {
    t = await startApp({}, { empty: true });
    operator = new Browser(t.app);
    operatorEmail = uniqueEmail('op');
    const first = await operator.signUp(operatorEmail, PASSWORD);
    expect(first.json().account.role).toBe('operator');
    member = new Browser(t.app);
    memberEmail = uniqueEmail('member');
    const second = await member.signUp(memberEmail, PASSWORD);
    expect(second.json().account.role).toBe('member');
    memberId = second.json().account.id;
  });
  afterAll(() => t.close());

  it('makes the first account the operator, with no plan limits though its plan is Free', async () => {
    const profile = (await operator.send({ method: 'GET', url: '/api/user' })).json();
    expect(profile.tier).toBe('free');
    expect(profile.limits).toMatchObject({ apiAccess: true, customSlugs: true, domains: null, linksPerDay: null, trackedClicksPerMonth: null });
    // A member on Free keeps Free's limits.
    expect((await member.send({ method: 'GET', url: '/api/user' })).json().limits).toMatchObject({ customSlugs: false, domains: 0 });
    // The operator makes a custom slug on a Free plan: no plan gate applies.
    const created = await operator.send({ method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/op', customSlug: 'op-slug' } });
    expect(created.statusCode, created.body).toBe(201);
  });

  it('refuses the admin operations to members, to keys without the admin scope, to anonymous and cross-site requests', async () => {
    expect((await adminGet(member, '/api/admin/accounts')).json().code).toBe('OPERATOR_REQUIRED');
    expect((await adminGet(member, '/api/admin/accounts')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/status' })).statusCode).toBe(401);
    const operatorId = (await operator.send({ method: 'GET', url: '/api/user' })).json().id as string;
    const plainKey = await t.core.accounts.createKey(operatorId);
    expect((await t.as(plainKey.apiKey, { method: 'GET', url: '/api/admin/status' })).json().code).toBe('OPERATOR_REQUIRED');
    const adminKey = await t.core.accounts.createKey(operatorId, { scopes: ['admin'] });
    expect((await t.as(adminKey.apiKey, { method: 'GET', url: '/api/admin/status' })).statusCode).toBe(200);
    // The admin scope is an operator's: on a member's key it opens nothing.
    const memberAdminKey = await t.core.accounts.createKey(memberId, { scopes: ['admin'] });
    expect((await t.as(memberAdminKey.apiKey, { method: 'GET', url: '/api/admin/status' })).statusCode).toBe(403);
    // Another site's page cannot send the CSRF token.
    const forged = await operator.send({ method: 'PUT', url: `/api/admin/accounts/${memberId}/plan`, payload: { tier: 'pro' }, csrf: false });
    expect(forged.json().code).toBe('CSRF_TOKEN_INVALID');
    expect((await t.core.admin.account(memberId)).tier).toBe('free');
  });

  it("changes a member's plan, which the member's next request sees", async () => {
    const changed = await operator.send({ method: 'PUT', url: `/api/admin/accounts/${memberId}/plan`, payload: { tier: 'pro' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ email: memberEmail, tier: 'pro', role: 'member', disabledAt: null });
    expect((await member.send({ method: 'GET', url: '/api/auth/session' })).json().account.tier).toBe('pro');
    // The same plan again changes nothing, and the log says nothing happened.
    const entries = (await adminGet(operator, '/api/admin/audit')).json().entries.length;
    expect((await operator.send({ method: 'PUT', url: `/api/admin/accounts/${memberId}/plan`, payload: { tier: 'pro' } })).statusCode).toBe(200);
    expect((await adminGet(operator, '/api/admin/audit')).json().entries).toHaveLength(entries);
    const bad = await operator.send({ method: 'PUT', url: `/api/admin/accounts/${memberId}/plan`, payload: { tier: 'gold' } });
    expect(bad.json().code).toBe('INVALID_TIER');
    const missing = await operator.send({ method: 'PUT', url: '/api/admin/accounts/acct_nope/plan', payload: { tier: 'pro' } });
    expect([missing.statusCode, missing.json().code]).toEqual([404, 'ACCOUNT_NOT_FOUND']);
  });

  it('searches accounts by email', async () => {
    const all = (await adminGet(operator, '/api/admin/accounts')).json();
    expect(all.total).toBe(2);
    const found = (await adminGet(operator, `/api/admin/accounts?q=${encodeURIComponent(memberEmail.slice(0, 8))}`)).json();
    expect(found.accounts.map((a: { email: string }) => a.email)).toEqual([memberEmail]);
    expect((await adminGet(operator, '/api/admin/accounts?q=%25')).json().total).toBe(0);
  });

  it('disables an account: its session and key stop at once, its links keep redirecting; enabling restores the key', async () => {
    const link = (await member.send({ method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/kept' } })).json();
    const key = await t.core.accounts.createKey(memberId);
    expect((await t.as(key.apiKey, { method: 'GET', url: '/api/user' })).statusCode).toBe(200);

    const disabled = await operator.send({ method: 'POST', url: `/api/admin/accounts/${memberId}/disable`, payload: { reason: 'spam' } });
    expect(disabled.json()).toMatchObject({ disabledReason: 'spam' });
    const refused = await t.as(key.apiKey, { method: 'GET', url: '/api/user' });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'ACCOUNT_DISABLED']);
    expect((await member.send({ method: 'GET', url: '/api/auth/session' })).statusCode).toBe(401);
    expect((await new Browser(t.app).signIn(memberEmail, PASSWORD)).json().code).toBe('ACCOUNT_DISABLED');
    expect((await t.app.inject({ method: 'GET', url: `/${link.shortCode}` })).statusCode).toBe(302);

    // A disabled account cannot sign in, so no reset link is made for it.
    const reset = await operator.send({ method: 'POST', url: `/api/admin/accounts/${memberId}/password-reset` });
    expect([reset.statusCode, reset.json().code]).toEqual([403, 'ACCOUNT_DISABLED']);
    expect((await operator.send({ method: 'POST', url: `/api/admin/accounts/${memberId}/enable` })).json().disabledAt).toBeNull();
    expect((await t.as(key.apiKey, { method: 'GET', url: '/api/user' })).statusCode).toBe(200);
    expect((await member.signIn(memberEmail, PASSWORD)).statusCode).toBe(200);
  });

  it('makes a one-time password reset link that signs the account in once, and ends its other sessions', async () => {
    const other = new Browser(t.app);
    await other.signIn(memberEmail, PASSWORD);
    const reset = (await operator.send({ method: 'POST', url: `/api/admin/accounts/${memberId}/password-reset` })).json();
    expect(reset.url).toMatch(/^http:\/\/snip\.test\/app\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    const token = new URL(reset.url).searchParams.get('token')!;
    const browser = new Browser(t.app);
    const used = await browser.send({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'a brand new password' } });
    expect(used.statusCode, used.body).toBe(200);
    expect(used.json().account.email).toBe(memberEmail);
    expect((await other.send({ method: 'GET', url: '/api/auth/session' })).statusCode).toBe(401);
    const again = await new Browser(t.app).send({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: 'yet another password' } });
    expect(again.json().code).toBe('INVALID_RESET_TOKEN');
    expect((await new Browser(t.app).signIn(memberEmail, PASSWORD)).statusCode).toBe(401);
    member = browser;
  });

  it('closes sign-ups, then takes them by one-time invite only', async () => {
    const closed = await operator.send({ method: 'PUT', url: '/api/admin/sign-ups', payload: { mode: 'closed', tier: 'free' } });
    expect(closed.json()).toEqual({ mode: 'closed', tier: 'free' });
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/sign-up-options' })).json()).toEqual({ mode: 'closed', firstAccount: false });
    const refused = await new Browser(t.app).send({ method: 'POST', url: '/api/auth/sign-up', payload: { email: uniqueEmail(), password: PASSWORD } });
    expect([refused.statusCode, refused.json().code]).toEqual([403, 'SIGNUP_CLOSED']);

    await operator.send({ method: 'PUT', url: '/api/admin/sign-ups', payload: { mode: 'invite', tier: 'free' } });
    const noInvite = await new Browser(t.app).send({ method: 'POST', url: '/api/auth/sign-up', payload: { email: uniqueEmail(), password: PASSWORD } });
    expect([noInvite.statusCode, noInvite.json().code]).toEqual([403, 'INVITE_REQUIRED']);
    const invite = (await operator.send({ method: 'POST', url: '/api/admin/invites', payload: { tier: 'builder' } })).json();
    expect(invite.tier).toBe('builder');
    const token = new URL(invite.url).searchParams.get('invite')!;
    const joined = await new Browser(t.app).send({ method: 'POST', url: '/api/auth/sign-up', payload: { email: uniqueEmail('invited'), password: PASSWORD, invite: token } });
    expect(joined.statusCode, joined.body).toBe(201);
    expect(joined.json().account).toMatchObject({ tier: 'builder', role: 'member' });
    const reused = await new Browser(t.app).send({ method: 'POST', url: '/api/auth/sign-up', payload: { email: uniqueEmail(), password: PASSWORD, invite: token } });
    expect([reused.statusCode, reused.json().code]).toEqual([400, 'INVALID_INVITE']);
    // An invite given to an email that is taken is not used up by the failure.
    const second = new URL((await operator.send({ method: 'POST', url: '/api/admin/invites' })).json().url).searchParams.get('invite')!;
    const taken = await new Browser(t.app).send({ method: 'POST', url: '/api/auth/sign-up', payload: { email: memberEmail, password: PASSWORD, invite: second } });
    expect(taken.json().code).toBe('EMAIL_TAKEN');
    expect((await new Browser(t.app).send({ method: 'POST', url: '/api/auth/sign-up', payload: { email: uniqueEmail(), password: PASSWORD, invite: second } })).statusCode).toBe(201);
    await operator.send({ method: 'PUT', url: '/api/admin/sign-ups', payload: { mode: 'open', tier: 'free' } });
  });

  it('finds any link by its short URL and disables it with a reason: visitors get a page without the destination, the owner cannot undo it', async () => {
    const link = (await member.send({ method: 'POST', url: '/api/v1/links', payload: { url: 'https://phish.example/login' } })).json();
    const found = (await adminGet(operator, `/api/admin/links/find?url=${encodeURIComponent(link.shortUrl)}`)).json();
    expect(found).toMatchObject({ url: 'https://phish.example/login', owner: { email: memberEmail }, disabledAt: null });
    expect((await adminGet(operator, `/api/admin/links/find?url=${link.shortCode}`)).json().id).toBe(found.id);
    expect((await adminGet(operator, '/api/admin/links/find?url=nope42')).json().code).toBe('NOT_FOUND');

    const noReason = await operator.send({ method: 'POST', url: `/api/admin/links/${found.id}/disable`, payload: { reason: '  ' } });
    expect(noReason.json().code).toBe('INVALID_REASON');
    const disabled = await operator.send({ method: 'POST', url: `/api/admin/links/${found.id}/disable`, payload: { reason: 'Phishing' } });
    expect(disabled.json()).toMatchObject({ disabledReason: 'Phishing' });

    const visit = await t.app.inject({ method: 'GET', url: `/${link.shortCode}` });
    expect(visit.statusCode).toBe(410);
    expect(visit.body).toContain('disabled');
    expect(visit.body).not.toContain('phish.example');
    // Nor does anything else show where it led: the preview page, the public trust score, the owner's resolve.
    expect((await t.app.inject({ method: 'GET', url: `/${link.shortCode}+` })).statusCode).toBe(404);
    const score = await t.app.inject({ method: 'GET', url: `/api/link-scan/${link.shortCode}` });
    expect(score.body).not.toContain('phish.example');
    const resolved = await member.send({ method: 'GET', url: `/api/v1/links/${link.shortCode}/resolve` });
    expect(resolved.json()).toEqual({ url: null, reason: 'disabled' });
    const owner = (await member.send({ method: 'GET', url: `/api/v1/links/${link.shortCode}` })).json();
    expect(owner.disabledReason).toBe('Phishing');
    const edit = await member.send({ method: 'PATCH', url: `/api/v1/links/${link.shortCode}`, payload: { url: 'https://example.com/other' } });
    expect([edit.statusCode, edit.json().code]).toEqual([403, 'LINK_DISABLED']);
    // Deleting would free its short path for a new link: refused too.
    const removed = await member.send({ method: 'DELETE', url: `/api/v1/links/${link.shortCode}` });
    expect([removed.statusCode, removed.json().code]).toEqual([403, 'LINK_DISABLED']);
    // Its public statistics answer like an unknown link to anyone but its owner.
    expect((await t.app.inject({ method: 'GET', url: `/api/stats/${link.shortCode}` })).statusCode).toBe(404);
    expect((await adminGet(operator, '/api/admin/links/find?url=%25')).statusCode).toBe(404);

    await operator.send({ method: 'POST', url: `/api/admin/links/${found.id}/enable` });
    expect((await t.app.inject({ method: 'GET', url: `/${link.shortCode}` })).statusCode).toBe(302);
  });

  it('adds and removes operators; an operator cannot demote, disable or delete themselves, and the last operator stays', async () => {
    const operatorId = (await operator.send({ method: 'GET', url: '/api/user' })).json().id as string;
    for (const request of [
      { method: 'PUT' as const, url: `/api/admin/accounts/${operatorId}/role`, payload: { role: 'member' } },
      { method: 'POST' as const, url: `/api/admin/accounts/${operatorId}/disable`, payload: {} },
      { method: 'DELETE' as const, url: `/api/admin/accounts/${operatorId}` },
    ]) {
      const res = await operator.send(request);
      expect([res.statusCode, res.json().code]).toEqual([409, 'OWN_ACCOUNT']);
    }
    await expect(t.core.admin.setRole(CLI_ACTOR, operatorId, 'member')).rejects.toMatchObject({ code: 'LAST_OPERATOR' });
    const promoted = await operator.send({ method: 'PUT', url: `/api/admin/accounts/${memberId}/role`, payload: { role: 'operator' } });
    expect(promoted.json().role).toBe('operator');
    expect((await member.send({ method: 'GET', url: '/api/admin/status' })).statusCode).toBe(200);
    await operator.send({ method: 'PUT', url: `/api/admin/accounts/${memberId}/role`, payload: { role: 'member' } });
    expect((await member.send({ method: 'GET', url: '/api/admin/status' })).statusCode).toBe(403);
  });

  it('answers the status panel and an audit log of every action, newest first, with who and when, page by page', async () => {
    const status = (await adminGet(operator, '/api/admin/status')).json();
    expect(status).toMatchObject({ database: dialectName, redis: 'not configured', journalLag: expect.any(Number), webhookBacklog: expect.any(Number) });
    expect(status.accounts).toBeGreaterThanOrEqual(4);
    const log = (await adminGet(operator, '/api/admin/audit?limit=100')).json();
    const actions = log.entries.map((e: { action: string }) => e.action);
    for (const action of ['account.plan', 'account.disable', 'account.enable', 'account.password-reset', 'sign-ups.update', 'invite.create', 'link.disable', 'link.enable', 'account.role']) {
      expect(actions).toContain(action);
    }
    expect(log.entries.find((e: { action: string }) => e.action === 'account.plan')).toMatchObject({ actor: operatorEmail, target: memberEmail, detail: { from: 'free', to: 'pro' } });
    expect(log.entries.find((e: { actor: string }) => e.actor === 'cli')).toBeUndefined();
    const times = log.entries.map((e: { at: string }) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    const first = (await adminGet(operator, '/api/admin/audit?limit=2')).json();
    const next = (await adminGet(operator, `/api/admin/audit?limit=2&before=${first.next}`)).json();
    expect(next.entries[0].id).toBe(log.entries[2].id);
  });

  it('deletes an account with what it owned', async () => {
    const doomed = new Browser(t.app);
    const id = (await doomed.signUp(uniqueEmail('doomed'), PASSWORD)).json().account.id;
    await doomed.send({ method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/doomed' } });
    const res = await operator.send({ method: 'DELETE', url: `/api/admin/accounts/${id}` });
    expect(res.json()).toMatchObject({ deleted: true, links: 1 });
    expect((await operator.send({ method: 'DELETE', url: `/api/admin/accounts/${id}` })).statusCode).toBe(404);
  });
});
