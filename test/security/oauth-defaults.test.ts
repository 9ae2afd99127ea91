import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { authorizationServer } from '../../src/oauth/mount.js';
import { dialectName, useTestApp, type BlockApp } from '../helpers/app.js';
import { authorizeByInject, authorizePath, clientId, exchangeByInject } from '../oauth/inject-flow.js';

/**
 * Attack: features of the OAuth library that Snip never chose were live. `/oauth/session/end` (RP-initiated logout)
 * redirected to any post_logout_redirect_uri a client registered for itself and wrote a session row per GET;
 * `response_mode=form_post` was accepted though the metadata lists only `query`; the library's pages had none of Snip's
 * security headers, its cookies were not Secure under an https BASE_URL, and a malformed Host gave 500 (a foreign one
 * was written into the logout form). Now only what the server metadata names is reachable and on; everything else
 * under /oauth is Snip's 404; the library sees BASE_URL's scheme and host whatever the client sent.
 */
const CALLBACK = 'http://127.0.0.1:4999/callback';
const password = 'a long enough password';

async function owner(t: BlockApp) {
  const user = await t.createUser('pro');
  await t.core.sessions.setPasswordAsOperator(user.email, password);
  return { email: user.email, password };
}

const sessionRows = async (t: BlockApp) => (await t.core.database.db.selectFrom('oauth_records').select('id').where('model', '=', 'Session').execute()).length;

