import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createCore } from '../../src/core.js';
import { bearer, killAll, removeDir, request, startServer, tempDir, type ServerProcess } from '../helpers/processes.js';

/**
 * Every click whose redirect was answered survives the server being killed: the real server runs as a child
 * process on a fresh SQLite DATA_DIR, is sent N redirects, is killed (SIGKILL, or SIGTERM), restarts on the same
 * DATA_DIR, and shows N clicks.
 */

const N = 50;
const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const PLANS_FILE = path.join(import.meta.dirname, '..', 'fixtures', 'plans-unmetered.json');

const dirs: string[] = [];
afterAll(async () => {
  await killAll();
  for (const dir of dirs) removeDir(dir);
});

/** A fresh DATA_DIR holding one pro account; answers the directory and the account's key. */
async function freshDataDir(): Promise<{ dataDir: string; key: string }> {
  const dataDir = tempDir('snip-clicks-');
  dirs.push(dataDir);
  const log = pino({ level: 'silent' }) as FastifyBaseLogger;
  const core = await createCore(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PLANS_FILE }), log);
  try {
    const { apiKey } = await core.accounts.createAccount({ email: `durable-${path.basename(dataDir)}@example.com`, tier: 'pro' });
    return { dataDir, key: apiKey };
  } finally {
    await core.close();
  }
}

const serve = (dataDir: string): Promise<ServerProcess> => startServer({ DATA_DIR: dataDir, PLANS_FILE, LOG_LEVEL: 'warn' });

async function createLink(server: ServerProcess, key: string, body: Record<string, unknown>): Promise<string> {
  const res = await request(server.url, { method: 'POST', path: '/api/v1/links', headers: bearer(key), body: { url: 'https://example.com/durable', ...body } });
  expect(res.status, res.body).toBe(201);
  return String(res.json().shortCode);
}

/** N sequential redirects of `code`, each answered 302 before the next is sent. */
async function visitN(server: ServerProcess, code: string): Promise<void> {
  for (let i = 0; i < N; i++) {
    const res = await request(server.url, { method: 'GET', path: `/${code}`, headers: { 'user-agent': BROWSER } });
    expect(res.status, res.body).toBe(302);
    expect(res.headers.location).toBe('https://example.com/durable');
  }
}

/** What the server shows for a link: LinkStats' total and records, and the link details' click count. */
async function counts(server: ServerProcess, key: string, code: string): Promise<{ totalClicks: number; records: number; clicks: number }> {
  const stats = await request(server.url, { method: 'GET', path: `/api/v1/links/${code}/stats`, headers: bearer(key) });
  expect(stats.status, stats.body).toBe(200);
  const details = await request(server.url, { method: 'GET', path: `/api/v1/links/${code}`, headers: bearer(key) });
  expect(details.status, details.body).toBe(200);
  const body = stats.json() as { totalClicks: number; clicks: unknown[] };
  return { totalClicks: body.totalClicks, records: body.clicks.length, clicks: Number(details.json().clicks) };
}

/** After `total` answered clicks: LinkStats' total and the link details' count are `total`, with the newest 100 records. */
const shown = (total: number) => ({ totalClicks: total, records: Math.min(total, 100), clicks: total });

/**
 * Rounds of N redirects, each ended by SIGKILL right after the last answer and followed by a restart on the same
 * DATA_DIR that must show every answered click. A visit lost to the kill fails the round it happens in.
 */
async function killRounds(body: Record<string, unknown>, rounds: number): Promise<void> {
  const { dataDir, key } = await freshDataDir();
  let server = await serve(dataDir);
  const code = await createLink(server, key, body);
  for (let round = 1; round <= rounds; round++) {
    await visitN(server, code);
    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    server = await serve(dataDir);
    expect(await counts(server, key, code), `after SIGKILL number ${round}`).toEqual(shown(round * N));
  }
  // Killed again with nothing new: the next start replays nothing twice.
  server.child.kill('SIGKILL');
  await server.exited;
  server = await serve(dataDir);
  expect(await counts(server, key, code)).toEqual(shown(rounds * N));
  const stopped = await server.stop();
  expect(stopped.code, stopped.stderr).toBe(0);
}

// Each test has its own DATA_DIR and server, and mostly waits for it: they run at once.
describe.concurrent('clicks survive the server process being killed (sqlite, real server)', () => {
  it(`SIGKILL right after the last of ${N} answered redirects loses none of them (4 rounds), and a restart counts none twice`, { timeout: 240_000 }, async () => {
    await killRounds({}, 4);
  });

  it(`the same holds for a link with maxClicks, whose count the redirect writes itself`, { timeout: 240_000 }, async () => {
    await killRounds({ maxClicks: 1_000 }, 4);
  });

  it(`SIGTERM after ${N} answered redirects: the server exits 0 and a restart shows all of them`, { timeout: 240_000 }, async () => {
    const { dataDir, key } = await freshDataDir();
    const first = await serve(dataDir);
    const uncapped = await createLink(first, key, {});
    const capped = await createLink(first, key, { maxClicks: 1_000 });
    await visitN(first, uncapped);
    await visitN(first, capped);
    const result = await first.stop();
    expect(result.code, result.stderr).toBe(0);

    const second = await serve(dataDir);
    expect(await counts(second, key, uncapped)).toEqual(shown(N));
    expect(await counts(second, key, capped)).toEqual(shown(N));

    // Another round ended by SIGTERM adds up.
    await visitN(second, uncapped);
    expect((await second.stop()).code).toBe(0);
    const third = await serve(dataDir);
    expect(await counts(third, key, uncapped)).toEqual(shown(2 * N));
    expect(await counts(third, key, capped)).toEqual(shown(N));
    await third.stop();
  });
});
