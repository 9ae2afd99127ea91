import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILURES_PER_ACCOUNT, FAILURES_PER_SOURCE } from '../../src/sessions/attempt-limits.js';
import { dialectName, sharedDatabase, startApp, useTestApp, type TestApp } from '../helpers/app.js';
import { redisReachable, TEST_REDIS_URL } from '../helpers/redis.js';
import { uniqueEmail } from '../sessions/session-client.js';

/**
 * Attack: anyone can lock an owner out. Ten wrong passwords for someone's email, from any address, refused that
 * person's right password for 15 minutes, renewable. Now failures are counted per account and source (an IPv4
 * address or an IPv6 /64): a source that keeps failing is refused (429 with Retry-After), and no other source is.
 * Past an account-wide ceiling (a distributed attack) a source may fail once per window for that account, so the
 * guesses stay bounded by the sources an attacker holds, while the owner's right password from a source that has
 * not failed, or from one the account signed in from before, still signs in.
 */
const PASSWORD = 'correct horse battery';
const WINDOW = 15 * 60_000;

// Counters shared through Redis outlive a run: each run takes its own addresses.
const run = Math.floor(Math.random() * 256);
let n = 0;
/** A fresh IPv4 address each call. */
const address = () => {
  n += 1;
  return `10.${run}.${Math.floor(n / 250)}.${(n % 250) + 1}`;
};

const signInOn = (app: TestApp['app'], email: string, password: string, remoteAddress: string) =>
  app.inject({ method: 'POST', url: '/api/auth/sign-in', remoteAddress, payload: { email, password } });

function expectRefused(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.json()).toMatchObject({ code: 'TOO_MANY_SIGN_IN_ATTEMPTS' });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW / 1000);
}

describe(`sign-in lockout: a stranger cannot keep the owner out (${dialectName})`, () => {
  const t = useTestApp();
  const signIn = (email: string, password: string, remoteAddress: string) => signInOn(t.app, email, password, remoteAddress);

  async function owner(): Promise<string> {
    const email = uniqueEmail('owner');
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/sign-up', remoteAddress: address(), payload: { email, password: PASSWORD } });
    expect(res.statusCode, res.body).toBe(201);
    return email;
  }

  it('refuses an attacker after ten wrong passwords from one address, while the owner signs in from another at once, again and again, during the attack', async () => {
    t.clock.startWindow(WINDOW);
    const email = await owner();
    const [attacker, home] = [address(), address()];
    const attempts: number[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await signIn(email, `wrong guess ${i}`, attacker);
      attempts.push(res.statusCode);
      if (res.statusCode === 429) expectRefused(res);
      if (i % 5 === 4) expect((await signIn(email, PASSWORD, home)).statusCode).toBe(200);
    }
    expect(attempts).toEqual([...Array(FAILURES_PER_SOURCE).fill(401), ...Array(50 - FAILURES_PER_SOURCE).fill(429)]);
    // The attacker's address is refused even the right password: the one address the attack costs is its own.
    expectRefused(await signIn(email, PASSWORD, attacker));
    for (let i = 0; i < 3; i++) expect((await signIn(email, PASSWORD, home)).statusCode).toBe(200);
    // Another stranger's address is not refused either, and the attacker's own comes back with the next window.
    expect((await signIn(email, PASSWORD, address())).statusCode).toBe(200);
    t.clock.advance(WINDOW);
    expect((await signIn(email, 'wrong again', attacker)).statusCode).toBe(401);
  });

  it('counts concurrent guesses exactly: ten are checked, the rest refused unhashed', async () => {
    t.clock.startWindow(WINDOW);
    const email = await owner();
    const attacker = address();
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => signIn(email, `wrong guess ${i}`, attacker)));
    expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(FAILURES_PER_SOURCE);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(16 - FAILURES_PER_SOURCE);
    expect((await signIn(email, PASSWORD, address())).statusCode).toBe(200);
  });

  it("counts an IPv6 attacker's /64 as one source, without refusing the owner's network next to it", async () => {
    t.clock.startWindow(WINDOW);
    const email = await owner();
    const statuses: number[] = [];
    for (let i = 1; i <= FAILURES_PER_SOURCE + 2; i++) statuses.push((await signIn(email, 'wrong', `2001:db8:66:1::${i.toString(16)}`)).statusCode);
    expect(statuses).toEqual([...Array(FAILURES_PER_SOURCE).fill(401), 429, 429]);
    expectRefused(await signIn(email, PASSWORD, '2001:db8:66:1:ffff::1'));
    expect((await signIn(email, PASSWORD, '2001:db8:66:2::1')).statusCode).toBe(200);
    // An IPv4-mapped IPv6 address is the IPv4 address it carries.
    const v4 = address();
    for (let i = 0; i < FAILURES_PER_SOURCE; i++) expect((await signIn(email, 'wrong', v4)).statusCode).toBe(401);
    expectRefused(await signIn(email, PASSWORD, `::ffff:${v4}`));
  });

  it('bounds a distributed attacker by the account-wide ceiling, and the owner still signs in from an address that never failed', async () => {
    t.clock.startWindow(WINDOW);
    const email = await owner();
    // The owner's usual address: signed in from before the attack.
    const usual = address();
    expect((await signIn(email, PASSWORD, usual)).statusCode).toBe(200);

    // Many addresses, a few guesses each, up to the ceiling: each is checked (401).
    const perAddress = 5;
    const botnet = Array.from({ length: FAILURES_PER_ACCOUNT / perAddress }, address);
    for (const bot of botnet) for (let i = 0; i < perAddress; i++) expect((await signIn(email, `guess ${bot} ${i}`, bot)).statusCode).toBe(401);

    // Past the ceiling an address that has failed is refused, below its own ten, even the right password.
    for (const bot of botnet.slice(0, 3)) expectRefused(await signIn(email, `guess ${bot} more`, bot));
    expectRefused(await signIn(email, PASSWORD, botnet[0]!));
    // A new address has one try per window: 20 more addresses, 3 guesses each, get 20 checked guesses in all.
    const fresh = Array.from({ length: 20 }, address);
    const statuses: number[] = [];
    for (const bot of fresh) for (let i = 0; i < 3; i++) statuses.push((await signIn(email, `late guess ${bot} ${i}`, bot)).statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(fresh.length);
    expect(statuses).toEqual(fresh.flatMap(() => [401, 429, 429]));
    // Concurrent guesses from one new address: exactly one is checked.
    const burst = address();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => signIn(email, `burst ${i}`, burst)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([401, 429, 429, 429, 429, 429]);

    // The owner, from an address that never failed: in at once, and again (a success is never counted).
    const travelling = address();
    for (let i = 0; i < 3; i++) expect((await signIn(email, PASSWORD, travelling)).statusCode).toBe(200);
    // From the usual address the owner may even mistype during the attack: a known address keeps its ten.
    expect((await signIn(email, 'typo', usual)).statusCode).toBe(401);
    expect((await signIn(email, 'typo again', usual)).statusCode).toBe(401);
    expect((await signIn(email, PASSWORD, usual)).statusCode).toBe(200);

    // The next window starts afresh for everyone.
    t.clock.advance(WINDOW);
    expect((await signIn(email, 'wrong', botnet[0]!)).statusCode).toBe(401);
    expect((await signIn(email, 'wrong', botnet[0]!)).statusCode).toBe(401);
  });

  it('limits an unknown email exactly as a real one, so the refusals tell no one which accounts exist', async () => {
    t.clock.startWindow(WINDOW);
    const real = await owner();
    const unknown = uniqueEmail('nobody');
    const run = async (email: string) => {
      const from = address();
      const statuses: number[] = [];
      for (let i = 0; i <= FAILURES_PER_SOURCE; i++) {
        const res = await signIn(email, `wrong ${i}`, from);
        statuses.push(res.statusCode);
        if (res.statusCode === 401) expect(res.json().code).toBe('BAD_CREDENTIALS');
      }
      return statuses;
    };
    expect(await run(unknown)).toEqual(await run(real));
  });
});

