import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectName, OPERATOR_EMAIL, startApp, type TestApp } from '../helpers/app.js';
import { rpc } from '../helpers/mcp.js';
import { authorizeByInject, clientId, exchangeByInject } from '../oauth/inject-flow.js';

const PASSWORD = 'correct horse battery';
const CALLBACK = 'http://127.0.0.1:9/callback';
const OWN_LINK = 'https://example.com/member-only';

interface Tokens {
  access_token: string;
  refresh_token: string;
}

/**
 * Disabling an account stops the OAuth grants it gave an application (issue 29, docs/decisions.md "Disabled
 * accounts"): the application's access token is refused on /mcp with ACCOUNT_DISABLED (as the account's keys are),
 * its refresh token gets no new access token, and both work again when the operator enables the account, since a
 * disable is undone by one click and must not make every application connect again.
 */
describe(`a disabled account's OAuth grants (${dialectName})`, () => {
  let t: TestApp;
  let adminKey: string;
  let member: { id: string; email: string; apiKey: string };
  let client: string;
  let tokens: Tokens;

  // The authorization asks for links:read only: listing links is what the token may do.
  const listCall = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_links', arguments: {} } };
  /** The destinations of the links the token sees (the account it acts as), or the refusal's status and code. */
  const asToken = async (token: string) => {
    const res = await rpc(t, token, listCall);
    const body = res.json() as { result?: { isError?: boolean; content: Array<{ text: string }> }; error?: { data?: { code?: string } } };
    if (res.statusCode === 200 && body.result && !body.result.isError) {
      const listed = JSON.parse(body.result.content[0]!.text) as { links: Array<{ long: string }> };
      return { status: 200, links: listed.links.map((l) => l.long) };
    }
    return { status: res.statusCode, code: body.error?.data?.code ?? body.result?.content[0]?.text };
  };
  const refresh = async (refreshToken: string) => {
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: client });
    const res = await t.app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
    return { status: res.statusCode, body: res.json<Partial<Tokens> & { error?: string }>() };
  };
  const admin = (action: 'disable' | 'enable') =>
    t.as(adminKey, { method: 'POST', url: `/api/admin/accounts/${member.id}/${action}`, payload: action === 'disable' ? { reason: 'Spam' } : {} });

  beforeAll(async () => {
    t = await startApp();
    const operator = await t.core.accounts.findForSignIn(OPERATOR_EMAIL);
    adminKey = (await t.core.accounts.createKey(operator!.id, { scopes: ['admin'] })).apiKey;
    member = await t.createUser('pro');
    await t.core.sessions.setPasswordAsOperator(member.email, PASSWORD);
    expect((await t.as(member.apiKey, { method: 'POST', url: '/api/v1/links', payload: { url: OWN_LINK } })).statusCode).toBe(201);
    client = await clientId(t, CALLBACK);
    const { code, verifier } = await authorizeByInject(t, { email: member.email, password: PASSWORD }, client, CALLBACK);
    const exchanged = await exchangeByInject(t, client, code, verifier, CALLBACK);
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    tokens = exchanged.json<Tokens>();
  });
  afterAll(() => t?.close());

  it('refuses the access token on /mcp at once with 403 ACCOUNT_DISABLED, and the refresh token gets no new one', async () => {
    expect(await asToken(tokens.access_token)).toEqual({ status: 200, links: [OWN_LINK] });
    expect((await admin('disable')).statusCode).toBe(200);

    expect(await asToken(tokens.access_token)).toEqual({ status: 403, code: 'ACCOUNT_DISABLED' });
    const refused = await refresh(tokens.refresh_token);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
    expect(refused.body.access_token).toBeUndefined();
  });

  it('lets the same access token and refresh token work again once the account is enabled', async () => {
    expect((await admin('enable')).statusCode).toBe(200);
    expect(await asToken(tokens.access_token)).toEqual({ status: 200, links: [OWN_LINK] });
    const refreshed = await refresh(tokens.refresh_token);
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(await asToken(refreshed.body.access_token!)).toEqual({ status: 200, links: [OWN_LINK] });
    tokens = refreshed.body as Tokens;
  });

  it('refuses the tokens a refresh made before the disable too: the grant stops, not only the token in hand', async () => {
    const second = await refresh(tokens.refresh_token);
    expect(second.status).toBe(200);
    expect((await admin('disable')).statusCode).toBe(200);
    expect(await asToken(second.body.access_token!)).toEqual({ status: 403, code: 'ACCOUNT_DISABLED' });
    expect((await refresh(second.body.refresh_token!)).body.error).toBe('invalid_grant');
  });
});