describe(`OAuth: only what Snip documents is on (${dialectName})`, () => {
  const t = useTestApp({ BASE_URL: 'https://snip.test' });

  it('answers 404 like any unknown path on every library endpoint Snip does not document, and writes no session row', async () => {
    const id = await clientId(t, CALLBACK);
    const logout = new URLSearchParams({ client_id: id, post_logout_redirect_uri: 'https://evil.test/phish', state: 's' });
    const probes: Array<[string, string]> = [
      ['GET', `/oauth/session/end?${logout}`],
      ['POST', '/oauth/session/end'],
      ['POST', '/oauth/session/end/confirm'],
      ['GET', '/oauth/session/end/success'],
      ['GET', '/oauth/me'],
      ['POST', '/oauth/me'],
      ['POST', '/oauth/introspect'],
      ['POST', '/oauth/par'],
      ['GET', '/oauth/device'],
      ['POST', '/oauth/device'],
      ['POST', '/oauth/device/auth'],
      ['POST', '/oauth/backchannel'],
      ['POST', '/oauth/challenge'],
      ['GET', `/oauth/register/${id}`],
      ['PUT', `/oauth/register/${id}`],
      ['DELETE', `/oauth/register/${id}`],
      ['GET', '/oauth/.well-known/openid-configuration'],
      ['GET', '/.well-known/openid-configuration'],
      ['GET', '/oauth/interaction/abc/abort'],
      ['GET', '/oauth/nothing-here'],
    ];
    for (const [method, url] of probes) {
      const answer = await t.app.inject({ method: method as 'GET', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: method === 'GET' || method === 'HEAD' ? undefined : 'client_id=x' });
      expect(answer.statusCode, `${method} ${url}`).toBe(404);
      if (method !== 'HEAD') expect(answer.json<{ code: string }>().code, `${method} ${url}`).toBe('NOT_FOUND');
      expect(answer.headers.location).toBeUndefined();
    }
    // The authorization endpoint serves GET only: another method there is 405 (src/http/methods.ts), and never reaches
    // the library (whose POST would be a form_post authorization).
    for (const method of ['POST', 'HEAD'] as const) {
      const answer = await t.app.inject({ method, url: '/oauth/authorize', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: method === 'POST' ? 'client_id=x' : undefined });
      expect(answer.statusCode, method).toBe(405);
      expect(answer.headers.allow, method).toBe('GET');
      if (method === 'POST') expect(answer.json()).toMatchObject({ error: 'invalid_request', code: 'METHOD_NOT_ALLOWED' });
      expect(answer.headers.location).toBeUndefined();
    }
    expect(await sessionRows(t)).toBe(0);
  });

  it('has those features off in the library itself, not only unrouted', () => {
    const provider = t.core.oauthProvider;
    for (const route of ['end_session', 'end_session_success', 'userinfo', 'introspection', 'pushed_authorization_request', 'device_authorization', 'code_verification', 'backchannel_authentication', 'challenge', 'client_update', 'client_delete', 'interaction']) {
      expect(() => provider.pathFor(route), route).toThrow();
    }
    for (const route of ['authorization', 'resume', 'token', 'registration', 'revocation', 'jwks']) expect(() => provider.pathFor(route, { uid: 'x' }), route).not.toThrow();
  });

  it('keeps what the metadata names working: registration, the code flow with PKCE, refresh, revocation, the key set, CORS on the token endpoint', async () => {
    const account = await owner(t);
    const id = await clientId(t, CALLBACK);
    const { code, verifier } = await authorizeByInject(t, account, id, CALLBACK);
    const token = await exchangeByInject(t, id, code, verifier, CALLBACK);
    expect(token.statusCode, token.body).toBe(200);
    const tokens = token.json<{ access_token: string; refresh_token: string; token_type: string }>();
    expect(tokens.token_type).toBe('Bearer');
    // DPoP is off: a proof is not taken, the token is a plain bearer token.
    const refreshed = await t.app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: id }).toString() });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const revoked = await t.app.inject({ method: 'POST', url: '/oauth/revoke', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ token: refreshed.json<{ access_token: string }>().access_token, client_id: id }).toString() });
    expect(revoked.statusCode).toBe(200);
    const jwks = await t.app.inject({ method: 'GET', url: '/oauth/jwks' });
    expect(jwks.json<{ keys: Array<{ kty: string; d?: string }> }>().keys).toEqual([expect.objectContaining({ kty: 'EC' })]);
    expect(jwks.json<{ keys: Array<{ d?: string }> }>().keys[0]!.d).toBeUndefined();
    const preflight = await t.app.inject({ method: 'OPTIONS', url: '/oauth/token', headers: { origin: 'https://client.example', 'access-control-request-method': 'POST' } });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://client.example');
    // The library's browser session is never stored, however many authorizations a browser goes through.
    expect(await sessionRows(t)).toBe(0);
  });

  it('refuses every response_mode but query with the library error, sent back by query (never a form_post page)', async () => {
    const id = await clientId(t, CALLBACK);
    for (const mode of ['form_post', 'fragment', 'jwt', 'query.jwt', 'form_post.jwt', 'web_message']) {
      const answer = await t.app.inject({ method: 'GET', url: authorizePath(id, CALLBACK, { response_mode: mode }).url });
      expect(answer.statusCode, mode).toBe(303);
      const to = new URL(answer.headers.location!);
      expect(`${to.origin}${to.pathname}`).toBe(CALLBACK);
      expect(to.hash).toBe('');
      expect(to.searchParams.get('error'), mode).toBe('unsupported_response_mode');
      expect(to.searchParams.get('state')).toBe('st');
      expect(answer.body).not.toMatch(/<form/i);
    }
    const query = await t.app.inject({ method: 'GET', url: authorizePath(id, CALLBACK, { response_mode: 'query' }).url });
    expect(query.headers.location).toMatch(/^\/oauth\/interaction\//);
    // Response types other than code (the ones that carry a token default to a fragment): refused, by query too.
    for (const type of ['id_token', 'code id_token', 'token', 'code token', 'none']) {
      const answer = await t.app.inject({ method: 'GET', url: authorizePath(id, CALLBACK, { response_type: type }).url });
      expect(answer.statusCode, type).toBe(303);
      const to = new URL(answer.headers.location!);
      expect(to.hash, type).toBe('');
      expect(to.searchParams.get('error'), type).toBe('unsupported_response_type');
    }
    // Request objects and pushed requests are off: refused. The claims parameter is off: not taken into the request.
    const refusals: Array<[Record<string, string>, string]> = [
      [{ request: 'eyJhbGciOiJub25lIn0.e30.' }, 'request_not_supported'],
      [{ request_uri: 'urn:ietf:params:oauth:request_uri:abc' }, 'request_uri_not_supported'],
    ];
    for (const [extra, error] of refusals) {
      const answer = await t.app.inject({ method: 'GET', url: authorizePath(id, CALLBACK, extra).url });
      expect(new URL(answer.headers.location!).searchParams.get('error')).toBe(error);
    }
    const claims = await t.app.inject({ method: 'GET', url: authorizePath(id, CALLBACK, { claims: '{"id_token":{"email":null}}' }).url });
    const interaction = await t.core.oauthProvider.Interaction.find(claims.headers.location!.split('/').pop()!);
    expect(interaction?.params).toBeDefined();
    expect(interaction!.params.claims).toBeUndefined();
  });

  it('gives the library pages Snip’s security headers, and every library answer nosniff', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/oauth/authorize?client_id=unknown&response_type=code' });
    expect(page.statusCode).toBe(400);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const json = await t.app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'grant_type=nothing' });
    expect(json.statusCode).toBe(400);
    expect(json.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sets the library’s cookies Secure under an https BASE_URL, and builds its addresses from BASE_URL, not from the request', async () => {
    const account = await owner(t);
    const id = await clientId(t, CALLBACK);
    // Another of Snip's own names (a loopback one, as a local proxy would send): the flow still speaks only of BASE_URL.
    const { responses, jar } = await authorizeByInject(t, account, id, CALLBACK, { host: 'localhost:8443' });
    const libraryCookies = jar.lines.filter((line) => /^_(interaction|interaction_resume|session)(\.sig)?=/.test(line));
    expect(libraryCookies.length).toBeGreaterThanOrEqual(4);
    for (const line of libraryCookies) expect(line, line).toMatch(/;\s*secure/i);
    for (const response of responses) {
      expect(response.headers.location ?? '').not.toContain('localhost:8443');
      expect(response.body).not.toContain('localhost:8443');
    }
  });
});