const redisUp = await redisReachable(TEST_REDIS_URL);
if (!redisUp) console.warn(`\n== SKIPPED the two-instance part of test/security/sign-in-lockout.test.ts: Redis is not reachable at ${TEST_REDIS_URL}\n`);

describe.skipIf(!redisUp)(`sign-in lockout shared by two instances through Redis (${dialectName})`, () => {
  let shared: Awaited<ReturnType<typeof sharedDatabase>> | undefined;
  let one: TestApp;
  let two: TestApp;

  beforeAll(async () => {
    shared = await sharedDatabase();
    const env = { ...shared.env, REDIS_URL: TEST_REDIS_URL };
    one = await startApp(env);
    two = await startApp(env);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await shared?.cleanup();
  });

  it("refuses on the second instance the address that failed on the first, and the owner's address on neither", async () => {
    // Both clocks to just after the start of the same window.
    const now = one.clock.now().getTime();
    const delta = WINDOW - (now % WINDOW) + 1_000;
    one.clock.advance(delta);
    two.clock.advance(delta);
    const email = uniqueEmail('shared');
    expect((await one.app.inject({ method: 'POST', url: '/api/auth/sign-up', remoteAddress: address(), payload: { email, password: PASSWORD } })).statusCode).toBe(201);
    const [attacker, home] = [address(), address()];
    for (let i = 0; i < FAILURES_PER_SOURCE; i++) expect((await signInOn(one.app, email, `wrong ${i}`, attacker)).statusCode).toBe(401);
    expectRefused(await signInOn(two.app, email, 'wrong again', attacker));
    expect((await signInOn(two.app, email, PASSWORD, home)).statusCode).toBe(200);
    expect((await signInOn(one.app, email, PASSWORD, home)).statusCode).toBe(200);
  });
});
