import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import type { Clock } from '../../src/clock.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { Core } from '../../src/core.js';

/**
 * The suite runs on SQLite by default. With SNIP_TEST_DATABASE_URL=postgres://... every app built here runs on
 * PostgreSQL instead, each in a schema of its own (as Kysely's own suite picks its dialect by environment).
 */
export const testDatabaseUrl = process.env.SNIP_TEST_DATABASE_URL || null;
export const dialectName = testDatabaseUrl ? 'postgres' : 'sqlite';

/** A clock tests can move; starts at the real time. */
export class TestClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
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

export async function startApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-test-'));
  const schema = testDatabaseUrl ? `t_${randomBytes(6).toString('hex')}` : undefined;
  const config = loadConfig({
    BASE_URL: 'http://snip.test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(testDatabaseUrl ? { DATABASE_URL: testDatabaseUrl } : {}),
    ...env,
  });
  const clock = new TestClock();
  const { app, core } = await buildApp(config, { clock, pgSchema: schema });
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
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (schema && testDatabaseUrl) {
        const client = new pg.Client({ connectionString: testDatabaseUrl });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
    },
  };
}
