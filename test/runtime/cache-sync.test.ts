import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectName, sharedDatabase, startApp, type TestApp } from '../helpers/app.js';
import { redisReachable, TEST_REDIS_URL } from '../helpers/redis.js';
import { BROWSER_UA } from '../helpers/user-agents.js';

/**
 * Caches across instances (issue 21): two instances on one database and one Redis; a change made through one reaches
 * the other's redirect cache within a second. Skipped with a message when no Redis answers.
 */
const redisUp = await redisReachable();
if (!redisUp) console.warn(`\n== SKIPPED test/runtime/cache-sync.test.ts: Redis is not reachable at ${TEST_REDIS_URL}\n`);


describe.skipIf(!redisUp)(`caches kept in step through Redis: two instances (${dialectName})`, () => {
  let shared: Awaited<ReturnType<typeof sharedDatabase>>;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    shared = await sharedDatabase();
    const env = { ...shared.env, REDIS_URL: TEST_REDIS_URL };
    a = await startApp(env);
    b = await startApp(env);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await shared?.cleanup();
  });

  const visit = (t: TestApp, path: string) => t.app.inject({ method: 'GET', url: path, headers: { 'user-agent': BROWSER_UA } });

  /** Milliseconds until `check` holds on a fresh request, polling every 20 ms; fails after 3 s. */
  async function within(check: () => Promise<boolean>): Promise<number> {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > 3_000) throw new Error('the other instance never saw the change');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return Date.now() - started;
  }

  it('drops a link changed or deleted on the other instance within a second, and a deleted account\'s links', async () => {
    const user = await a.createUser('pro');
    const created = await a.as(user, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/first' } });
    const code = created.json<{ shortCode: string }>().shortCode;
    // b caches the link by redirecting it.
    expect((await visit(b, `/${code}`)).headers.location).toBe('https://example.com/first');

    expect((await a.as(user, { method: 'PATCH', url: `/api/v1/links/${code}`, payload: { url: 'https://example.com/second' } })).statusCode).toBe(200);
    expect(await within(async () => (await visit(b, `/${code}`)).headers.location === 'https://example.com/second')).toBeLessThan(1_000);

    expect((await a.as(user, { method: 'DELETE', url: `/api/v1/links/${code}` })).statusCode).toBe(200);
    expect(await within(async () => (await visit(b, `/${code}`)).statusCode === 404)).toBeLessThan(1_000);

    // A link b cached, of an account the operator deletes through a (users delete).
    const other = await a.createUser('pro');
    const kept = (await a.as(other, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/kept' } })).json<{ shortCode: string }>().shortCode;
    expect((await visit(b, `/${kept}`)).statusCode).toBe(302);
    await a.core.accounts.deleteAccount(other.email);
    expect(await within(async () => (await visit(b, `/${kept}`)).statusCode === 404)).toBeLessThan(1_000);
  });

  it('drops a miss when the other instance creates the link', async () => {
    const user = await a.createUser('pro');
    // b remembers for a moment that the slug does not exist...
    expect((await visit(b, `/${user.namespace}/fresh`)).statusCode).toBe(404);
    // ...until a creates it.
    const made = await a.as(user, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/fresh', customSlug: 'fresh' } });
    expect(made.statusCode, made.body).toBe(201);
    expect(await within(async () => (await visit(b, `/${user.namespace}/fresh`)).statusCode === 302)).toBeLessThan(1_000);
  });

  it("ignores what is not Snip's on the channel, and keeps working", async () => {
    const other = new Redis(TEST_REDIS_URL);
    try {
      for (const text of ['null', '42', 'not json', '[1,2]', '{"links":7}']) await other.publish('snip:invalidate', text);
    } finally {
      other.disconnect();
    }
    const user = await a.createUser('pro');
    const code = (await a.as(user, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/still' } })).json<{ shortCode: string }>().shortCode;
    expect((await visit(b, `/${code}`)).statusCode).toBe(302);
    expect((await a.as(user, { method: 'DELETE', url: `/api/v1/links/${code}` })).statusCode).toBe(200);
    expect(await within(async () => (await visit(b, `/${code}`)).statusCode === 404)).toBeLessThan(1_000);
  });

  it('is ready while the database and Redis answer', async () => {
    const ready = await b.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: 'ok', redis: 'ok' });
  });
});

describe(`readiness without Redis, and with a Redis that is not there (${dialectName})`, () => {
  it('is ready on the database alone without REDIS_URL; keeps redirecting but is not ready while REDIS_URL answers nothing', async () => {
    const alone = await startApp();
    try {
      expect((await alone.app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ready', database: 'ok', redis: 'none' });
    } finally {
      await alone.close();
    }
    const cutOff = await startApp({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const user = await cutOff.createUser('pro');
      const code = (await cutOff.as(user, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/on' } })).json<{ shortCode: string }>().shortCode;
      expect((await cutOff.app.inject({ method: 'GET', url: `/${code}`, headers: { 'user-agent': BROWSER_UA } })).statusCode).toBe(302);
      const ready = await cutOff.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', database: 'ok', redis: 'down' });
    } finally {
      await cutOff.close();
    }
  });
});