describe(`OAuth: a request's Host never reaches the library (${dialectName})`, () => {
  const t = useTestApp({ BASE_URL: 'https://snip.test' });

  /** The mount alone, without the app's host check in front of it: it must hold on its own. */
  async function mountOnly() {
    const app = Fastify();
    await app.register(authorizationServer(t.core.oauthProvider, t.core.oauth, t.baseUrl));
    return app;
  }

  it('answers a malformed Host with a 400 page, never a 500, on every library route', async () => {
    const app = await mountOnly();
    const id = await clientId(t, CALLBACK);
    for (const host of ['a:b:c', 'x y', '[::1', 'snip.test/evil', 'snip.test:99999999', 'a\u0000b']) {
      for (const url of [authorizePath(id, CALLBACK).url, '/oauth/authorize/abc', '/oauth/jwks']) {
        const answer = await app.inject({ method: 'GET', url, headers: { host } });
        expect(answer.statusCode, `${host} ${url}`).toBe(400);
        expect(answer.headers['content-type']).toMatch(/^text\/html/);
        expect(answer.headers['x-frame-options']).toBe('DENY');
        expect(answer.body).not.toContain(host);
      }
    }
    // Through the whole app too (whatever answers first: the app's host check or the mount): never a 500.
    for (const host of ['a:b:c', 'x y', '[::1']) {
      const answer = await t.app.inject({ method: 'GET', url: authorizePath(id, CALLBACK).url, headers: { host } });
      expect([400, 421], host).toContain(answer.statusCode);
    }
    await app.close();
  });

  it('writes no foreign Host into a redirect, a cookie or a stored address', async () => {
    const app = await mountOnly();
    const id = await clientId(t, CALLBACK);
    const headers = { host: 'evil.test', 'x-forwarded-host': 'evil2.test', 'x-forwarded-proto': 'http' };
    const started = await app.inject({ method: 'GET', url: authorizePath(id, CALLBACK).url, headers });
    expect(started.statusCode).toBe(303);
    expect(started.headers.location).toMatch(/^\/oauth\/interaction\//);
    const cookies = [started.headers['set-cookie'] ?? []].flat();
    expect(cookies.join('\n')).not.toMatch(/evil/);
    for (const line of cookies) expect(line).toMatch(/;\s*secure/i);
    // Where the consent page sends the browser back is stored with the interaction: BASE_URL's.
    const uid = started.headers.location!.split('/').pop()!;
    const interaction = await t.core.oauthProvider.Interaction.find(uid);
    expect(interaction?.returnTo).toBe(`https://snip.test/oauth/authorize/${uid}`);
    const error = await app.inject({ method: 'GET', url: '/oauth/authorize?client_id=nobody&response_type=code', headers });
    expect(error.body).not.toMatch(/evil/);
    await app.close();
  });
});
