import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** A browser as the dashboard is one: it keeps the session cookie and sends the CSRF token with changes. */
export class Browser {
  cookie: string | null = null;
  csrfToken: string | null = null;

  constructor(private readonly app: FastifyInstance) {}

  async send(options: InjectOptions & { csrf?: boolean }): Promise<LightMyRequestResponse> {
    const { csrf = true, ...rest } = options;
    const headers: Record<string, string> = { ...(rest.headers as Record<string, string> | undefined) };
    if (this.cookie) headers.cookie = this.cookie;
    if (csrf && this.csrfToken && rest.method !== 'GET') headers['x-csrf-token'] = this.csrfToken;
    const res = await this.app.inject({ ...rest, headers });
    const set = res.cookies.find((c) => c.name === 'snip_session');
    if (set) this.cookie = set.value ? `snip_session=${set.value}` : null;
    const body = res.headers['content-type']?.toString().startsWith('application/json') ? (res.json() as { csrfToken?: unknown }) : null;
    if (body && typeof body.csrfToken === 'string') this.csrfToken = body.csrfToken;
    return res;
  }

  async signUp(email: string, password = 'correct horse battery'): Promise<LightMyRequestResponse> {
    const res = await this.send({ method: 'POST', url: '/api/auth/sign-up', payload: { email, password } });
    expect(res.statusCode, res.body).toBe(201);
    return res;
  }

  signIn(email: string, password: string): Promise<LightMyRequestResponse> {
    return this.send({ method: 'POST', url: '/api/auth/sign-in', payload: { email, password } });
  }
}

export const uniqueEmail = (() => {
  let n = 0;
  return (name = 'person') => `${name}${++n}-${Math.random().toString(36).slice(2, 8)}@example.com`;
})();
