import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { dialectName, sharedDatabase, startApp, useTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { expectError } from '../helpers/api-errors.js';

/**
 * Rate limits and quotas (spec 8.1-8.3, issue 3) over real HTTP. Each block runs with a plans file from
 * test/fixtures that makes its limits small enough to reach in a few requests; the test clock crosses windows.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Period = 'minute' | 'hour' | 'day' | 'month';

const plansFile = (name: string): string => path.join(import.meta.dirname, '..', 'fixtures', name);

/** When the UTC window holding `ms` ends (windows are fixed: whole minutes, hours, days from midnight, months). */
function windowEnd(period: Period, ms: number): number {
  if (period === 'minute') return Math.floor(ms / MINUTE) * MINUTE + MINUTE;
  if (period === 'hour') return Math.floor(ms / HOUR) * HOUR + HOUR;
  const d = new Date(ms);
  if (period === 'day') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Moves the clock to one second past the start of the next `period`, so a test has a whole window ahead. */
function startNext(t: TestApp, period: Period): void {
  const now = t.clock.now().getTime();
  t.clock.advance(windowEnd(period, now) - now + SECOND);
}

/** The end of the current `period` on the app's clock. */
const endOf = (t: TestApp, period: Period): number => windowEnd(period, t.clock.now().getTime());

interface Window {
  limit: number;
  remaining: number;
  /** When the window ends, in ms; X-RateLimit-Reset is this in Unix seconds. */
  resetMs: number;
}

/** Reads the three headers, asserting each is present and a non-negative integer. */
function limitHeaders(res: LightMyRequestResponse): Window {
  const read = (name: string): number => {
    const value = res.headers[name];
    expect(value, `${name} on ${res.statusCode} ${res.body}`).toMatch(/^\d+$/);
    return Number(value);
  };
  return { limit: read('x-ratelimit-limit'), remaining: read('x-ratelimit-remaining'), resetMs: read('x-ratelimit-reset') * SECOND };
}

function expectWindow(res: LightMyRequestResponse, expected: Window): void {
  expect(limitHeaders(res), `${res.statusCode} ${res.body}`).toEqual(expected);
}

/** A 429 `RATE_LIMITED` in the given body, with a Retry-After (seconds) that agrees with X-RateLimit-Reset. */
function expectRateLimited(t: TestApp, res: LightMyRequestResponse, surface: 'A' | 'B'): number {
  expect(res.statusCode, res.body).toBe(429);
  if (surface === 'A') expect(res.json()).toEqual({ error: true, message: expect.any(String), code: 'RATE_LIMITED' });
  else expect(res.json()).toEqual({ error: expect.any(String), code: 'RATE_LIMITED' });
  const retryAfter = res.headers['retry-after'];
  expect(retryAfter).toMatch(/^\d+$/);
  const seconds = Number(retryAfter);
  expect(seconds).toBeGreaterThan(0);
  const { resetMs } = limitHeaders(res);
  const untilReset = (resetMs - t.clock.now().getTime()) / SECOND;
  expect(seconds).toBeGreaterThanOrEqual(Math.floor(untilReset) - 1);
  expect(seconds).toBeLessThanOrEqual(Math.ceil(untilReset) + 1);
  return seconds;
}

const b64 = (text: string): string => Buffer.from(text).toString('base64');

/** Requests each test makes, as `user`. */
function calls(t: TestApp, user: TestUser) {
  const call = (options: InjectOptions) => t.as(user, options);
  return {
    listA: () => call({ method: 'GET', url: '/api/v1/links' }),
    createA: (body: object) => call({ method: 'POST', url: '/api/v1/links', payload: body }),
    listB: () => call({ method: 'GET', url: '/api/links' }),
    createB: (body: object) => call({ method: 'POST', url: '/api/links', payload: body }),
    createShort: (body: object) => call({ method: 'POST', url: '/api/createShort', payload: body }),
    user: () => call({ method: 'GET', url: '/api/user' }),
    bulkA: (urls: unknown[]) => call({ method: 'POST', url: '/api/v1/bulk', payload: { urls } }),
    bulkB: (urls: unknown[]) => call({ method: 'POST', url: '/api/bulk', payload: { urls } }),
    /** How many links the user has (one request, so only where requests are not limited). */
    async linkCount(): Promise<number> {
      const res = await call({ method: 'GET', url: '/api/v1/links?limit=100' });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ links: unknown[] }>().links.length;
    },
  };
}

function expectStatus(res: LightMyRequestResponse, status: number): void {
  expect(res.statusCode, res.body).toBe(status);
}


describe(`rate limits (${dialectName})`, () => {
  describe('headers on every API response (default plans)', () => {
    const t = useTestApp({ PLANS_FILE: '' });
    const pro = t.user('pro');
    const builder = t.user('builder');
    const free = t.user('free');

    it("carry Pro's hourly window (50) on A and B routes, counting down by one per request, whatever the status", async () => {
      startNext(t, 'hour');
      const api = calls(t, pro);
      const slugged = await api.createA({ url: 'https://example.com/slugged', customSlug: 'headers-slug' });
      expectStatus(slugged, 201);
      const code = slugged.json<{ shortCode: string }>().shortCode;
      const requests: Array<[() => Promise<LightMyRequestResponse>, number]> = [
        [() => api.listA(), 200],
        [() => api.createA({ url: 'https://example.com/h' }), 201],
        [() => api.createA({ url: 'nope' }), 400],
        [() => api.createA({ url: 'https://example.com/again', customSlug: 'headers-slug' }), 409],
        [() => t.as(pro, { method: 'GET', url: '/api/v1/links/Zz9Zz9' }), 404],
        [() => t.as(pro, { method: 'GET', url: `/api/v1/links/${code}` }), 200],
        [() => t.as(pro, { method: 'PATCH', url: `/api/v1/links/${code}`, payload: { maxClicks: 5 } }), 200],
        [() => api.listB(), 200],
        [() => api.createB({ url: 'https://example.com/b' }), 201],
        [() => api.createShort({ long: b64('https://example.com/short') }), 201],
        [() => api.createShort({ long: '%%%' }), 400],
        [() => t.as(pro, { method: 'GET', url: `/api/links/${code}` }), 200],
        [() => t.as(pro, { method: 'DELETE', url: `/api/v1/links/${code}` }), 200],
      ];
      const hourEnd = endOf(t, 'hour');
      // The create above was request 1 of the hour.
      for (const [i, [send, status]] of requests.entries()) {
        const res = await send();
        expectStatus(res, status);
        expectWindow(res, { limit: 50, remaining: 50 - 2 - i, resetMs: hourEnd });
      }
    });

    it("account routes carry the per-minute window (Pro 300), bulk the bulk window (Pro 10); Builder's hour is 500, bulk 50", async () => {
      startNext(t, 'hour');
      const api = calls(t, pro);
      expectStatus(await api.listA(), 200);
      // /api/user is limited per minute only; the minute has seen two requests now.
      const profile = await api.user();
      expectStatus(profile, 200);
      expectWindow(profile, { limit: 300, remaining: 298, resetMs: endOf(t, 'minute') });
      const keys = await t.as(pro, { method: 'GET', url: '/api/keys' });
      expectStatus(keys, 200);
      expectWindow(keys, { limit: 300, remaining: 297, resetMs: endOf(t, 'minute') });
      // A bulk request is one of the 10 per hour: that window is the closest to running out.
      const bulk = await api.bulkB([{ url: 'https://example.com/bulk' }]);
      expectStatus(bulk, 200);
      expectWindow(bulk, { limit: 10, remaining: 9, resetMs: endOf(t, 'hour') });

      const b = calls(t, builder);
      const list = await b.listA();
      expectStatus(list, 200);
      expectWindow(list, { limit: 500, remaining: 499, resetMs: endOf(t, 'hour') });
      const bulkA = await b.bulkA([{ url: 'https://example.com/bulk-a' }]);
      expectStatus(bulkA, 200);
      expectWindow(bulkA, { limit: 50, remaining: 49, resetMs: endOf(t, 'hour') });
    });

    it('Pro gets exactly 50 API requests an hour; Free gets 30 requests a minute on /api/user', async () => {
      startNext(t, 'hour');
      const other = await t.createUser('pro');
      const api = calls(t, other);
      for (let i = 0; i < 50; i++) expectStatus(await api.listB(), 200);
      expectRateLimited(t, await api.listB(), 'B');
      expectRateLimited(t, await api.listA(), 'A');

      const f = calls(t, free);
      for (let i = 0; i < 30; i++) {
        const res = await f.user();
        expectStatus(res, 200);
        expectWindow(res, { limit: 30, remaining: 29 - i, resetMs: endOf(t, 'minute') });
      }
      expectRateLimited(t, await f.user(), 'B');
    });

    it('Enterprise is unlimited by default: no request, bulk or link limit is reached', async () => {
      startNext(t, 'hour');
      const ent = await t.createUser('enterprise');
      const api = calls(t, ent);
      // More than Builder's 1,000 a minute and 500 an hour.
      for (let sent = 0; sent < 1_001; sent += 91) {
        const batch = await Promise.all(Array.from({ length: 91 }, () => api.listA()));
        const refused = batch.find((res) => res.statusCode !== 200);
        if (refused) expect.fail(`after ${sent} requests: ${refused.statusCode} ${refused.body}`);
      }
      // More than Builder's 50 bulk requests an hour.
      for (let i = 0; i < 51; i++) expectStatus(await api.bulkA([{ url: `https://example.com/e/${i}` }]), 200);
      expect(await api.linkCount()).toBe(51);
    });
  });

  describe('hourly quota (Description A): plans-hourly.json, Pro 3 an hour and 6 a month', () => {
    const t = useTestApp({ PLANS_FILE: plansFile('plans-hourly.json') });

    it('A routes: the 4th request of the hour is 429 RATE_LIMITED in A’s body, and the refused create makes nothing', async () => {
      startNext(t, 'month');
      const user = await t.createUser('pro');
      const api = calls(t, user);
      for (let i = 0; i < 3; i++) {
        const res = await api.listA();
        expectStatus(res, 200);
        expectWindow(res, { limit: 3, remaining: 2 - i, resetMs: endOf(t, 'hour') });
      }
      const refused = await api.createA({ url: 'https://example.com/refused' });
      const retryAfter = expectRateLimited(t, refused, 'A');
      expectWindow(refused, { limit: 3, remaining: 0, resetMs: endOf(t, 'hour') });
      expect(retryAfter).toBeLessThanOrEqual(3_600);

      // Waiting Retry-After seconds is enough; the refused create left no link behind.
      t.clock.advance(retryAfter * SECOND);
      expect(await api.linkCount()).toBe(0);
    });

    it("B routes (/api/links, /api/createShort): 429 in B's {error, code} body", async () => {
      startNext(t, 'month');
      const user = await t.createUser('pro');
      const api = calls(t, user);
      expectStatus(await api.listB(), 200);
      expectStatus(await api.createB({ url: 'https://example.com/one' }), 201);
      expectStatus(await api.createShort({ long: b64('https://example.com/two') }), 201);
      expectRateLimited(t, await api.listB(), 'B');
      expectRateLimited(t, await api.createB({ url: 'https://example.com/three' }), 'B');
      expectRateLimited(t, await api.createShort({ long: b64('https://example.com/four') }), 'B');
      expectRateLimited(t, await t.as(user, { method: 'GET', url: '/api/links/Zz9Zz9' }), 'B');
      startNext(t, 'hour');
      expect(await api.linkCount()).toBe(2);
    });

    it('refused requests are not charged: after the reset the full hour is available, and the month counts only admitted ones', async () => {
      startNext(t, 'month');
      const user = await t.createUser('pro');
      const api = calls(t, user);
      for (let i = 0; i < 3; i++) expectStatus(await api.listA(), 200);
      for (let i = 0; i < 3; i++) expectRateLimited(t, await api.listA(), 'A');

      t.clock.advance(HOUR);
      // 3 of the 6 a month are used: the hour and the month tie at 2 left, and the month resets later.
      const first = await api.listA();
      expectStatus(first, 200);
      expectWindow(first, { limit: 6, remaining: 2, resetMs: endOf(t, 'month') });
      expectStatus(await api.listA(), 200);
      const last = await api.listA();
      expectStatus(last, 200);
      expectWindow(last, { limit: 6, remaining: 0, resetMs: endOf(t, 'month') });
    });

    it('when the hour and the month are both used up, Retry-After and X-RateLimit-Reset point at the month, when a retry can succeed', async () => {
      startNext(t, 'month');
      const user = await t.createUser('pro');
      const api = calls(t, user);
      for (let i = 0; i < 3; i++) expectStatus(await api.listA(), 200);
      t.clock.advance(HOUR);
      for (let i = 0; i < 3; i++) expectStatus(await api.listA(), 200);

      const refused = await api.listA();
      const retryAfter = expectRateLimited(t, refused, 'A');
      expectWindow(refused, { limit: 6, remaining: 0, resetMs: endOf(t, 'month') });
      // An hour later the month is still used up: the 429 must not have sent the client back then.
      t.clock.advance(HOUR);
      expectRateLimited(t, await api.listA(), 'A');
      t.clock.advance(retryAfter * SECOND - HOUR);
      expectStatus(await api.listA(), 200);
    });
  });

  describe('per-minute limit (Description B): plans-minute.json, Pro 3 a minute and 5 an hour, Free 3 a minute', () => {
    const t = useTestApp({ PLANS_FILE: plansFile('plans-minute.json') });

    it('the 4th request of a minute is 429 in B’s body; the next minute admits again; headers follow the closest window', async () => {
      startNext(t, 'hour');
      const user = await t.createUser('pro');
      const api = calls(t, user);
      for (let i = 0; i < 3; i++) {
        const res = await api.listB();
        expectStatus(res, 200);
        // Minute: 2, 1, 0 left; hour: 4, 3, 2 left.
        expectWindow(res, { limit: 3, remaining: 2 - i, resetMs: endOf(t, 'minute') });
      }
      const refused = await api.listB();
      const retryAfter = expectRateLimited(t, refused, 'B');
      expectWindow(refused, { limit: 3, remaining: 0, resetMs: endOf(t, 'minute') });
      expect(retryAfter).toBeLessThanOrEqual(60);
      expectRateLimited(t, await api.user(), 'B');
      expectRateLimited(t, await api.createShort({ long: b64('https://example.com/x') }), 'B');
      expectRateLimited(t, await api.listA(), 'A');

      // A minute later: 3 left this minute, but only 2 this hour (refusals were not charged), so the hour is shown.
      t.clock.advance(retryAfter * SECOND);
      const next = await api.listB();
      expectStatus(next, 200);
      expectWindow(next, { limit: 5, remaining: 1, resetMs: endOf(t, 'hour') });
      const fifth = await api.createShort({ long: b64('https://example.com/y') });
      expectStatus(fifth, 201);
      expectWindow(fifth, { limit: 5, remaining: 0, resetMs: endOf(t, 'hour') });
      // The minute has room but the hour has not.
      const hourly = await api.listB();
      expectRateLimited(t, hourly, 'B');
      expectWindow(hourly, { limit: 5, remaining: 0, resetMs: endOf(t, 'hour') });
      expect(Number(hourly.headers['retry-after'])).toBeGreaterThan(60);

      startNext(t, 'hour');
      expectStatus(await api.listB(), 200);
      expect(await api.linkCount()).toBe(1);
    });

    it('Free accounts get 403 TIER_REQUIRED (never 429) on link routes, and /api/user within 3 a minute', async () => {
      startNext(t, 'minute');
      const user = await t.createUser('free');
      const api = calls(t, user);
      const linkRoutes = [
        () => api.listA(),
        () => api.createA({ url: 'https://example.com/f' }),
        () => api.listB(),
        () => api.createB({ url: 'https://example.com/f' }),
        () => api.createShort({ long: b64('https://example.com/f') }),
        () => api.bulkA([{ url: 'https://example.com/f' }]),
        () => api.bulkB([{ url: 'https://example.com/f' }]),
      ];
      // More refusals than the per-minute limit: they count against nothing.
      for (const send of linkRoutes) expectError(await send(), 403, 'TIER_REQUIRED');
      for (let i = 0; i < 3; i++) {
        const res = await api.user();
        expectStatus(res, 200);
        expectWindow(res, { limit: 3, remaining: 2 - i, resetMs: endOf(t, 'minute') });
      }
      expectRateLimited(t, await api.user(), 'B');
      // Still the tier, not the rate, on link routes.
      for (const send of linkRoutes) expectError(await send(), 403, 'TIER_REQUIRED');
      startNext(t, 'minute');
      expectStatus(await api.user(), 200);
    });
  });

  describe('monthly quota (Description A): plans-monthly.json, Pro 4 a month', () => {
    it('survives a restart: a second app on the same database continues the count', async () => {
      const shared = await sharedDatabase();
      const env = { ...shared.env, PLANS_FILE: plansFile('plans-monthly.json') };
      try {
        const first = await startApp(env);
        let offset = 0;
        let user!: TestUser;
        try {
          const before = first.clock.now().getTime();
          startNext(first, 'month');
          offset = first.clock.now().getTime() - before;
          user = await first.createUser('pro');
          for (let i = 0; i < 3; i++) {
            const res = await calls(first, user).listA();
            expectStatus(res, 200);
            expectWindow(res, { limit: 4, remaining: 3 - i, resetMs: endOf(first, 'month') });
          }
        } finally {
          await first.close();
        }

        const second = await startApp(env);
        try {
          second.clock.advance(offset + 2 * DAY);
          const api = calls(second, user);
          const last = await api.listB();
          expectStatus(last, 200);
          expectWindow(last, { limit: 4, remaining: 0, resetMs: endOf(second, 'month') });
          const refused = await api.listA();
          const retryAfter = expectRateLimited(second, refused, 'A');
          expectWindow(refused, { limit: 4, remaining: 0, resetMs: endOf(second, 'month') });
          expect(retryAfter).toBeGreaterThan(DAY / SECOND);
          expectRateLimited(second, await api.createShort({ long: b64('https://example.com/m') }), 'B');
          // A new month starts afresh.
          startNext(second, 'month');
          const fresh = await api.listA();
          expectStatus(fresh, 200);
          expectWindow(fresh, { limit: 4, remaining: 3, resetMs: endOf(second, 'month') });
        } finally {
          await second.close();
        }
      } finally {
        await shared.cleanup();
      }
    });
  });

  describe('links per day (Description B): plans-links-per-day.json, Pro 5 a day, Builder 3', () => {
    const t = useTestApp({ PLANS_FILE: plansFile('plans-links-per-day.json') });

    it('counts links made through every surface (A create, createShort, /api/links, bulk items) and resets at midnight UTC', async () => {
      startNext(t, 'day');
      const user = await t.createUser('pro');
      const api = calls(t, user);
      expectStatus(await api.createA({ url: 'https://example.com/a' }), 201);
      expectStatus(await api.createShort({ long: b64('https://example.com/short') }), 201);
      expectStatus(await api.createB({ url: 'https://example.com/b' }), 201);
      // Three more would pass the limit: the whole bulk request is refused and makes nothing.
      const tooMany = await api.bulkB([{ url: 'https://example.com/1' }, { url: 'https://example.com/2' }, { url: 'https://example.com/3' }]);
      expectRateLimited(t, tooMany, 'B');
      expect(await api.linkCount()).toBe(3);
      // Two good items and a bad one: the bad one does not count.
      const bulk = await api.bulkB([{ url: 'https://example.com/1' }, { url: 'javascript:alert(1)' }, { long: b64('https://example.com/2') }]);
      expectStatus(bulk, 200);
      expect(bulk.json()).toMatchObject({ summary: { total: 3, created: 2, failed: 1 } });
      expect(await api.linkCount()).toBe(5);

      const midnight = endOf(t, 'day');
      const refusedA = await api.createA({ url: 'https://example.com/late' });
      expectRateLimited(t, refusedA, 'A');
      expectWindow(refusedA, { limit: 5, remaining: 0, resetMs: midnight });
      for (const res of [
        await api.createShort({ long: b64('https://example.com/late') }),
        await api.createB({ url: 'https://example.com/late' }),
        await api.bulkB([{ url: 'https://example.com/late' }]),
      ]) {
        expectRateLimited(t, res, 'B');
        expectWindow(res, { limit: 5, remaining: 0, resetMs: midnight });
      }
      expect(await api.linkCount()).toBe(5);

      // Still the same UTC day a second before midnight; a new day just after it.
      t.clock.advance(midnight - t.clock.now().getTime() - SECOND);
      expectRateLimited(t, await api.createA({ url: 'https://example.com/late' }), 'A');
      t.clock.advance(2 * SECOND);
      expectStatus(await api.createA({ url: 'https://example.com/next-day' }), 201);
      expectStatus(await api.bulkB([{ url: 'https://example.com/n1' }, { url: 'https://example.com/n2' }]), 200);
      expectStatus(await api.createShort({ long: b64('https://example.com/n3') }), 201);
      expectStatus(await api.createB({ url: 'https://example.com/n4' }), 201);
      expectRateLimited(t, await api.createB({ url: 'https://example.com/n5' }), 'B');
      expect(await api.linkCount()).toBe(10);
    });

    it("counts Description A's bulk items too (Builder, 3 a day)", async () => {
      startNext(t, 'day');
      const user = await t.createUser('builder');
      const api = calls(t, user);
      const bulk = await api.bulkA([{ url: 'https://example.com/1' }, { url: 'https://example.com/2' }]);
      expectStatus(bulk, 200);
      expect(bulk.json()).toMatchObject({ summary: { total: 2, created: 2, failed: 0 } });
      expectStatus(await api.createA({ url: 'https://example.com/3' }), 201);
      expectRateLimited(t, await api.bulkA([{ url: 'https://example.com/4' }]), 'A');
      expectRateLimited(t, await api.createShort({ long: b64('https://example.com/4') }), 'B');
      expect(await api.linkCount()).toBe(3);
    });

    it('a refused request (400 validation, 409 taken slug) does not use up the daily links', async () => {
      startNext(t, 'day');
      const user = await t.createUser('pro');
      const api = calls(t, user);
      expectStatus(await api.createA({ url: 'https://example.com/mine', customSlug: 'mine' }), 201);
      const refusals: Array<[Promise<LightMyRequestResponse>, number, string]> = [
        [api.createA({}), 400, 'MISSING_URL'],
        [api.createA({ url: 'nope' }), 400, 'INVALID_URL'],
        [api.createA({ url: 'javascript:alert(1)' }), 400, 'INVALID_URL'],
        [api.createA({ url: 'https://example.com', customSlug: 'ab' }), 400, 'INVALID_SLUG'],
        [api.createA({ url: 'https://example.com', maxClicks: 0 }), 400, 'INVALID_MAX_CLICKS'],
        [api.createA({ url: 'https://example.com', expiresAt: '2020-01-01T00:00:00Z' }), 400, 'EXPIRES_AT_IN_PAST'],
        [api.createA({ url: 'https://example.com/taken', customSlug: 'mine' }), 409, 'SLUG_TAKEN'],
        [api.createShort({ long: '%%%' }), 400, 'INVALID_BASE64'],
        [api.createShort({}), 400, 'MISSING_URL'],
        [api.createB({ url: 'ftp://example.com/f' }), 400, 'INVALID_URL'],
        [api.createB({ url: 'https://example.com/taken', customSlug: 'mine' }), 409, 'SLUG_TAKEN'],
      ];
      for (const [res, status, code] of refusals) expectError(await res, status, code);
      // A bulk request whose every item fails charges nothing either.
      const bulk = await api.bulkB([{ url: 'nope' }, { url: 'https://example.com', customSlug: 'mine' }]);
      expectStatus(bulk, 200);
      expect(bulk.json()).toMatchObject({ summary: { total: 2, created: 0, failed: 2 } });

      for (let i = 0; i < 4; i++) expectStatus(await api.createA({ url: `https://example.com/ok/${i}` }), 201);
      expectRateLimited(t, await api.createA({ url: 'https://example.com/sixth' }), 'A');
      expect(await api.linkCount()).toBe(5);
    });
  });

  describe('a 429 from the daily link limit costs nothing: plans-links-and-requests.json, Pro 1 link a day, 3 requests an hour, 1 bulk', () => {
    const t = useTestApp({ PLANS_FILE: plansFile('plans-links-and-requests.json') });

    it('the refused creates count against neither the hourly/monthly requests nor the bulk requests', async () => {
      startNext(t, 'month');
      const user = await t.createUser('pro');
      const api = calls(t, user);
      const created = await api.createA({ url: 'https://example.com/only' });
      expectStatus(created, 201);
      expectWindow(created, { limit: 3, remaining: 2, resetMs: endOf(t, 'hour') });
      // Four creates over the daily link limit, each answered 429 for links per day.
      for (const [res, surface] of [
        [await api.createA({ url: 'https://example.com/no' }), 'A'],
        [await api.createShort({ long: b64('https://example.com/no') }), 'B'],
        [await api.createB({ url: 'https://example.com/no' }), 'B'],
        [await api.bulkB([{ url: 'https://example.com/no' }]), 'B'],
      ] as const) {
        expectRateLimited(t, res, surface);
        expectWindow(res, { limit: 1, remaining: 0, resetMs: endOf(t, 'day') });
      }
      // Still 2 of the 3 an hour left, and the one bulk request.
      const list = await api.listA();
      expectStatus(list, 200);
      expectWindow(list, { limit: 3, remaining: 1, resetMs: endOf(t, 'hour') });
      const bulk = await api.bulkB([{ url: 'not a url' }]);
      expectStatus(bulk, 200);
      expect(bulk.json()).toMatchObject({ summary: { total: 1, created: 0, failed: 1 } });
      expectRateLimited(t, await api.listA(), 'A');
      // The month counted exactly the three admitted requests: one more fits.
      startNext(t, 'hour');
      const last = await api.listA();
      expectStatus(last, 200);
      expect(last.json<{ links: unknown[] }>().links).toHaveLength(1);
      expectWindow(last, { limit: 4, remaining: 0, resetMs: endOf(t, 'month') });
    });
  });

  describe('bulk requests per hour: plans-bulk-per-hour.json, Pro 2, Builder 3', () => {
    const t = useTestApp({ PLANS_FILE: plansFile('plans-bulk-per-hour.json') });

    it('Pro: the 3rd bulk request of the hour is 429 in B’s body and makes nothing; other routes are not affected', async () => {
      startNext(t, 'hour');
      const user = await t.createUser('pro');
      const api = calls(t, user);
      for (let i = 0; i < 2; i++) {
        const res = await api.bulkB([{ url: `https://example.com/${i}` }]);
        expectStatus(res, 200);
        expectWindow(res, { limit: 2, remaining: 1 - i, resetMs: endOf(t, 'hour') });
      }
      const refused = await api.bulkB([{ url: 'https://example.com/refused' }]);
      expectRateLimited(t, refused, 'B');
      expectWindow(refused, { limit: 2, remaining: 0, resetMs: endOf(t, 'hour') });
      expect(await api.linkCount()).toBe(2);
      expectStatus(await api.createB({ url: 'https://example.com/single' }), 201);
      startNext(t, 'hour');
      const again = await api.bulkB([{ url: 'https://example.com/again' }]);
      expectStatus(again, 200);
      expectWindow(again, { limit: 2, remaining: 1, resetMs: endOf(t, 'hour') });
    });

    it('Builder: A and B bulk share the 3 an hour; 429 in each surface’s body; refusals are not charged', async () => {
      startNext(t, 'hour');
      const user = await t.createUser('builder');
      const api = calls(t, user);
      expectStatus(await api.bulkA([{ url: 'https://example.com/1' }]), 200);
      expectStatus(await api.bulkB([{ url: 'https://example.com/2' }]), 200);
      const third = await api.bulkA([{ url: 'https://example.com/3' }]);
      expectStatus(third, 200);
      expectWindow(third, { limit: 3, remaining: 0, resetMs: endOf(t, 'hour') });
      for (let i = 0; i < 2; i++) {
        expectRateLimited(t, await api.bulkA([{ url: 'https://example.com/no' }]), 'A');
        expectRateLimited(t, await api.bulkB([{ url: 'https://example.com/no' }]), 'B');
      }
      expect(await api.linkCount()).toBe(3);
      startNext(t, 'hour');
      for (let i = 0; i < 3; i++) expectStatus(await api.bulkA([{ url: `https://example.com/n/${i}` }]), 200);
      expectRateLimited(t, await api.bulkA([{ url: 'https://example.com/no' }]), 'A');
      expect(await api.linkCount()).toBe(6);
    });
  });

  describe('an operator may limit Enterprise: plans-enterprise-capped.json, 2 an hour', () => {
    const t = useTestApp({ PLANS_FILE: plansFile('plans-enterprise-capped.json') });

    it('the 3rd request of the hour is refused', async () => {
      startNext(t, 'hour');
      const user = await t.createUser('enterprise');
      const api = calls(t, user);
      for (let i = 0; i < 2; i++) {
        const res = await api.listA();
        expectStatus(res, 200);
        expectWindow(res, { limit: 2, remaining: 1 - i, resetMs: endOf(t, 'hour') });
      }
      expectRateLimited(t, await api.listA(), 'A');
    });
  });
});

describe('PLANS_FILE', () => {
  it('keeps the defaults for what the file does not name', () => {
    const { plans } = loadConfig({ PLANS_FILE: plansFile('plans-enterprise-capped.json') });
    expect(plans.enterprise.requestsPerHour).toBe(2);
    expect(plans.enterprise.requestsPerMonth).toBeNull();
    expect(plans.pro).toMatchObject({ requestsPerHour: 50, requestsPerMonth: 1_000, requestsPerMinute: 300, linksPerDay: 10_000, bulkRequestsPerHour: 10 });
    expect(plans.builder).toMatchObject({ requestsPerHour: 500, requestsPerMonth: 10_000, requestsPerMinute: 1_000, linksPerDay: null, bulkRequestsPerHour: 50 });
    expect(plans.free).toMatchObject({ requestsPerMinute: 30, linksPerDay: 25 });
  });

  it.each([
    ['a negative limit', 'plans-bad-negative.json'],
    ['a limit that is not a number', 'plans-bad-type.json'],
    ['an unknown limit', 'plans-bad-limit-name.json'],
    ['an unknown plan', 'plans-bad-tier.json'],
    ['a missing file', 'plans-does-not-exist.json'],
  ])('with %s stops loadConfig with a ConfigError naming PLANS_FILE', (_label, name) => {
    const load = () => loadConfig({ PLANS_FILE: plansFile(name) });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/PLANS_FILE/);
  });

  it('that is not JSON stops loadConfig with a ConfigError naming PLANS_FILE', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-plans-'));
    try {
      const file = path.join(dir, 'plans.json');
      fs.writeFileSync(file, '{"pro": {"requestsPerHour": 5');
      expect(() => loadConfig({ PLANS_FILE: file })).toThrow(ConfigError);
      expect(() => loadConfig({ PLANS_FILE: file })).toThrow(/PLANS_FILE/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
