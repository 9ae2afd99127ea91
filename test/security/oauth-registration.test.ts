import http from 'node:http';
import type net from 'node:net';
import { describe, expect, it } from 'vitest';
import { oauthAdapter } from '../../src/oauth/adapter.js';
import { OAuthRepository } from '../../src/oauth/repository.js';
import { dialectName, useTestApp, type BlockApp } from '../helpers/app.js';
import { freePort } from '../helpers/processes.js';
import { authorizeByInject, authorizePath, clientId, registerClient } from '../oauth/inject-flow.js';

/**
 * Attack: anyone may register an OAuth client (RFC 7591), and what one stored was unbounded. A registration with
 * `http://evil.example.com/cb` was taken and got codes delivered there; one anonymous registration stored 54 KB; a
 * burst across a minute's end got 547 registrations through a 300-per-minute limit; unused registrations lived 30 days;
 * and a browser-based MCP client could not register (no CORS). Now redirect URIs are https, loopback http or an app's
 * private-use scheme; the body and each field are bounded and metadata Snip does not use is dropped; registrations are
 * limited per address in any hour and any day (a burst across a window's end gains nothing), and in total while
 * unused; unused ones go after a day; /oauth/register answers CORS.
 */
const CALLBACK = 'http://127.0.0.1:4999/callback';
const HOUR = 3_600_000;

const errorOf = (answer: { json: <T>() => T }) => answer.json<{ error: string; error_description?: string }>().error;

