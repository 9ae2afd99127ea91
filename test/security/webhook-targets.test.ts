import { describe, expect, it } from 'vitest';
import { dialectName, useTestApp } from '../helpers/app.js';

/**
 * Attacks through webhook targets: Snip must not be usable to reach services of other protocols, and its answers
 * must not reveal internal addresses (the address guard itself is in test/webhooks/webhook-delivery.test.ts).
 */
describe(`webhook target ports (${dialectName})`, () => {
  const t = useTestApp();
  const user = t.user('builder');
  const create = (url: string) => t.as(user, { method: 'POST', url: '/api/v1/webhooks', payload: { url, events: ['link.created'] } });

  it.each([
    ['SMTP', 25],
    ['SSH', 22],
    ['DNS', 53],
    ['IMAP over TLS', 993],
    ['IRC', 6667],
  ])('refuses a URL on the %s port (%i) with 400 INVALID_URL, as browsers refuse it', async (_name, port) => {
    const res = await create(`https://hooks.example.com:${port}/in`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_URL', message: expect.stringContaining(`port ${port}`) });
  });

  it('accepts the usual ports of webhook receivers', async () => {
    for (const port of [443, 8443, 9000]) expect((await create(`https://hooks.example.com:${port}/in-${port}`)).statusCode).toBe(201);
  });
});
