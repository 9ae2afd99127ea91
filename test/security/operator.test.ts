import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectName, startApp, type TestApp } from '../helpers/app.js';
import { Browser, uniqueEmail } from '../sessions/session-client.js';

const PASSWORD = 'correct horse battery';

/**
 * Attacks on the operator's powers: become the operator by racing the first sign-up, use one invite or reset link
 * twice at once, reach the admin operations without being an operator (a member's key with the admin scope, an
 * OAuth-less MCP call, a forged request from another site), and feed the admin inputs NUL bytes and huge numbers.
 */
describe(`the operator's powers under attack (${dialectName})`, () => {
  let t: TestApp;
  let operator: Browser;

  beforeAll(async () => {
    t = await startApp({}, { empty: true });
  });
  afterAll(() => t.close());

  it('makes exactly one operator when ten first sign-ups race on an empty database', async () => {
    const browsers = Array.from({ length: 10 }, () => new Browser(t.app));
    const answers = await Promise.all(browsers.map((b) => b.send({ method: 'POST', url: '/api/auth/sign-up', payload: { email: uniqueEmail('racer'), password: PASSWORD } })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(201));
    const roles = answers.map((a) => a.json().account.role as string);
    expect(roles.filter((r) => r === 'operator')).toHaveLength(1);
    operator = browsers[roles.indexOf('operator')]!;
  });

  it('lets one invite in once when ten sign-ups use it at the same moment', async () => {
    await operator.send({ method: 'PUT', url: '/api/admin/sign-ups', payload: { mode: 'invite', tier: 'free' } });
    const token = new URL((await operator.send({ method: 'POST', url: '/api/admin/invites' })).json().url).searchParams.get('invite')!;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => new Browser(t.app).send({ method: 'POST', url: '/api/auth/sign-up', payload: { email: uniqueEmail('invitee'), password: PASSWORD, invite: token } })),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(new Set(answers.filter((a) => a.statusCode !== 201).map((a) => a.json().code))).toEqual(new Set(['INVALID_INVITE']));
    for (const forged of ['x', 'a'.repeat(43), `${token.slice(0, 42)}\u0000`]) {
      const res = await new Browser(t.app).send({ method: 'POST', url: '/api/auth/sign-up', payload: { email: uniqueEmail(), password: PASSWORD, invite: forged } });
      expect([res.statusCode, res.json().code]).toEqual([400, 'INVALID_INVITE']);
    }
    await operator.send({ method: 'PUT', url: '/api/admin/sign-ups', payload: { mode: 'open', tier: 'free' } });
  });

  it('uses a password reset link once when it is sent ten times at once', async () => {
    const victim = new Browser(t.app);
    const id = (await victim.signUp(uniqueEmail('victim'), PASSWORD)).json().account.id as string;
    const token = new URL((await operator.send({ method: 'POST', url: `/api/admin/accounts/${id}/password-reset` })).json().url).searchParams.get('token')!;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => new Browser(t.app).send({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password: `new password number ${i}` } })),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(new Set(answers.filter((a) => a.statusCode !== 200).map((a) => a.json().code))).toEqual(new Set(['INVALID_RESET_TOKEN']));
  });

  it('never lets a member in: not by session, not with a key given the admin scope, not over MCP', async () => {
    const member = new Browser(t.app);
    const id = (await member.signUp(uniqueEmail('member'), PASSWORD)).json().account.id as string;
    const key = await t.core.accounts.createKey(id, { scopes: ['admin'] });
    for (const url of ['/api/admin/accounts', '/api/admin/status', '/api/admin/audit', '/api/admin/sign-ups']) {
      expect((await member.send({ method: 'GET', url })).statusCode).toBe(403);
      expect((await t.as(key.apiKey, { method: 'GET', url })).json().code).toBe('OPERATOR_REQUIRED');
    }
    const raised = await t.as(key.apiKey, { method: 'PUT', url: `/api/admin/accounts/${id}/role`, payload: { role: 'operator' } });
    expect(raised.statusCode).toBe(403);
    expect((await t.core.admin.account(id)).role).toBe('member');
    // A demoted operator's admin key stops with the role.
    await operator.send({ method: 'PUT', url: `/api/admin/accounts/${id}/role`, payload: { role: 'operator' } });
    expect((await t.as(key.apiKey, { method: 'GET', url: '/api/admin/status' })).statusCode).toBe(200);
    await operator.send({ method: 'PUT', url: `/api/admin/accounts/${id}/role`, payload: { role: 'member' } });
    expect((await t.as(key.apiKey, { method: 'GET', url: '/api/admin/status' })).statusCode).toBe(403);
  });

  it('answers NUL bytes, huge numbers and odd text in admin inputs with stable codes, never a database error', async () => {
    const bad = [
      { method: 'GET' as const, url: '/api/admin/accounts?q=%00' },
      { method: 'GET' as const, url: '/api/admin/accounts?offset=99999999999999999999' },
      { method: 'GET' as const, url: '/api/admin/accounts?limit=-1' },
      { method: 'GET' as const, url: '/api/admin/links/find?url=%00' },
      { method: 'GET' as const, url: '/api/admin/audit?before=%00' },
      { method: 'GET' as const, url: '/api/admin/audit?before=aud_nope' },
      { method: 'PUT' as const, url: '/api/admin/accounts/%00/plan', payload: { tier: 'pro' } },
      { method: 'PUT' as const, url: '/api/admin/sign-ups', payload: { mode: 'sometimes', tier: 'free' } },
    ];
    for (const request of bad) {
      const res = await operator.send(request);
      expect(res.statusCode, `${request.url}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${request.url}: ${res.body}`).toBeLessThan(500);
      expect(res.json().code).toMatch(/^[A-Z_]+$/);
      expect(res.body).not.toMatch(/sqlite|postgres|syntax|kysely/i);
    }
    const link = (await operator.send({ method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/x' } })).json();
    const nul = await operator.send({ method: 'POST', url: `/api/admin/links/${(await t.core.admin.findLink(link.shortCode)).id}/disable`, payload: { reason: 'bad\u0000reason' } });
    expect(nul.statusCode).toBe(400);
  });
});
