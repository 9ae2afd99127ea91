import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createCore } from '../../src/core.js';
import { bearer, freePort, killAll, removeDir, request, spawnServer, startServer, tempDir, type ServerProcess } from '../helpers/processes.js';
import { redisReachable, redisRelay } from '../helpers/redis.js';

/**
 * What an operator sees at start: one line saying what runs, and one clear sentence (not a driver's noise) when
 * the database or Redis is not there. Real server processes, since the process's output is what is tested.
 */

const dirs: string[] = [];
const freshDir = () => {
  const dir = tempDir('snip-startup-');
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  await killAll();
  for (const dir of dirs) removeDir(dir);
});

const logLines = (text: string): Array<Record<string, unknown>> =>
  text.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);

async function proKey(dataDir: string): Promise<string> {
  const core = await createCore(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), pino({ level: 'silent' }) as FastifyBaseLogger, { background: false });
  try {
    return (await core.accounts.createAccount({ email: `op${Date.now()}@example.com`, tier: 'pro' })).apiKey;
  } finally {
    await core.close();
  }
}

/** A TCP relay to the local Redis that the test can cut and restore, as a network would. */
const redisUp = await redisReachable();
if (!redisUp) console.warn('\n== SKIPPED in test/runtime/startup.test.ts: the Redis recovery test (no Redis at 127.0.0.1:6379)\n');

const until = async (check: () => boolean, what: string, ms = 15_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe.concurrent('start-up', () => {
  it('logs one line saying what runs: version, database, DATA_DIR, BASE_URL, Redis', async () => {
    const dataDir = freshDir();
    const server = await startServer({ DATA_DIR: dataDir, BASE_URL: 'http://sho.rt' });
    try {
      const lines = logLines(server.stdout());
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 30,
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        baseUrl: 'http://sho.rt',
        dataDir,
        database: `sqlite ${dataDir}/snip.db`,
        redis: expect.stringMatching(/^none/),
        listening: `http://127.0.0.1:${server.port}`,
        msg: expect.stringMatching(/^Snip \d+\.\d+\.\d+ listening on http:\/\/127\.0\.0\.1:\d+$/),
      });
    } finally {
      await server.stop();
    }
  });

  it('with LOG_LEVEL=debug logs each request at debug with its request id (and warns once that TRUST_PROXY=true trusts every hop)', async () => {
    const server = await startServer({ DATA_DIR: freshDir(), LOG_LEVEL: 'debug', TRUST_PROXY: 'true' });
    try {
      // The warning follows the start-up line; /healthz can answer before it has come through the pipe.
      await server.waitForOutput(/TRUST_PROXY=true believes every X-Forwarded-For hop/);
      const warnings = logLines(server.stdout()).filter((l) => l.level === 40);
      expect(warnings).toEqual([expect.objectContaining({ msg: expect.stringMatching(/^TRUST_PROXY=true believes every X-Forwarded-For hop/) })]);
      await request(server.url, { method: 'GET', path: '/nope123' });
      await until(() => logLines(server.stdout()).some((l) => l.url === '/nope123' && l.msg === 'request completed'), 'the request line');
      const line = logLines(server.stdout()).find((l) => l.url === '/nope123' && l.msg === 'request completed')!;
      expect(line).toMatchObject({ level: 20, method: 'GET', statusCode: 404, reqId: expect.any(String) });
    } finally {
      await server.stop();
    }
  });

  it('stops with one sentence naming DATABASE_URL when PostgreSQL is not reachable, after waiting DATABASE_START_TIMEOUT', async () => {
    const closedPort = await freePort();
    const server = spawnServer({
      HOST: '127.0.0.1', PORT: '0', DATA_DIR: freshDir(), LOG_LEVEL: 'info',
      DATABASE_URL: `postgres://snip:secret-pw@127.0.0.1:${closedPort}/snip`, DATABASE_START_TIMEOUT: '1',
    });
    const result = await server.exited;
    expect(result.code).toBe(1);
    const stderr = result.stderr.split('\n').filter((l) => l.trim() !== '');
    expect(stderr).toEqual([
      `Snip cannot start: PostgreSQL at postgres://snip@127.0.0.1:${closedPort}/snip (DATABASE_URL) is not reachable: connect ECONNREFUSED 127.0.0.1:${closedPort}; gave up after 1 s (DATABASE_START_TIMEOUT)`,
    ]);
    // One line said it was waiting; the password appears nowhere.
    const warnings = logLines(result.stdout).filter((l) => l.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toMatch(/not reachable yet.*retrying for up to 1 s/);
    expect(result.stdout + result.stderr).not.toContain('secret-pw');
  });

  it('says once that Redis is away, and answers every request at once meanwhile', async () => {
    const dataDir = freshDir();
    const key = await proKey(dataDir);
    const closedPort = await freePort();
    const server = await startServer({ DATA_DIR: dataDir, REDIS_URL: `redis://:pw@127.0.0.1:${closedPort}` });
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => request(server.url, { method: 'GET', path: '/api/v1/links', headers: bearer(key) })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      // ioredis retries in the background; the log still says it once.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const lines = logLines(server.stdout());
      const warnings = lines.filter((l) => l.level === 40);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ redis: `redis://127.0.0.1:${closedPort}`, reason: 'ECONNREFUSED', msg: expect.stringContaining('REDIS_URL') });
      expect(server.stdout() + server.stderr()).not.toMatch(/Unhandled error event|:pw@/);
    } finally {
      await server.stop();
    }
  });

  it.skipIf(!redisUp)('goes back to the shared Redis counters by itself when Redis returns', async () => {
    const dataDir = freshDir();
    const key = await proKey(dataDir);
    const relay = await redisRelay();
    let server: ServerProcess | undefined;
    try {
      server = await startServer({ DATA_DIR: dataDir, REDIS_URL: `redis://127.0.0.1:${relay.port}` });
      const s = server;
      const get = () => request(s.url, { method: 'GET', path: '/api/v1/links', headers: bearer(key) });
      const remaining = async () => Number((await get()).headers['x-ratelimit-remaining']);
      const first = await remaining();

      await relay.cut();
      await until(() => logLines(s.stdout()).some((l) => l.level === 40), 'the outage line');
      // Counted in this process meanwhile: the answers keep coming, with limits still applied.
      expect((await get()).status).toBe(200);

      await relay.restore();
      await until(() => logLines(s.stdout()).some((l) => String(l.msg).startsWith('Redis is reachable again')), 'the recovery line');
      // Shared again: Redis's counter carries on from where it was before the outage.
      expect(await remaining()).toBe(first - 1);
      expect(logLines(s.stdout()).filter((l) => l.level === 40)).toHaveLength(1);
    } finally {
      await server?.stop();
      await relay.cut();
    }
  });
});
