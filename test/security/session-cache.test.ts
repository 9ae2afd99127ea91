import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { dialectName, useTestApp } from '../helpers/app.js';
import { rpc } from '../helpers/mcp.js';
import { Browser, uniqueEmail } from '../sessions/session-client.js';

/**
 * Attack: `GET /api/auth/session` answered the session's CSRF token without `Cache-Control: no-store`, so a browser's
 * cache or a proxy could keep it and hand it to the next person. Every answer that carries a per-session secret, or
 * a secret shown once (an API key, a webhook's signing secret), is `no-store`.
 */
const PASSWORD = 'correct horse battery';

const expectNoStore = (res: LightMyRequestResponse, what: string) => expect(res.headers['cache-control'], what).toBe('no-store');

describe(`no cache keeps a session's token or a secret shown once (${dialectName})`, () => {
  const t = useTestApp();

  it('marks every /api/auth answer no-store: sign-up, sign-in, the session, a password change and sign-out, and their refusals', async () => {
    const browser = new Browser(t.app);
    const email = uniqueEmail();
    expectNoStore(await browser.signUp(email, PASSWORD), 'sign-up');
    const session = await browser.send({ method: 'GET', url: '/api/auth/session' });
    expect(session.json().csrfToken).toEqual(expect.any(String));
    expectNoStore(session, 'session');
    expectNoStore(await browser.signIn(email, PASSWORD), 'sign-in');
    const changed = await browser.send({ method: 'POST', url: '/api/auth/password', payload: { currentPassword: PASSWORD, newPassword: `${PASSWORD} 2` } });
    expect(changed.statusCode).toBe(200);
    expectNoStore(changed, 'password change');
    expectNoStore(await browser.send({ method: 'POST', url: '/api/auth/sign-out' }), 'sign-out');

    const refusals = [
      await t.app.inject({ method: 'GET', url: '/api/auth/session' }),
      await new Browser(t.app).signIn(email, 'not the password'),
      await t.app.inject({ method: 'POST', url: '/api/auth/sign-up', payload: { email, password: PASSWORD } }),
    ];
    expect(refusals.map((r) => r.statusCode)).toEqual([401, 401, 409]);
    for (const refusal of refusals) expectNoStore(refusal, `${refusal.statusCode} ${refusal.json().code}`);
  });

  it('marks the answers that show an API key or a webhook signing secret in full no-store, over REST and MCP', async () => {
    const user = await t.createUser('pro');
    const key = await t.as(user, { method: 'POST', url: '/api/keys' });
    expect(key.statusCode).toBe(201);
    expect(key.json().apiKey).toMatch(/^snip_/);
    expectNoStore(key, 'API key');
    for (const url of ['/api/v1/webhooks', '/api/webhooks']) {
      const hook = await t.as(user, { method: 'POST', url, payload: { url: `https://hooks.example.com${url}`, events: ['link.created'] } });
      expect(hook.statusCode, hook.body).toBe(201);
      expect(hook.json().secret).toEqual(expect.any(String));
      expectNoStore(hook, url);
    }
    // MCP's create_webhook shows the secret in a JSON-RPC answer: every /mcp answer is no-store.
    const tool = await rpc(t, (await t.createUser('pro')).apiKey, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_webhook', arguments: { url: 'https://hooks.example.com/mcp', events: ['link.created'] } } });
    expect(tool.statusCode, tool.body).toBe(200);
    expect(tool.body).toContain('\\"secret\\"');
    expectNoStore(tool, 'MCP create_webhook');
    // The lists show no secret: they may be cached as before.
    expect((await t.as(user, { method: 'GET', url: '/api/keys' })).headers['cache-control']).toBeUndefined();
  });
});
