import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectName, sharedDatabase, startApp, type TestApp, type TestUser } from '../helpers/app.js';
import { redisReachable, TEST_REDIS_URL } from '../helpers/redis.js';

/**
 * With REDIS_URL set, rate-limit counters are shared through Redis (issue 3): two app instances on one database
 * and one Redis never admit more than the limit together. Runs against the local Redis (redis://127.0.0.1:6379,
 * or SNIP_TEST_REDIS_URL); when none answers, the suite is skipped with a message, never failed.
 */

const REDIS_URL = TEST_REDIS_URL;
const MINUTE = 60_000;
const PLANS_FILE = path.join(import.meta.dirname, '..', 'fixtures', 'plans-redis.json');

const redisUp = await redisReachable(REDIS_URL);
if (!redisUp) console.warn(`\n== SKIPPED test/usage/redis-limits.test.ts: Redis is not reachable at ${REDIS_URL}\n`);


const header = (res: LightMyRequestResponse, name: string): number => {
  expect(res.headers[name], `${name} on ${res.statusCode}`).toMatch(/^\d+$/);
  return Number(res.headers[name]);
};

describe.skipIf(!redisUp)(`rate limits shared through Redis: two instances (${dialectName})`, () => {
  let shared: Awaited<ReturnType<typeof sharedDatabase>> | undefined;
  let one: TestApp;
  let two: TestApp;

  beforeAll(async () => {
    shared = await sharedDatabase();
    const env = { ...shared.env, PLANS_FILE, REDIS_URL };
    one = await startApp(env);
    two = await startApp(env);
  });

  afterAll(async () => {
    await one?.close();
    await two?.close();
    await shared?.cleanup();
  });

  /** Both instances' clocks to one second past the next whole minute (the same instant on both). */
  function startNextMinute(): void {
    const now = one.clock.now().getTime();
    const delta = Math.floor(now / MINUTE) * MINUTE + MINUTE + 1_000 - now;
    one.clock.advance(delta);
    two.clock.advance(delta);
  }

  const minuteEnd = (): number => Math.floor(one.clock.now().getTime() / MINUTE) * MINUTE + MINUTE;

  it('30 parallel requests split over both instances: exactly 10 (the per-minute limit) are admitted', async () => {
    startNextMinute();
    const user = await one.createUser('pro');
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? one : two).as(user, { method: 'GET', url: i % 3 === 0 ? '/api/v1/links' : '/api/links' })),
    );
    const admitted = responses.filter((r) => r.statusCode === 200);
    const refused = responses.filter((r) => r.statusCode === 429);
    expect(admitted.length + refused.length, responses.map((r) => `${r.statusCode} ${r.body}`).join('\n')).toBe(30);
    expect(admitted).toHaveLength(10);
    expect(refused).toHaveLength(20);
    // Each admitted request saw its own place in the one shared count.
    expect(admitted.map((r) => header(r, 'x-ratelimit-remaining')).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const r of responses) {
      expect(header(r, 'x-ratelimit-limit')).toBe(10);
      expect(header(r, 'x-ratelimit-reset')).toBe(minuteEnd() / 1_000);
    }
    for (const r of refused) {
      expect(r.json<{ code: string }>().code).toBe('RATE_LIMITED');
      expect(header(r, 'x-ratelimit-remaining')).toBe(0);
      expect(header(r, 'retry-after')).toBeGreaterThan(0);
      expect(header(r, 'retry-after')).toBeLessThanOrEqual(60);
    }
  });

  it('requests alternating between the instances count down one shared window; the next minute admits again on both', async () => {
    startNextMinute();
    const user: TestUser = await two.createUser('pro');
    for (let i = 0; i < 10; i++) {
      const res = await (i % 2 === 0 ? one : two).as(user, { method: 'GET', url: '/api/links' });
      expect(res.statusCode, res.body).toBe(200);
      expect(header(res, 'x-ratelimit-remaining')).toBe(9 - i);
    }
    for (const app of [one, two]) {
      const res = await app.as(user, { method: 'GET', url: '/api/links' });
      expect(res.statusCode, res.body).toBe(429);
      expect(res.json()).toEqual({ error: expect.any(String), code: 'RATE_LIMITED' });
    }
    startNextMinute();
    const first = await two.as(user, { method: 'GET', url: '/api/v1/links' });
    expect(first.statusCode, first.body).toBe(200);
    expect(header(first, 'x-ratelimit-remaining')).toBe(9);
    const second = await one.as(user, { method: 'GET', url: '/api/v1/links' });
    expect(second.statusCode, second.body).toBe(200);
    expect(header(second, 'x-ratelimit-remaining')).toBe(8);
  });

  it('the daily link limit is shared too: 12 parallel creates over both instances make exactly 4 links', async () => {
    const user = await one.createUser('builder');
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2 === 0
          ? one.as(user, { method: 'POST', url: '/api/v1/links', payload: { url: `https://example.com/shared/${i}` } })
          : two.as(user, { method: 'POST', url: '/api/createShort', payload: { long: Buffer.from(`https://example.com/shared/${i}`).toString('base64') } }),
      ),
    );
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201), responses.map((r) => `${r.statusCode} ${r.body}`).join('\n')).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(8);
    const list = await two.as(user, { method: 'GET', url: '/api/v1/links?limit=100' });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<{ links: unknown[] }>().links).toHaveLength(4);
  });
});
