import type { LightMyRequestResponse } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { periodAt } from '../../src/usage/windows.js';

/** When the hourly window around `ms` ends. */
const hourEnd = (ms: number): number => periodAt('hour', ms).endMs;
import { dialectName, useTestApp, type BlockApp, type TestUser } from '../helpers/app.js';
import { expectSameError, mcpBatch, mcpOutcome, mcpPost, PARITY_PLANS, restOutcome, type Outcome } from './helpers.js';

/**
 * Parity of the quota charge (issue 15). plans-parity.json gives Pro 5 requests an hour (and 100 a minute, no
 * monthly or daily limit), so the hourly window is the one closest to running out and the one the X-RateLimit-*
 * headers describe. The same operations over A, B and MCP must be charged alike: one each (an MCP tools/call
 * is one operation, so a JSON-RPC batch of N calls is N), refused at the same point with RATE_LIMITED (429 on
 * REST; on MCP the code is in the tool error or the JSON-RPC error), and X-RateLimit-Remaining must read the same
 * whichever surface made the calls. Each case uses fresh accounts, so no count carries over.
 */

const HOURLY = 5;
type Via = 'A' | 'B' | 'MCP';
const SURFACES: Via[] = ['A', 'B', 'MCP'];

/** One operation that needs API access, listing the caller's links, over `via`; answers the raw response. */
function listLinks(t: BlockApp, user: TestUser, via: Via): Promise<LightMyRequestResponse> {
  if (via === 'A') return t.as(user, { method: 'GET', url: '/api/v1/links' });
  if (via === 'B') return t.as(user, { method: 'GET', url: '/api/links' });
  return mcpPost(t, user, 'list_links', {});
}

const outcomeOf = (via: Via, res: LightMyRequestResponse): Outcome => (via === 'MCP' ? mcpOutcome(res) : restOutcome(res));

const remaining = (res: LightMyRequestResponse) => (res.headers['x-ratelimit-remaining'] === undefined ? null : Number(res.headers['x-ratelimit-remaining']));
const limit = (res: LightMyRequestResponse) => (res.headers['x-ratelimit-limit'] === undefined ? null : Number(res.headers['x-ratelimit-limit']));