describe(`OAuth registration: where codes may go, and how much is kept (${dialectName})`, () => {
  const t = useTestApp();

  it('refuses plain http to any host but this machine with invalid_redirect_uri, and other schemes a browser handles', async () => {
    const refused = [
      'http://evil.example.com/cb',
      'http://192.0.2.10/cb',
      'http://127.0.0.1.evil.example/cb',
      'http://localhost.evil.example/cb',
      'javascript:alert(1)',
      'data:text/html,hi',
      'file:///etc/passwd',
      'intent://cb#Intent;scheme=x;end',
      'ws://127.0.0.1/cb',
      'not a uri',
    ];
    for (const uri of refused) {
      for (const kind of [{}, { application_type: 'native' }, { application_type: 'web' }]) {
        const answer = await registerClient(t, { redirect_uris: [uri], ...kind });
        expect(answer.statusCode, `${uri} ${JSON.stringify(kind)}`).toBe(400);
        expect(errorOf(answer), uri).toBe('invalid_redirect_uri');
      }
    }
    // One bad URI among good ones refuses the registration.
    expect(errorOf(await registerClient(t, { redirect_uris: [CALLBACK, 'http://evil.example.com/cb'] }))).toBe('invalid_redirect_uri');
  });

  it('takes https, loopback http on any port, and private-use app schemes (RFC 8252)', async () => {
    const taken = [
      'https://app.example/callback',
      'http://127.0.0.1:33418/callback',
      'http://localhost/callback',
      'http://[::1]:8080/callback',
      'cursor://anysphere.cursor-retrieval/oauth/user-snip/callback',
      'com.example.app:/oauth2redirect',
      'vscode://vscode.github-authentication/did-authenticate',
    ];
    for (const uri of taken) {
      const answer = await registerClient(t, { redirect_uris: [uri] });
      expect(answer.statusCode, `${uri}: ${answer.body}`).toBe(201);
    }
  });

  it('never delivers a code to a plain-http registration stored before the rule', async () => {
    const repo = new OAuthRepository(t.core.database.db);
    const Adapter = oauthAdapter(repo, t.clock);
    const legacy = 'legacy-http-client-0001';
    await new Adapter('Client').upsert(legacy, {
      client_id: legacy,
      client_id_issued_at: Math.floor(Date.now() / 1000),
      client_name: 'Old registration',
      redirect_uris: ['http://evil.example.com/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'web',
    });
    const answer = await t.app.inject({ method: 'GET', url: authorizePath(legacy, 'http://evil.example.com/cb').url });
    expect(answer.statusCode).toBe(400);
    expect(answer.headers.location).toBeUndefined();
    expect(answer.body).toContain('invalid_redirect_uri');
  });

  it('bounds the body and every field, and drops the metadata Snip does not use (and never fetches a URL it names)', async () => {
    const big = await registerClient(t, { redirect_uris: [CALLBACK], client_name: 'x', padding: 'p'.repeat(20_000) });
    expect(big.statusCode).toBe(413);
    expect(big.json<{ code: string }>().code).toBe('BODY_TOO_LARGE');

    const bounds: Array<[Record<string, unknown>, string]> = [
      [{ redirect_uris: [CALLBACK], client_name: 'n'.repeat(201) }, 'invalid_client_metadata'],
      [{ redirect_uris: [CALLBACK], client_uri: `https://app.example/${'u'.repeat(1000)}` }, 'invalid_client_metadata'],
      [{ redirect_uris: [CALLBACK], scope: 'links:read '.repeat(100) }, 'invalid_client_metadata'],
      [{ redirect_uris: Array.from({ length: 11 }, (_, i) => `http://127.0.0.1/cb${i}`) }, 'invalid_redirect_uri'],
      [{ redirect_uris: [`https://app.example/${'r'.repeat(1000)}`] }, 'invalid_redirect_uri'],
      [{ redirect_uris: [CALLBACK], grant_types: Array.from({ length: 11 }, () => 'authorization_code') }, 'invalid_client_metadata'],
    ];
    for (const [metadata, error] of bounds) {
      const answer = await registerClient(t, metadata);
      expect(answer.statusCode, JSON.stringify(metadata).slice(0, 80)).toBe(400);
      expect(errorOf(answer)).toBe(error);
    }

    // A sector_identifier_uri the library would fetch at registration: it is dropped, and nothing is fetched.
    let fetched = 0;
    const listener = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([CALLBACK]));
    });
    // Counted per connection: the URIs are https, so a fetch would reach this plain-HTTP listener as a TLS hello that
    // never becomes a request.
    listener.on('connection', () => {
      fetched += 1;
    });
    const port = await freePort();
    await new Promise<void>((resolve) => listener.listen(port, '127.0.0.1', resolve));
    const dropped = {
      sector_identifier_uri: `https://127.0.0.1:${port}/sector`,
      jwks_uri: `https://127.0.0.1:${port}/jwks`,
      logo_uri: 'https://app.example/logo.png',
      policy_uri: 'https://app.example/policy',
      tos_uri: 'https://app.example/tos',
      contacts: ['someone@example.com'],
      post_logout_redirect_uris: ['https://evil.test/phish'],
      response_modes: ['form_post'],
      default_max_age: 1,
      require_auth_time: true,
      software_statement: 'x.y.z',
      anything_else: 'a'.repeat(8000),
    };
    const answer = await registerClient(t, { client_name: 'Kept small', redirect_uris: [CALLBACK], ...dropped });
    expect(answer.statusCode, answer.body).toBe(201);
    const registered = answer.json<Record<string, unknown>>();
    // Gone, or the library's own default in its place (require_auth_time: false).
    for (const [key, value] of Object.entries(dropped)) expect(registered[key], key).not.toEqual(value);
    expect(registered).toMatchObject({ client_name: 'Kept small', redirect_uris: [CALLBACK] });
    const row = await t.core.database.db.selectFrom('oauth_records').select('payload').where('model', '=', 'Client').where('id', '=', String(registered.client_id)).executeTakeFirstOrThrow();
    expect(row.payload.length).toBeLessThan(1000);
    for (const value of ['/sector', '/jwks', 'logo.png', '/policy', '/tos', 'someone@', 'evil.test', 'form_post', 'x.y.z', 'aaaa']) expect(row.payload).not.toContain(value);
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    expect(fetched).toBe(0);
  });

  it('refuses a registration body of undeclared length (chunked) over a real socket, and takes a declared one', async () => {
    const port = await freePort();
    await t.app.listen({ port, host: '127.0.0.1' });
    const send = (chunked: boolean) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const body = JSON.stringify({ redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' });
        const request = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/oauth/register', headers: { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': Buffer.byteLength(body) }) } }, (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        });
        request.on('error', reject);
        if (chunked) request.setHeader('transfer-encoding', 'chunked');
        request.end(body);
      });
    const chunked = await send(true);
    expect(chunked.status, chunked.body).toBe(400);
    expect(JSON.parse(chunked.body)).toMatchObject({ code: 'BAD_REQUEST' });
    expect((await send(false)).status).toBe(201);
    expect((t.app.server.address() as net.AddressInfo).port).toBe(port);
  });

  it('answers CORS on /oauth/register for browser-based clients: the preflight, the registration, and its refusals', async () => {
    const origin = 'http://localhost:6274';
    const preflight = await t.app.inject({ method: 'OPTIONS', url: '/oauth/register', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    expect(preflight.headers['access-control-allow-headers']).toContain('content-type');
    const registered = await t.app.inject({ method: 'POST', url: '/oauth/register', headers: { origin }, payload: { redirect_uris: [CALLBACK], token_endpoint_auth_method: 'none' } });
    expect(registered.statusCode).toBe(201);
    expect(registered.headers['access-control-allow-origin']).toBe('*');
    const refused = await t.app.inject({ method: 'POST', url: '/oauth/register', headers: { origin }, payload: { redirect_uris: ['http://evil.example.com/cb'] } });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
  });
});

