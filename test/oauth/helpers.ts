import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * A native client's loopback listener (RFC 8252): the browser's visit to /callback is where the application reads the
 * authorization response. `seen` holds the URLs it was visited at.
 */
export class CallbackServer {
  readonly seen: URL[] = [];
  private server: http.Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = http.createServer((request, response) => {
      const url = new URL(request.url ?? '/', this.url);
      // Browsers also ask for /favicon.ico.
      if (url.pathname === '/callback') this.seen.push(url);
      // A page of another site that links to `to`: a person following a link from an assistant's web page.
      if (url.pathname === '/link') {
        const to = (url.searchParams.get('to') ?? '').replace(/"/g, '&quot;');
        return void response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><a href="${to}">Connect Snip</a>`);
      }
      response.writeHead(200, { 'content-type': 'text/plain' }).end('back in the application');
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}/callback`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/**
 * An MCP client's OAuth state, kept in memory as a desktop client keeps it in its settings: the SDK's `auth()` reads
 * and writes it, and hands the authorization URL to `redirectToAuthorization` for the person's browser.
 */
export class MemoryOAuthClient implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | null = null;
  readonly stateValue = randomBytes(8).toString('hex');

  constructor(
    private readonly callback: string,
    private readonly name: string,
    private readonly scope?: string,
  ) {}

  get redirectUrl(): string {
    return this.callback;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.callback],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.scope ? { scope: this.scope } : {}),
    };
  }

  state(): string {
    return this.stateValue;
  }

  clientInformation() {
    return this.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.client = info;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }
}

/** A PKCE pair (RFC 7636, S256). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/**
 * Goes through an authorization in the browser as its owner would: signs in if the page asks (the dashboard's
 * labels), then answers the consent page; answers the callback URL the browser was sent to.
 */
export async function approve(page: Page, seen: URL[], url: string | URL, answer: 'Allow' | 'Deny', account?: { email: string; password: string }): Promise<URL> {
  const before = seen.length;
  await page.goto(String(url));
  const allow = page.getByRole('button', { name: 'Allow' });
  const email = page.getByLabel('Email');
  await expect.poll(async () => (await allow.isVisible()) || (await email.isVisible())).toBe(true);
  if (await email.isVisible()) {
    if (!account) throw new Error('the authorization asked to sign in');
    await email.fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.getByRole('button', { name: answer }).click();
  await expect.poll(() => seen.length).toBe(before + 1);
  return seen[before]!;
}

/** POST a form to the token or revocation endpoint, as a public client does. */
export async function postForm(url: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}