describe(`parity: the hourly quota over A, B and MCP (${dialectName})`, () => {
  const t = useTestApp({ PLANS_FILE: PARITY_PLANS });

  // Each case starts one second into a fresh hour on the app's clock, so no hourly window can turn over mid-case.
  beforeEach(() => {
    const now = t.clock.now().getTime();
    t.clock.advance(hourEnd(now) - now + 1000);
  });

  it(`${HOURLY} calls pass and the ${HOURLY + 1}th is RATE_LIMITED on every surface, with one message`, async () => {
    const results: Record<Via, (string | null)[]> = { A: [], B: [], MCP: [] };
    const refusals: Partial<Record<Via, Outcome>> = {};
    const statuses: Partial<Record<Via, number>> = {};
    for (const via of SURFACES) {
      const user = await t.createUser('pro');
      for (let i = 0; i <= HOURLY; i++) {
        const res = await listLinks(t, user, via);
        const outcome = outcomeOf(via, res);
        results[via].push(outcome.ok ? null : outcome.code);
        if (i === HOURLY) {
          refusals[via] = outcome;
          statuses[via] = res.statusCode;
        }
      }
    }
    const expected = [null, null, null, null, null, 'RATE_LIMITED'];
    expect(results).toEqual({ A: expected, B: expected, MCP: expected });
    expectSameError('the refusal', refusals, 'RATE_LIMITED');
    expect({ A: statuses.A, B: statuses.B }).toEqual({ A: 429, B: 429 });
  });

  it('the 429 of A and B: one code, one message (A`s `message`, B`s `error` text), and the same Retry-After', async () => {
    const answers: Partial<Record<Via, LightMyRequestResponse>> = {};
    for (const via of ['A', 'B'] as const) {
      const user = await t.createUser('pro');
      for (let i = 0; i < HOURLY; i++) expect((await listLinks(t, user, via)).statusCode).toBe(200);
      answers[via] = await listLinks(t, user, via);
    }
    expectSameError('429 on A and B', { A: restOutcome(answers.A!), B: restOutcome(answers.B!) }, 'RATE_LIMITED');
    expect({ A: answers.A!.statusCode, B: answers.B!.statusCode }).toEqual({ A: 429, B: 429 });
    expect(answers.B!.headers['retry-after']).toBe(answers.A!.headers['retry-after']);
  });

  it('X-RateLimit-Limit and X-RateLimit-Remaining after each of k calls read the same whichever surface made them', async () => {
    const seen: Record<Via, { limit: number | null; remaining: number | null; reset: number | null }[]> = { A: [], B: [], MCP: [] };
    for (const via of SURFACES) {
      const user = await t.createUser('pro');
      for (let k = 1; k <= HOURLY; k++) {
        const res = await listLinks(t, user, via);
        seen[via].push({ limit: limit(res), remaining: remaining(res), reset: res.headers['x-ratelimit-reset'] === undefined ? null : Number(res.headers['x-ratelimit-reset']) });
      }
    }
    // The hourly window's end, in Unix seconds, as X-RateLimit-Reset gives it.
    const reset = Math.ceil(hourEnd(t.clock.now().getTime()) / 1000);
    const expected = Array.from({ length: HOURLY }, (_, i) => ({ limit: HOURLY, remaining: HOURLY - 1 - i, reset }));
    expect(seen).toEqual({ A: expected, B: expected, MCP: expected });
  });

  it('k calls on one surface leave the same quota for the next call on A (its X-RateLimit-Remaining)', async () => {
    const k = 2;
    const after: Partial<Record<Via, number | null>> = {};
    for (const via of SURFACES) {
      const user = await t.createUser('pro');
      for (let i = 0; i < k; i++) expect(outcomeOf(via, await listLinks(t, user, via)).ok).toBe(true);
      after[via] = remaining(await listLinks(t, user, 'A'));
    }
    expect(after).toEqual({ A: HOURLY - k - 1, B: HOURLY - k - 1, MCP: HOURLY - k - 1 });
  });

  it('refused operations are charged alike: a good create, a bad URL and an unknown link cost 3 on every surface', async () => {
    const after: Partial<Record<Via, number | null>> = {};
    const answers: Partial<Record<Via, (string | null)[]>> = {};
    for (const via of SURFACES) {
      const user = await t.createUser('pro');
      const calls: Outcome[] = [];
      if (via === 'MCP') {
        calls.push(mcpOutcome(await mcpPost(t, user, 'shorten_url', { url: 'https://example.com/parity/charged' })));
        calls.push(mcpOutcome(await mcpPost(t, user, 'shorten_url', { url: 'not a url' })));
        calls.push(mcpOutcome(await mcpPost(t, user, 'get_link', { shortPath: 'zzzzzz' })));
      } else {
        const base = via === 'A' ? '/api/v1/links' : '/api/links';
        calls.push(restOutcome(await t.as(user, { method: 'POST', url: base, payload: { url: 'https://example.com/parity/charged' } })));
        calls.push(restOutcome(await t.as(user, { method: 'POST', url: base, payload: { url: 'not a url' } })));
        calls.push(restOutcome(await t.as(user, { method: 'GET', url: `${base}/zzzzzz` })));
      }
      answers[via] = calls.map((o) => (o.ok ? null : o.code));
      after[via] = remaining(await listLinks(t, user, 'A'));
    }
    const expected = [null, 'INVALID_URL', 'NOT_FOUND'];
    expect(answers).toEqual({ A: expected, B: expected, MCP: expected });
    expect(after).toEqual({ A: HOURLY - 4, B: HOURLY - 4, MCP: HOURLY - 4 });
  });

  it('a JSON-RPC batch of 3 tools/call is charged 3, not 1', async () => {
    const user = await t.createUser('pro');
    const { res, outcomes } = await mcpBatch(t, user, [
      ['list_links', {}],
      ['list_links', {}],
      ['list_links', {}],
    ]);
    expect(outcomes.map((o) => (o.ok ? null : o.code)), `HTTP ${res.statusCode}`).toEqual([null, null, null]);
    const next = await listLinks(t, user, 'A');
    expect(next.statusCode, next.body).toBe(200);
    expect(remaining(next)).toBe(HOURLY - 4);
  });

  it(`a JSON-RPC batch of ${HOURLY + 1} tools/call, one more than the quota: RATE_LIMITED, and only what ran is charged`, async () => {
    const user = await t.createUser('pro');
    const { res, outcomes } = await mcpBatch(
      t,
      user,
      Array.from({ length: HOURLY + 1 }, () => ['list_links', {}] as [string, Record<string, unknown>]),
    );
    const got = outcomes.map((o) => (o.ok ? null : o.code));
    // Either the calls that fit run and the last is refused (as 6 single calls are), or the whole POST is refused
    // before any call runs (429, nothing charged). Both are parity; each must charge exactly what ran.
    const next = await listLinks(t, user, 'A');
    if (res.statusCode === 429) {
      expect(got).toEqual(Array.from({ length: HOURLY + 1 }, () => 'RATE_LIMITED'));
      expect(next.statusCode, next.body).toBe(200);
      expect(remaining(next)).toBe(HOURLY - 1);
    } else {
      expect(got, `HTTP ${res.statusCode}`).toEqual([null, null, null, null, null, 'RATE_LIMITED']);
      expect(restOutcome(next)).toMatchObject({ ok: false, code: 'RATE_LIMITED' });
    }
  });

  it('quota spent on MCP refuses REST, and quota spent on REST refuses MCP, with one code and message', async () => {
    const viaMcp = await t.createUser('pro');
    for (let i = 0; i < HOURLY; i++) expect(mcpOutcome(await listLinks(t, viaMcp, 'MCP')).ok).toBe(true);
    const viaRest = await t.createUser('pro');
    for (let i = 0; i < HOURLY; i++) expect((await listLinks(t, viaRest, i % 2 === 0 ? 'A' : 'B')).statusCode).toBe(200);
    expectSameError(
      'cross-surface refusal',
      {
        A: restOutcome(await listLinks(t, viaMcp, 'A')),
        B: restOutcome(await listLinks(t, viaMcp, 'B')),
        MCP: mcpOutcome(await listLinks(t, viaRest, 'MCP')),
      },
      'RATE_LIMITED',
    );
  });
});