describe(`OAuth registration: limits per address and in total, and unused ones expire (${dialectName})`, () => {
  // Per-address limits are on with the other per-address limits; the per-minute one is set high to stay out of the way.
  const t = useTestApp({ PUBLIC_REQUESTS_PER_MINUTE: '100000' });
  let n = 0;
  const address = () => `198.51.100.${++n}`;
  const register = (t2: BlockApp, ip: string) => registerClient(t2, { redirect_uris: [CALLBACK] }, ip);

  it('admits 20 registrations per address in any hour, also across the end of a window, then 429 with Retry-After', async () => {
    t.clock.startWindow(2 * HOUR);
    // A second before an hour's end, then just after it: a fixed hourly window would admit 40 in two seconds.
    t.clock.advance(HOUR - 1000);
    const ip = address();
    for (let i = 0; i < 20; i++) expect((await register(t, ip)).statusCode).toBe(201);
    t.clock.advance(2000);
    const refused = await register(t, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ code: string }>().code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    // Another address is not refused.
    expect((await register(t, address())).statusCode).toBe(201);
    // An hour after the burst the address may register again.
    t.clock.advance(Number(refused.headers['retry-after']) * 1000);
    expect((await register(t, ip)).statusCode).toBe(201);
  });

  it('counts an IPv6 address by its /64, and at most 100 a day per address', async () => {
    for (let i = 0; i < 20; i++) expect((await register(t, `2001:db8:1:2::${(i + 1).toString(16)}`)).statusCode).toBe(201);
    expect((await register(t, '2001:db8:1:2:ffff::1')).statusCode).toBe(429);
    expect((await register(t, '2001:db8:1:3::1')).statusCode).toBe(201);

    t.clock.startWindow(2 * 86_400_000);
    const ip = address();
    // 20 every two hours (what the hourly limit lets through when sustained), 100 in ten hours: then the day is full.
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 20; i++) expect((await register(t, ip)).statusCode, `round ${round}`).toBe(201);
      t.clock.advance(2 * HOUR + 1000);
    }
    const refused = await register(t, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ message: string }>().message).toMatch(/per day/);
  });

  it('keeps at most 10,000 registrations nobody has connected, from all addresses together', async () => {
    t.clock.advance(2 * 86_400_000);
    const now = t.clock.now().toISOString();
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ model: 'Client', id: `filler-${now}-${i}`, payload: '{}', grant_id: null, uid: null, account_id: null, client_id: `filler-${now}-${i}`, created_at: now, expires_at: null, consumed_at: null }));
    for (let i = 0; i < rows.length; i += 500) await t.core.database.db.insertInto('oauth_records').values(rows.slice(i, i + 500)).execute();
    const refused = await register(t, address());
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ message: string }>().message).toMatch(/not yet connected/);
    // A day later the sweep has dropped them, and registering works again.
    t.clock.advance(86_400_000 + 60_000);
    await t.core.oauth.sweep();
    expect((await register(t, address())).statusCode).toBe(201);
  });

  it('drops a registration nobody connected after a day, and keeps one with a connection', async () => {
    const password = 'a long enough password';
    const user = await t.createUser('pro');
    await t.core.sessions.setPasswordAsOperator(user.email, password);
    const unused = await clientId(t, CALLBACK, address());
    const used = await clientId(t, CALLBACK, address());
    await authorizeByInject(t, { email: user.email, password }, used, CALLBACK);
    t.clock.advance(23 * HOUR);
    await t.core.oauth.sweep();
    const ids = async () => (await t.core.database.db.selectFrom('oauth_records').select('id').where('model', '=', 'Client').where('id', 'in', [unused, used]).execute()).map((row) => row.id);
    expect(await ids()).toEqual(expect.arrayContaining([unused, used]));
    t.clock.advance(HOUR + 60_000);
    await t.core.oauth.sweep();
    expect(await ids()).toEqual([used]);
  });
});
