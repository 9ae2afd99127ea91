import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { pkce } from './helpers.js';

/** A browser's cookies, by name (paths are left aside: the server reads only the ones it set for a path). */
export class CookieJar {
  readonly cookies = new Map<string, string>();
  /** Every Set-Cookie line seen, as sent: their attributes (Secure, HttpOnly) are what some tests look at. */
  readonly lines: string[] = [];

  take(response: LightMyRequestResponse): LightMyRequestResponse {
    const header = response.headers['set-cookie'];
    for (const line of [header ?? []].flat()) {
      this.lines.push(line);
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** A public client registered over HTTP (RFC 7591). */
export async function registerClient(t: TestApp, metadata: Record<string, unknown>, remoteAddress = '127.0.0.1'): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url: '/oauth/register', payload: { token_endpoint_auth_method: 'none', ...metadata }, remoteAddress });
}

export async function clientId(t: TestApp, redirectUri: string, remoteAddress?: string): Promise<string> {
  const registered = await registerClient(t, { client_name: 'Injected client', redirect_uris: [redirectUri] }, remoteAddress);
  expect(registered.statusCode, registered.body).toBe(201);
  return registered.json<{ client_id: string }>().client_id;
}

export function authorizePath(id: string, redirectUri: string, extra: Record<string, string> = {}): { url: string; verifier: string } {
  const { verifier, challenge } = pkce();
  const query = new URLSearchParams({ response_type: 'code', client_id: id, redirect_uri: redirectUri, scope: 'links:read', state: 'st', code_challenge: challenge, code_challenge_method: 'S256', ...extra });
  return { url: `/oauth/authorize?${query}`, verifier };
}

/**
 * A whole authorization through app.inject, as a browser goes through it: the authorization endpoint, the sign-in
 * and consent pages, back to the authorization endpoint, and to the client's redirect URI. Answers every response on
 * the way (their headers are what the tests look at) and the code.
 */
export async function authorizeByInject(
  t: TestApp,
  account: { email: string; password: string },
  id: string,
  redirectUri: string,
  headers: Record<string, string> = {},
): Promise<{ code: string; verifier: string; responses: LightMyRequestResponse[]; jar: CookieJar }> {
  const jar = new CookieJar();
  const responses: LightMyRequestResponse[] = [];
  const go = async (options: InjectOptions) => {
    const response = jar.take(await t.app.inject({ ...options, headers: { ...headers, ...(options.headers ?? {}), cookie: jar.header() } }));
    responses.push(response);
    return response;
  };
  const form = (fields: Record<string, string>) => ({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString() });
  const { url, verifier } = authorizePath(id, redirectUri);
  const started = await go({ method: 'GET', url });
  expect(started.statusCode, started.body).toBe(303);
  const interaction = started.headers.location!;
  expect(interaction).toMatch(/^\/oauth\/interaction\/[\w-]+$/);
  const signedIn = await go({ method: 'POST', url: `${interaction}/sign-in`, ...form({ email: account.email, password: account.password }) });
  expect(signedIn.statusCode, signedIn.body).toBe(303);
  const consent = await go({ method: 'GET', url: interaction });
  const csrf = /name="csrf" value="([^"]+)"/.exec(consent.body)?.[1];
  expect(csrf, consent.body).toBeDefined();
  const allowed = await go({ method: 'POST', url: `${interaction}/consent`, ...form({ csrf: csrf!, decision: 'allow' }) });
  expect(allowed.statusCode, allowed.body).toBe(303);
  const resume = new URL(allowed.headers.location!);
  expect(resume.origin).toBe(t.baseUrl);
  const back = await go({ method: 'GET', url: resume.pathname });
  expect(back.statusCode, back.body).toBe(303);
  const answer = new URL(back.headers.location!);
  expect(`${answer.origin}${answer.pathname}`).toBe(redirectUri);
  return { code: answer.searchParams.get('code')!, verifier, responses, jar };
}

export function exchangeByInject(t: TestApp, id: string, code: string, verifier: string, redirectUri: string): Promise<LightMyRequestResponse> {
  const form = new URLSearchParams({ grant_type: 'authorization_code', client_id: id, code, code_verifier: verifier, redirect_uri: redirectUri });
  return t.app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
}
