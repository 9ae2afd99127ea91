import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/app.js';
import { releaseAppSchema, takeAppSchema } from './app-schemas.js';
import { testDatabaseUrl } from './databases.js';
import type { Clock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { Core } from '../../src/core.js';

export { dialectName, sharedDatabase, testDatabaseUrl } from './databases.js';

/** A clock tests can move; starts at the real time. */
export class TestClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
  /**
   * Moves to just after the start of the next window of `windowMs` (a minute by default), so a test that counts
   * against a per-minute budget has the whole window, however slow the machine, rather than straddling two.
   */
  startWindow(windowMs = 60_000): void {
    const now = this.now().getTime();
    this.advance(windowMs - (now % windowMs) + 1);
  }
}

export interface TestUser {
  id: string;
  email: string;
  tier: string;
  namespace: string | null;
  apiKey: string;
}

export interface TestApp {
  app: FastifyInstance;
  core: Core;
  config: Config;
  clock: TestClock;
  baseUrl: string;
  createUser(tier?: string, email?: string): Promise<TestUser>;
  /** app.inject with the user's key as a bearer token. */
  as(user: TestUser | string | null, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

let counter = 0;

/** The first account of every test app (see `startApp`): the server's operator. */
export const OPERATOR_EMAIL = 'operator@snip.test';

/**
 * `empty`: start without accounts. Otherwise the database's first account (which becomes its operator, with no plan
 * limits) is made here, so the accounts a test makes are ordinary members whose plans apply.
 */
export async function startApp(env: Record<string, string> = {}, options: { empty?: boolean } = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-test-'));
  const config = loadConfig({
    BASE_URL: 'http://snip.test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    // Suites that are not about rate limits run unmetered; the rate-limit suite passes its own PLANS_FILE.
    PLANS_FILE: path.join(import.meta.dirname, '..', 'fixtures', 'plans-unmetered.json'),
    // Every test request comes from 127.0.0.1: the per-address budget has its own suite (test/security/address-limits.test.ts).
    PUBLIC_REQUESTS_PER_MINUTE: 'unlimited',
    ...(testDatabaseUrl ? { DATABASE_URL: testDatabaseUrl } : {}),
    ...env,
  });
  const clock = new TestClock();
  // An operation answering a code it does not declare fails the test that made it answer (src/http/declared-codes.ts).
  const undeclared: string[] = [];
  const report = (where: string, code: string) => undeclared.push(`${where}: ${code}`);
  // On PostgreSQL a schema of the app's own: emptied after an earlier app of this worker, or new (test/helpers/app-schemas.ts).
  const schema = testDatabaseUrl ? takeAppSchema() : undefined;
  // An app that fails to start hands its schema to no one; the run's teardown drops it.
  const { app, core } = await buildApp(config, { clock, pgSchema: schema, onUndeclaredCode: report });
  let closed = false;
  // A second app on the same database (a restart) finds its operator there already.
  if (!options.empty && !(await core.accounts.findForSignIn(OPERATOR_EMAIL))) await core.accounts.createAccount({ email: OPERATOR_EMAIL, tier: 'free' });
  return {
    app,
    core,
    config,
    clock,
    baseUrl: config.baseUrl,
    async createUser(tier = 'pro', email?: string) {
      counter += 1;
      const address = email ?? `user${counter}-${randomBytes(3).toString('hex')}@example.com`;
      const created = await core.accounts.createAccount({ email: address, tier });
      return { ...created };
    },
    as(user, options) {
      const key = typeof user === 'string' ? user : user?.apiKey;
      const headers = { ...(options.headers ?? {}), ...(key ? { authorization: `Bearer ${key}` } : {}) };
      return app.inject({ ...options, headers });
    },
    async close() {
      // Once: a schema handed on twice would be two apps' at once.
      if (closed) return;
      closed = true;
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (schema && testDatabaseUrl) await releaseAppSchema(testDatabaseUrl, schema);
      // After the clean-up, so that a failing test leaves no database behind.
      if (undeclared.length > 0) throw new Error(`operations answered codes they do not declare (add them to the operation's errors): ${[...new Set(undeclared)].join('; ')}`);
    },
  };
}

/** The app of one describe block (see `useTestApp`), with the accounts the block asks for up front. */
export interface BlockApp extends TestApp {
  /**
   * An account of `tier` (default pro), created right after the block's app starts, in the order asked for. Call it
   * in the describe body; read the account's fields inside hooks and tests.
   */
  user(tier?: string): TestUser;
}

/**
 * Registers a beforeAll that starts a fresh app (`startApp(env)`) for the enclosing describe block and an afterAll
 * that closes it, and answers an object that stands for that app. Its properties can be read once the block's
 * beforeAll has run, that is inside hooks and tests; the block's own beforeAll hooks run after this one.
 */
export function useTestApp(env: Record<string, string> = {}): BlockApp {
  let started: TestApp | undefined;
  const accounts: Array<{ tier: string; account?: TestUser }> = [];
  const current = (): TestApp => {
    if (!started) throw new Error('the block app starts in beforeAll: use it inside hooks and tests');
    return started;
  };

  beforeAll(async () => {
    started = await startApp(env);
    for (const entry of accounts) entry.account = await started.createUser(entry.tier);
  });
  afterAll(async () => {
    await started?.close();
    started = undefined;
  });

  return {
    get app() {
      return current().app;
    },
    get core() {
      return current().core;
    },
    get config() {
      return current().config;
    },
    get clock() {
      return current().clock;
    },
    get baseUrl() {
      return current().baseUrl;
    },
    createUser: (tier, email) => current().createUser(tier, email),
    as: (user, options) => current().as(user, options),
    close: () => current().close(),
    user(tier = 'pro') {
      if (started) throw new Error('ask for block accounts in the describe body, before its app starts');
      const entry: { tier: string; account?: TestUser } = { tier };
      accounts.push(entry);
      const account = (): TestUser => {
        if (!entry.account) throw new Error(`the block's ${tier} account is created in beforeAll: use it inside hooks and tests`);
        return entry.account;
      };
      return {
        get id() {
          return account().id;
        },
        get email() {
          return account().email;
        },
        get tier() {
          return account().tier;
        },
        get namespace() {
          return account().namespace;
        },
        get apiKey() {
          return account().apiKey;
        },
      };
    },
  };
}
