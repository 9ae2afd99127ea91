import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectName, sharedDatabase, startApp, type TestApp, type TestUser } from '../helpers/app.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { expectedSignature, startReceiver, waitFor, type Receiver, type ReceivedRequest } from '../helpers/receiver.js';
import type { CreatedWebhook, Delivery, TestResult } from '../helpers/webhook-shapes.js';
import { createWebhook, deliveries } from '../helpers/webhooks.js';

/**
 * Webhook delivery beyond one process and one DNS answer: the outbox carries pending deliveries and scheduled
 * retries over a restart, and the address guard judges host names when a delivery is sent, against a real DNS
 * server, so a name that resolves (or is rebound) to a private address is never contacted.
 */

const HOOKS = '/api/v1/webhooks';
const LINKS = '/api/v1/links';

async function testWebhook(t: TestApp, user: TestUser, hookId: string): Promise<TestResult> {
  const res = await t.as(user, { method: 'POST', url: `${HOOKS}/${hookId}/test` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TestResult>();
}

async function createLink(t: TestApp, user: TestUser, url: string): Promise<string> {
  const res = await t.as(user, { method: 'POST', url: LINKS, payload: { url } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ shortCode: string }>().shortCode;
}

/** Waits until the delivery log of `hookId` has a delivery satisfying `ready`, and answers that delivery. */
const logged = (t: TestApp, user: TestUser, hookId: string, what: string, ready: (d: Delivery) => boolean): Promise<Delivery> =>
  waitFor(what, async () => (await deliveries(t, user, hookId)).find(ready));

describe(`webhook deliveries survive a restart (${dialectName}, WEBHOOK_ALLOW_PRIVATE)`, () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('a retry scheduled before a restart is sent by the next app on the same database: same delivery id and bytes, attempt 2', async () => {
    const shared = await sharedDatabase();
    const env = { ...shared.env, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_DELAYS_MS: '1500' };
    let answer = 500;
    const url = receiver.endpoint('/restart-retry', () => answer);
    try {
      let user: TestUser;
      let hook: CreatedWebhook;
      let first: ReceivedRequest;
      let pending: Delivery;
      const app1 = await startApp(env);
      try {
        user = await app1.createUser('pro');
        hook = await createWebhook(app1, user, url, ['link.created']);
        const code = await createLink(app1, user, 'https://example.com/survives');
        first = await waitFor('the first attempt', () => receiver.to('/restart-retry')[0]);
        expect(JSON.parse(first.body.toString()).data.shortCode).toBe(code);
        pending = await logged(app1, user, hook.id, 'the first attempt logged as pending', (d) => d.attempts === 1);
        expect(pending).toMatchObject({ status: 'pending', lastStatus: 500, finishedAt: null, id: first.headers['x-snip-delivery'] });
        expect(pending.nextAttemptAt).not.toBeNull();
      } finally {
        await app1.close();
      }
      expect(receiver.to('/restart-retry')).toHaveLength(1);

      answer = 200;
      const app2 = await startApp(env);
      try {
        const retry = await waitFor('the retry from the second app', () => receiver.to('/restart-retry')[1], 10_000);
        expect(retry.headers['x-snip-delivery']).toBe(first.headers['x-snip-delivery']);
        expect(retry.headers['x-snip-attempt']).toBe('2');
        expect(retry.headers['x-snip-event']).toBe('link.created');
        expect(retry.body.equals(first.body)).toBe(true);
        expect(retry.headers['x-snip-signature']).toBe(expectedSignature(hook.secret, retry.body));
        expect(retry.at - first.at).toBeGreaterThanOrEqual(1_500);

        const done = await logged(app2, user, hook.id, 'the delivery logged as delivered', (d) => d.status === 'delivered');
        expect(done).toMatchObject({ id: pending.id, attempts: 2, lastStatus: 200, lastError: null, nextAttemptAt: null });
        expect(receiver.to('/restart-retry')).toHaveLength(2);
      } finally {
        await app2.close();
      }
    } finally {
      await shared.cleanup();
    }
  });

  it('an event of the last moment before shutdown is delivered exactly once, by that app or the next', async () => {
    const shared = await sharedDatabase();
    const env = { ...shared.env, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_DELAYS_MS: '200' };
    const url = receiver.endpoint('/last-moment', 200);
    try {
      const app1 = await startApp(env);
      const user = await app1.createUser('pro');
      let hook: CreatedWebhook;
      let code: string;
      try {
        hook = await createWebhook(app1, user, url, ['link.created']);
        code = await createLink(app1, user, 'https://example.com/last-moment');
      } finally {
        await app1.close();
      }

      const app2 = await startApp(env);
      try {
        const done = await logged(app2, user, hook.id, 'the delivery logged as delivered', (d) => d.status === 'delivered');
        const sent = receiver.to('/last-moment');
        expect(sent).toHaveLength(1);
        expect(sent[0]!.headers['x-snip-delivery']).toBe(done.id);
        expect(JSON.parse(sent[0]!.body.toString()).data.shortCode).toBe(code);
        expect(done.attempts).toBe(1);
      } finally {
        await app2.close();
      }
    } finally {
      await shared.cleanup();
    }
  });
});

describe(`the address guard at delivery time, with a real DNS server (${dialectName}, no WEBHOOK_ALLOW_PRIVATE)`, () => {
  let dns: DnsServer;
  let receiver: Receiver;
  let t: TestApp;
  let user: TestUser;
  /** An https:// URL on `host` at the receiver's port: were the guard to let it through, the receiver would see a connection. */
  const at = (host: string, path = '/hook') => `https://${host}:${receiver.port}${path}`;
  const NOT_PUBLIC = /not a public address/;

  beforeAll(async () => {
    receiver = await startReceiver();
    dns = await startDnsServer({
      'rebind.test': ['127.0.0.1'],
      'metadata.test': ['169.254.169.254'],
      'intranet.test': ['10.0.0.5'],
      'mixed.test': ['93.184.216.34', '10.0.0.5'],
      'v6.test': ['::1'],
      // In hex: dns2 cannot encode the dotted form of an AAAA address.
      'mapped.test': ['::ffff:7f00:1'],
      'public.test': ['93.184.216.34'],
    });
    // Default retry delays (30 s and more): a refused delivery stays pending for the length of the test.
    t = await startApp({ DNS_RESOLVER: dns.resolver });
    user = await t.createUser('builder');
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
    await receiver?.close();
  });

  it('accepts a host name when the webhook is saved, since names are judged when a delivery is sent', async () => {
    const hook = await createWebhook(t, user, 'https://rebind.test/hook', ['link.created']);
    expect(hook.url).toBe('https://rebind.test/hook');
  });

  it.each([
    ['loopback (A 127.0.0.1)', 'rebind.test', /127\.0\.0\.1/],
    ['the metadata address (A 169.254.169.254)', 'metadata.test', /169\.254\.169\.254/],
    ['a private address (A 10.0.0.5)', 'intranet.test', /10\.0\.0\.5/],
    ['IPv6 loopback (AAAA ::1)', 'v6.test', /::1\b/],
    ['IPv4-mapped loopback (AAAA ::ffff:127.0.0.1)', 'mapped.test', /::ffff:(127\.0\.0\.1|7f00:1)\b/],
    ['a public and a private address at once', 'mixed.test', /10\.0\.0\.5/],
  ])('the test endpoint refuses a name resolving to %s: success false, status 0, and no connection is made', async (_what, host, address) => {
    const hook = await createWebhook(t, user, at(host, `/test-${host}`), ['link.click']);
    const asked = dns.asked(host).length;
    const connections = receiver.connections;

    const result = await testWebhook(t, user, hook.id);
    expect(result).toEqual({ success: false, statusCode: 0, durationMs: expect.any(Number), error: expect.stringMatching(NOT_PUBLIC) });
    expect(result.error).toContain(host);
    // Never the address: the test endpoint must not tell its caller what an internal name resolves to.
    expect(result.error).not.toMatch(address);
    expect(dns.asked(host).length).toBeGreaterThan(asked);
    expect(receiver.connections).toBe(connections);
    expect(receiver.requests).toEqual([]);
  });

  it('refuses an event delivery to a name resolving to loopback, logging the reason, and nothing reaches the address', async () => {
    const hook = await createWebhook(t, user, at('rebind.test', '/event'), ['link.created']);
    const connections = receiver.connections;
    await createLink(t, user, 'https://example.com/rebind');

    const attempt = await logged(t, user, hook.id, 'the refused attempt logged', (d) => d.attempts >= 1);
    expect(attempt).toMatchObject({ event: 'link.created', status: 'pending', attempts: 1, lastStatus: null, lastError: expect.stringMatching(NOT_PUBLIC) });
    expect(attempt.lastError).not.toContain('127.0.0.1');
    expect(attempt.nextAttemptAt).not.toBeNull();
    expect(receiver.connections).toBe(connections);
    expect(receiver.requests).toEqual([]);
  });

  it(
    'does not refuse a name resolving to a public address, and refuses it at the next send once it is rebound to loopback',
    // Without internet access the public address may only fail after the sender's fixed 10 s timeout.
    { timeout: 20_000 },
    async () => {
      const hook = await createWebhook(t, user, 'https://public.test/hook', ['link.click']);
      const publicResult = await testWebhook(t, user, hook.id);
      expect(dns.asked('public.test').length).toBeGreaterThan(0);
      // There is no Snip receiver at that address, so the send fails somehow, but not at the address guard.
      expect(publicResult.error ?? '').not.toMatch(NOT_PUBLIC);
      expect(publicResult.error ?? '').not.toMatch(/^refused: /);

      dns.set('public.test', ['127.0.0.1']);
      const rebound = await testWebhook(t, user, hook.id);
      expect(rebound).toEqual({ success: false, statusCode: 0, durationMs: expect.any(Number), error: expect.stringMatching(NOT_PUBLIC) });
      expect(rebound.error).not.toContain('127.0.0.1');
    },
  );
});
