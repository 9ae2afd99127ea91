import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectName, startApp, type TestApp, type TestUser } from '../helpers/app.js';
import { ok, refused } from '../helpers/mcp.js';
import { hasChromium, launch } from '../e2e/browser.js';
import { approve, CallbackServer, MemoryOAuthClient, pkce, postForm } from './helpers.js';
import { freePort } from '../helpers/processes.js';

/**
 * OAuth 2.1 for the MCP endpoint as an MCP client meets it: the SDK's own `auth()` discovers the server, registers,
 * and sends the person to Chromium, who signs in with the dashboard's labels and allows; then the client calls tools,
 * refreshes, and is refused everything the flow must refuse. One listening server (BASE_URL names its port) and one
 * browser for the file.
 */
describe.skipIf(!hasChromium)(`OAuth 2.1 for MCP, through the SDK client and Chromium (${dialectName})`, () => {
  let t: TestApp;
  let base = '';
  let mcpUrl: URL;
  let browser: Browser;
  let owner: TestUser & { password: string };
  const password = 'a long enough password';
  const callback = new CallbackServer();
  const otherPort = new CallbackServer();
  const seen = callback.seen;
  let CALLBACK = '';

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startApp({ BASE_URL: base });
    await t.app.listen({ port, host: '127.0.0.1' });
    mcpUrl = new URL(`${base}/mcp`);
    owner = { ...(await t.createUser('pro')), password };
    await t.core.sessions.setPasswordAsOperator(owner.email, password);
    browser = await launch();
    await callback.start();
    await otherPort.start();
    CALLBACK = callback.url;
  });
  afterAll(async () => {
    await callback.close();
    await otherPort.close();
    await browser?.close();
    await t?.close();
  });

  /** A browser of its own, with no session yet. */
  async function freshBrowser(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext();
    return { context, page: await context.newPage() };
  }

  /** A client connected the whole way, as the SDK does it: discovery, registration, consent, code exchange. */
  async function connect(name: string, page: Page, account: { email: string; password: string } | undefined = owner, scope?: string) {
    const client = new MemoryOAuthClient(CALLBACK, name, scope);
    expect(await auth(client, { serverUrl: mcpUrl, ...(scope ? { scope } : {}) })).toBe('REDIRECT');
    const back = await approve(page, seen, client.authorizationUrl!, 'Allow', account);
    expect(back.searchParams.get('state')).toBe(client.stateValue);
    expect(back.searchParams.get('iss')).toBe(base);
    expect(await auth(client, { serverUrl: mcpUrl, authorizationCode: back.searchParams.get('code')! })).toBe('AUTHORIZED');
    return client;
  }

  async function mcpClient(oauth: MemoryOAuthClient): Promise<Client> {
    const client = new Client({ name: 'oauth-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: oauth }));
    return client;
  }

  const mcpPost = (token: string) =>
    fetch(mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });

  /** Registers a public client by hand (RFC 7591), for the refusals the SDK would never send. */
  async function register(redirectUris = [callback.url]): Promise<string> {
    const res = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Hand-made client', redirect_uris: redirectUris, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { client_id: string }).client_id;
  }

  function authorizeUrl(clientId: string, params: Record<string, string | null>): string {
    const url = new URL(`${base}/oauth/authorize`);
    const all: Record<string, string | null> = { response_type: 'code', client_id: clientId, redirect_uri: CALLBACK, scope: 'links:read links:write', state: 'xyz', ...params };
    for (const [name, value] of Object.entries(all)) if (value !== null) url.searchParams.set(name, value);
    return url.href;
  }

  const exchange = (clientId: string, code: string, verifier: string, extra: Record<string, string> = {}) =>
    postForm(`${base}/oauth/token`, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: CALLBACK, ...extra });

  it('answers 401 with the protected-resource metadata, which leads to the authorization server', async () => {
    const res = await fetch(mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const metadata = (await (await fetch(`${base}${path}`)).json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base], scopes_supported: expect.arrayContaining(['links:read', 'links:write', 'analytics:read']) });
    }
    const server = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(server).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      grant_types_supported: expect.arrayContaining(['authorization_code', 'refresh_token']),
    });
    // A token that is not one: invalid_token, and still where to get one.
    const bad = await mcpPost('not-a-real-token-at-all-0123456789');
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`);
    // The code, in whichever shape /mcp answers errors in.
    expect(JSON.stringify(await bad.json())).toContain('"code":"INVALID_API_KEY"');
  });

  it('connects with the SDK, calls a tool as the account, refreshes with rotation, and a reused refresh token ends the family', async () => {
    const { context, page } = await freshBrowser();
    const oauth = await connect('Claude Test', page);
    const first = oauth.saved!;
    expect(first).toMatchObject({ token_type: expect.stringMatching(/^bearer$/i), expires_in: 900, refresh_token: expect.any(String) });
    expect(first.scope!.split(' ')).toEqual(expect.arrayContaining(['links:read', 'links:write', 'account:read']));

    const client = await mcpClient(oauth);
    const link = await ok<{ shortCode: string; source: string; clientName: string }>(client, 'shorten_url', { url: 'https://example.com/oauth' });
    expect(link).toMatchObject({ source: 'mcp', clientName: 'Claude Test' });
    expect(await ok<{ email: string }>(client, 'get_profile')).toMatchObject({ email: owner.email });
    await client.close();

    // Tokens are kept only as hashes: neither the table's ids nor its payloads hold them.
    const rows = await t.core.database.db.selectFrom('oauth_records').select(['id', 'payload']).execute();
    const stored = rows.map((row) => `${row.id} ${row.payload}`).join('\n');
    expect(stored).not.toContain(first.access_token);
    expect(stored).not.toContain(first.refresh_token!);

    // auth() with a refresh token refreshes; the refresh token rotates.
    expect(await auth(oauth, { serverUrl: mcpUrl })).toBe('AUTHORIZED');
    const second = oauth.saved!;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await mcpPost(second.access_token)).status).toBe(200);

    // The first refresh token again: refused, and the whole family with it.
    const reuse = await postForm(`${base}/oauth/token`, { grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: String(oauth.client!.client_id) });
    expect(reuse).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const after = await postForm(`${base}/oauth/token`, { grant_type: 'refresh_token', refresh_token: second.refresh_token!, client_id: String(oauth.client!.client_id) });
    expect(after).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await mcpPost(second.access_token)).status).toBe(401);
    await context.close();
  });

  it('lets one of two concurrent refreshes with the same token through, and treats the other as the reuse it is', async () => {
    const { context, page } = await freshBrowser();
    const oauth = await connect('Racer', page);
    const clientId = String(oauth.client!.client_id);
    const refresh = () => postForm(`${base}/oauth/token`, { grant_type: 'refresh_token', refresh_token: oauth.saved!.refresh_token!, client_id: clientId });
    const answers = await Promise.all([refresh(), refresh(), refresh()]);
    const won = answers.filter((answer) => answer.status === 200);
    expect(won).toHaveLength(1);
    for (const lost of answers.filter((answer) => answer.status !== 200)) expect(lost).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // The reuse ended the connection: the winner's new tokens are worthless too.
    expect((await mcpPost(String(won[0]!.body.access_token))).status).toBe(401);
    expect(await postForm(`${base}/oauth/token`, { grant_type: 'refresh_token', refresh_token: String(won[0]!.body.refresh_token), client_id: clientId })).toMatchObject({ status: 400 });
    await context.close();
  });

  it("shows the application's registered name as text, never as markup, and answers the connections API on A and B", async () => {
    const { context, page } = await freshBrowser();
    const hostile = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    const oauth = new MemoryOAuthClient(CALLBACK, hostile);
    expect(await auth(oauth, { serverUrl: mcpUrl })).toBe('REDIRECT');
    await page.goto(String(oauth.authorizationUrl));
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Allow' }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain(hostile);
    expect(await page.locator('script, img').count()).toBe(0);
    await page.getByRole('button', { name: 'Allow' }).click();
    await expect.poll(() => seen.at(-1)?.searchParams.get('state')).toBe(oauth.stateValue);

    const a = await t.as(owner, { method: 'GET', url: '/api/v1/oauth/connections' });
    const b = await t.as(owner, { method: 'GET', url: '/api/oauth/connections' });
    expect(b.json()).toEqual(a.json());
    const mine = a.json<{ connections: { id: string; clientName: string }[] }>().connections.find((c) => c.clientName === hostile)!;
    // Another account can neither see nor end it.
    const stranger = await t.createUser('pro');
    expect((await t.as(stranger, { method: 'GET', url: '/api/v1/oauth/connections' })).json()).toEqual({ connections: [] });
    const theirs = await t.as(stranger, { method: 'DELETE', url: `/api/oauth/connections/${mine.id}` });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ code: 'CONNECTION_NOT_FOUND' });
    expect((await t.as(owner, { method: 'DELETE', url: `/api/oauth/connections/${mine.id}` })).json()).toEqual({ success: true, message: 'Application disconnected' });
    expect((await t.as(owner, { method: 'DELETE', url: `/api/oauth/connections/${mine.id}` })).statusCode).toBe(404);
    await context.close();
  });

  it('does not ask a signed-in person sent from another site to sign in again (one same-site hop brings the session)', async () => {
    const { context, page } = await freshBrowser();
    await connect('First', page);
    const oauth = new MemoryOAuthClient(CALLBACK, 'Linked from elsewhere');
    expect(await auth(oauth, { serverUrl: mcpUrl })).toBe('REDIRECT');
    // localhost is another site than 127.0.0.1: the session cookie (SameSite=Strict) is withheld on this navigation.
    await page.goto(`${otherPort.url.replace('127.0.0.1', 'localhost').replace('/callback', '/link')}?to=${encodeURIComponent(String(oauth.authorizationUrl))}`);
    await page.getByRole('link', { name: 'Connect Snip' }).click();
    await page.getByRole('button', { name: 'Allow' }).waitFor();
    expect(await page.getByLabel('Password').count()).toBe(0);
    await context.close();
  });

  it('connects the account signed in now, not the one an earlier authorization in the same browser was for', async () => {
    const { context, page } = await freshBrowser();
    await connect('Shared computer', page);
    // The consent page names who is signed in; someone else signs in from there instead.
    const other = { ...(await t.createUser('pro')), password };
    await t.core.sessions.setPasswordAsOperator(other.email, password);
    const oauth = new MemoryOAuthClient(CALLBACK, 'Shared computer');
    expect(await auth(oauth, { serverUrl: mcpUrl })).toBe('REDIRECT');
    await page.goto(String(oauth.authorizationUrl));
    await page.getByText(`Signed in as ${owner.email}`).waitFor();
    await page.getByRole('button', { name: 'Sign in with another account' }).click();
    await page.getByLabel('Email').waitFor();
    const back = await approve(page, seen, page.url(), 'Allow', other);
    expect(await auth(oauth, { serverUrl: mcpUrl, authorizationCode: back.searchParams.get('code')! })).toBe('AUTHORIZED');
    const client = await mcpClient(oauth);
    expect(await ok<{ email: string }>(client, 'get_profile')).toMatchObject({ email: other.email });
    await client.close();
    await context.close();
  });

  it('takes a desktop client that registers an app-scheme redirect URI as native, and lets browser clients read the 401', async () => {
    const appUri = 'cursor://anysphere.cursor-retrieval/oauth/user-snip/callback';
    const registered = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Cursor', redirect_uris: [appUri], token_endpoint_auth_method: 'none' }),
    });
    expect(registered.status).toBe(201);
    const client = (await registered.json()) as { client_id: string; application_type: string };
    expect(client.application_type).toBe('native');
    const started = await fetch(authorizeUrl(client.client_id, { redirect_uri: appUri, code_challenge: pkce().challenge, code_challenge_method: 'S256' }), { redirect: 'manual' });
    expect(started.status).toBe(303);
    expect(started.headers.get('location')).toMatch(/^\/oauth\/interaction\//);
    // A client that says it is a web application keeps the web rules.
    const web = await fetch(`${base}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ application_type: 'web', redirect_uris: [appUri], token_endpoint_auth_method: 'none' }),
    });
    expect(web.status).toBe(400);

    const origin = { origin: 'http://localhost:6274' };
    const preflight = await fetch(mcpUrl, { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    const denied = await fetch(mcpUrl, { method: 'POST', headers: { ...origin, 'content-type': 'application/json' }, body: '{}' });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe('*');
    expect(denied.headers.get('access-control-expose-headers')).toContain('www-authenticate');
  });

  it('grants a request that asks only openid offline_access the default scopes, shown and granted alike; refuses a NUL in a form', async () => {
    const { context, page } = await freshBrowser();
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const back = await approve(page, seen, authorizeUrl(clientId, { scope: 'openid offline_access', code_challenge: challenge, code_challenge_method: 'S256' }), 'Allow', owner);
    const token = await exchange(clientId, back.searchParams.get('code')!, verifier);
    expect(token.status).toBe(200);
    expect(String(token.body.scope).split(' ')).toEqual(expect.arrayContaining(['links:read', 'links:write', 'account:write']));
    await context.close();

    const nul = await fetch(`${base}/oauth/interaction/anything/sign-in`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=a%00b%40example.com&password=x' });
    expect(nul.status).toBe(400);
    expect(((await nul.json()) as { code: string }).code).toMatch(/^INVALID_/);
  });

  it('answers a hostile client id or token as unknown, on either database', async () => {
    const forms: Record<string, string>[] = [
      { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'abc\u0000def' },
      { grant_type: 'refresh_token', refresh_token: 'abc\u0000def', client_id: await register() },
      { grant_type: 'authorization_code', code: 'c'.repeat(5000), client_id: 'z'.repeat(5000), code_verifier: 'v'.repeat(43), redirect_uri: CALLBACK },
    ];
    for (const form of forms) {
      const answer = await postForm(`${base}/oauth/token`, form);
      expect(answer.status, JSON.stringify(answer.body)).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.body.error).toMatch(/^invalid_(client|grant|request)$/);
    }
  });

  it('sweeps registrations nobody connected after a day, and keeps those with a connection', async () => {
    const unused = await register();
    // No registration management (RFC 7592): nothing is stored for an anonymous registration but the client.
    expect(await t.core.database.db.selectFrom('oauth_records').select('id').where('model', '=', 'RegistrationAccessToken').execute()).toEqual([]);
    const { context, page } = await freshBrowser();
    const used = await connect('Kept', page);
    await context.close();
    t.clock.advance(86_400_000 + 60_000);
    await t.core.oauth.sweep();
    const clients = await t.core.database.db.selectFrom('oauth_records').select('id').where('model', '=', 'Client').execute();
    const ids = clients.map((row) => row.id);
    expect(ids).not.toContain(unused);
    expect(ids).toContain(String(used.client!.client_id));
  });

  it('revokes access and refresh tokens (RFC 7009), and an expired access token stops working', async () => {
    const { context, page } = await freshBrowser();
    const oauth = await connect('Revoker', page);
    const clientId = String(oauth.client!.client_id);
    const { access_token: access, refresh_token: refresh } = oauth.saved!;
    expect((await mcpPost(access)).status).toBe(200);
    expect((await postForm(`${base}/oauth/revoke`, { token: access, client_id: clientId })).status).toBe(200);
    expect((await mcpPost(access)).status).toBe(401);
    expect((await postForm(`${base}/oauth/revoke`, { token: refresh!, client_id: clientId })).status).toBe(200);
    expect(await postForm(`${base}/oauth/token`, { grant_type: 'refresh_token', refresh_token: refresh!, client_id: clientId })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    // A second connection (the browser is signed in now: straight to consent) whose access token outlives its 15 minutes.
    const later = await connect('Revoker', page, undefined);
    expect((await mcpPost(later.saved!.access_token)).status).toBe(200);
    t.clock.advance(15 * 60_000 + 1000);
    expect((await mcpPost(later.saved!.access_token)).status).toBe(401);
    // ...while its refresh token still gets a new one.
    expect(await auth(later, { serverUrl: mcpUrl })).toBe('AUTHORIZED');
    expect((await mcpPost(later.saved!.access_token)).status).toBe(200);
    await context.close();
  });

  it('refuses a wrong verifier, plain or missing PKCE, a wrong redirect URI, a reused or expired code, another resource, and Deny', async () => {
    const { context, page } = await freshBrowser();
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const s256 = { code_challenge: challenge, code_challenge_method: 'S256' };

    // Deny: back to the application with access_denied and its state.
    const denied = await approve(page, seen, authorizeUrl(clientId, s256), 'Deny', owner);
    expect(Object.fromEntries(denied.searchParams)).toMatchObject({ error: 'access_denied', state: 'xyz' });

    // Plain and missing challenges never reach the consent page.
    for (const params of [{ code_challenge: verifier, code_challenge_method: 'plain' }, { code_challenge: null, code_challenge_method: null }]) {
      const before = seen.length;
      await page.goto(authorizeUrl(clientId, params));
      await expect.poll(() => seen.length).toBe(before + 1);
      expect(seen[before]!.searchParams.get('error')).toBe('invalid_request');
    }

    // An unregistered redirect URI: an error page here, never a redirect there.
    const elsewhere = await page.goto(authorizeUrl(clientId, { ...s256, redirect_uri: 'https://attacker.example/callback' }));
    expect(elsewhere!.status()).toBe(400);
    expect(page.url()).toContain(`${base}/oauth/authorize`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/cannot connect/i);

    // Another resource than the MCP endpoint: invalid_target.
    const target = await approveOrCallback(page, seen, authorizeUrl(clientId, { ...s256, resource: 'https://other.example/api' }));
    expect(target.searchParams.get('error')).toBe('invalid_target');

    // A code with the wrong verifier, then reused, then one that has expired.
    const code = (await approve(page, seen, authorizeUrl(clientId, s256), 'Allow')).searchParams.get('code')!;
    expect(await exchange(clientId, code, pkce().verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const code2 = (await approve(page, seen, authorizeUrl(clientId, s256), 'Allow')).searchParams.get('code')!;
    const good = await exchange(clientId, code2, verifier);
    expect(good.status).toBe(200);
    expect((await mcpPost(String(good.body.access_token))).status).toBe(200);
    expect(await exchange(clientId, code2, verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // A reused code revokes what the first exchange issued.
    expect((await mcpPost(String(good.body.access_token))).status).toBe(401);
    const code3 = (await approve(page, seen, authorizeUrl(clientId, s256), 'Allow')).searchParams.get('code')!;
    t.clock.advance(61_000);
    expect(await exchange(clientId, code3, verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // Asking the token endpoint for another resource: invalid_target.
    const code4 = (await approve(page, seen, authorizeUrl(clientId, s256), 'Allow')).searchParams.get('code')!;
    expect(await exchange(clientId, code4, verifier, { resource: 'https://other.example/api' })).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
    await context.close();
  });

  it('takes a loopback redirect URI on any port (RFC 8252), but nothing else beside the registered one', async () => {
    const { context, page } = await freshBrowser();
    const clientId = await register();
    const { challenge, verifier } = pkce();
    const back = await approve(page, otherPort.seen, authorizeUrl(clientId, { code_challenge: challenge, code_challenge_method: 'S256', redirect_uri: otherPort.url }), 'Allow', owner);
    expect(back.origin).toBe(new URL(otherPort.url).origin);
    const token = await postForm(`${base}/oauth/token`, { grant_type: 'authorization_code', client_id: clientId, code: back.searchParams.get('code')!, code_verifier: verifier, redirect_uri: otherPort.url });
    expect(token.status).toBe(200);
    const wrongPath = await page.goto(authorizeUrl(clientId, { code_challenge: challenge, code_challenge_method: 'S256', redirect_uri: otherPort.url.replace('/callback', '/other') }));
    expect(wrongPath!.status()).toBe(400);
    await context.close();
  });

  it('narrows tools to the granted scopes, applies the plan on every call, and keeps REST to API keys', async () => {
    const { context, page } = await freshBrowser();
    const reader = await connect('Reader', page, owner, 'links:read');
    expect(reader.saved!.scope).toBe('links:read');
    const client = await mcpClient(reader);
    await ok(client, 'list_links');
    const refusal = await refused(client, 'shorten_url', { url: 'https://example.com/no' }, 'INSUFFICIENT_SCOPE');
    expect(refusal.message).toContain('links:write');
    await refused(client, 'get_profile', {}, 'INSUFFICIENT_SCOPE');

    // The plan is read on every call: down to Free, the API-access tools answer the upgrade error.
    await t.core.accounts.setTier(owner.email, 'free');
    await refused(client, 'list_links', {}, 'TIER_REQUIRED');
    await t.core.accounts.setTier(owner.email, 'pro');
    await ok(client, 'list_links');
    await client.close();

    // An access token is for the MCP endpoint only: REST answers as for any bearer that is not a key.
    const rest = await fetch(`${base}/api/v1/links`, { headers: { authorization: `Bearer ${reader.saved!.access_token}` } });
    expect(rest.status).toBe(401);
    expect(await rest.json()).toMatchObject({ code: 'INVALID_API_KEY' });
    await context.close();
  });

  it('lists the connected applications on the dashboard, and Disconnect stops their tokens', async () => {
    const { context, page } = await freshBrowser();
    const oauth = await connect('Dashboard Listed App', page);
    expect((await mcpPost(oauth.saved!.access_token)).status).toBe(200);

    const listed = await t.as(owner, { method: 'GET', url: '/api/v1/oauth/connections' });
    expect(listed.statusCode).toBe(200);
    const connections = listed.json<{ connections: { id: string; clientName: string; scopes: string[] }[] }>().connections;
    expect(connections.find((c) => c.clientName === 'Dashboard Listed App')).toMatchObject({ scopes: expect.arrayContaining(['links:write']) });

    await page.goto(`${base}/app/account`);
    const region = page.getByRole('region', { name: 'Connected applications' });
    await region.getByText('Dashboard Listed App').waitFor();
    await region.getByRole('button', { name: 'Disconnect Dashboard Listed App' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
    await expect.poll(() => region.getByText('Dashboard Listed App').count()).toBe(0);
    expect((await mcpPost(oauth.saved!.access_token)).status).toBe(401);
    expect(await postForm(`${base}/oauth/token`, { grant_type: 'refresh_token', refresh_token: oauth.saved!.refresh_token!, client_id: String(oauth.client!.client_id) })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    await context.close();
  });

  it("counts the consent flow's wrong passwords against the dashboard's sign-in limits", async () => {
    const victim = await t.createUser('pro');
    await t.core.sessions.setPasswordAsOperator(victim.email, password);
    const { context, page } = await freshBrowser();
    const clientId = await register();
    await page.goto(authorizeUrl(clientId, { code_challenge: pkce().challenge, code_challenge_method: 'S256' }));
    const statuses: number[] = [];
    page.on('response', (response) => {
      if (response.request().method() === 'POST') statuses.push(response.status());
    });
    for (let attempt = 0; attempt < 11; attempt++) {
      await page.getByLabel('Email').fill(victim.email);
      await page.getByLabel('Password').fill('not the password');
      await Promise.all([page.waitForResponse((response) => response.request().method() === 'POST'), page.getByRole('button', { name: 'Sign in' }).click()]);
      await page.getByRole('alert').waitFor();
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/too many/i);
    await context.close();
  });
});

/** The browser's visit to the callback an authorization request ends in without any page of Snip's. */
async function approveOrCallback(page: Page, seen: URL[], url: string): Promise<URL> {
  const before = seen.length;
  await page.goto(url);
  await expect.poll(() => seen.length).toBe(before + 1);
  return seen[before]!;
}
