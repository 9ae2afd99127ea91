import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, freePort, killAll, removeDir, request, runCli, spawnServer, startServer, tempDir, type ServerProcess } from '../helpers/processes.js';
import { BROWSER_UA } from '../helpers/user-agents.js';

/**
 * WORKERS (issue 21): `npm start` as a primary process running that many servers on one port and one SQLite file.
 * The process is what is tested here (start-up, a worker killed, SIGTERM), so it is spawned as `npm start` runs it.
 */

describe('WORKERS=2 on SQLite, and a backup taken while they run', () => {
  let dir: string;
  let server: ServerProcess;

  beforeAll(async () => {
    dir = tempDir('snip-workers-');
    server = await startServer({ DATA_DIR: dir, WORKERS: '2', PUBLIC_REQUESTS_PER_MINUTE: 'unlimited' });
    await server.waitForOutput(/listening on/, 2);
  });
  afterAll(async () => {
    await killAll();
    removeDir(dir);
  });

  const workerPids = () =>
    server
      .stdout()
      .split('\n')
      .filter((line) => line.includes('listening on'))
      .map((line) => (JSON.parse(line) as { pid: number }).pid);

  it('serves from two processes on one port and one database, restarts a worker that dies, and drains all on SIGTERM', async () => {
    expect(server.stdout()).toContain('Snip primary: 2 server processes');
    const pids = workerPids();
    expect(new Set(pids).size).toBe(2);

    const created = await runCli(['users', 'create', '--email', 'workers@example.com', '--tier', 'pro'], { DATA_DIR: dir });
    expect(created.code, created.stderr).toBe(0);
    const key = String(JSON.parse(created.stdout).apiKey);
    const link = await request(server.url, { method: 'POST', path: '/api/v1/links', headers: bearer(key), body: { url: 'https://example.com/w' } });
    expect(link.status, link.body).toBe(201);
    const code = String(link.json().shortCode);
    // One connection each (no keep-alive): node:cluster hands them to the workers in turn.
    const visits = await Promise.all(Array.from({ length: 100 }, () => request(server.url, { method: 'GET', path: `/${code}`, headers: { 'user-agent': BROWSER_UA } })));
    expect(visits.every((v) => v.status === 302)).toBe(true);

    // A consistent copy of the live database, taken while both workers write to it.
    const copy = path.join(dir, 'backup.db');
    const backup = await runCli(['db', 'backup', copy], { DATA_DIR: dir });
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout)).toEqual({ backup: copy, bytes: expect.any(Number) });
    const restored = new Database(copy, { readonly: true });
    expect(restored.prepare('select count(*) as n from links').get()).toEqual({ n: 1 });
    restored.close();
    const again = await runCli(['db', 'backup', copy], { DATA_DIR: dir });
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stderr.split('\n')[0]!)).toMatchObject({ code: 'INVALID_ARGUMENT' });

    process.kill(pids[0]!, 'SIGKILL');
    await server.waitForOutput(/listening on/, 3);
    expect(server.stdout()).toContain('a worker stopped');
    const more = await Promise.all(Array.from({ length: 20 }, () => request(server.url, { method: 'GET', path: `/${code}`, headers: { 'user-agent': BROWSER_UA } })));
    expect(more.every((v) => v.status === 302)).toBe(true);

    // Every click counted once, the killed worker's included (its journal is adopted by the next start).
    const total = async () => Number((await request(server.url, { method: 'GET', path: `/api/v1/links/${code}/stats`, headers: bearer(key) })).json().totalClicks);
    const deadline = Date.now() + 15_000;
    while ((await total()) < 120 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await total()).toBe(120);

    const result = await server.stop();
    expect(result.code).toBe(0);
    for (const pid of workerPids()) expect(() => process.kill(pid, 0)).toThrow();
  });
});

describe('WORKERS when the workers cannot start', () => {
  it('gives up with exit code 1 rather than serving nothing (the port is taken)', async () => {
    const dir = tempDir('snip-workers-fail-');
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const server = spawnServer({ DATA_DIR: dir, WORKERS: '2', HOST: '127.0.0.1', PORT: String(port) });
      const result = await server.exited;
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('giving up');
    } finally {
      blocker.close();
      removeDir(dir);
    }
  });
});

/** The processes `pid` has forked that are running now (Linux: /proc). */
const childrenOf = (pid: number): number[] =>
  fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(process.platform !== 'linux')('WORKERS=2 stopped while a worker restarts (issue 26)', () => {
  afterAll(() => killAll());

  // systemd (and a terminal) signal the whole process group: the primary and every worker at once, a replacement
  // worker that is still starting included. Right as it appears (before its signal handlers exist) and a moment later
  // (while it loads and builds the app), the stop ends with 0 and leaves no process behind.
  it.each([0, 300])('exits 0 with every process gone when the group gets SIGTERM %i ms after a replacement worker appears', async (delayMs) => {
    const dir = tempDir('snip-workers-restart-');
    try {
      const port = await freePort();
      const server = spawnServer({ DATA_DIR: dir, WORKERS: '2', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info' }, { processGroup: true });
      await server.waitForOutput(/listening on/, 2);
      const primary = server.child.pid!;
      const first = childrenOf(primary);
      expect(first).toHaveLength(2);

      process.kill(first[0]!, 'SIGKILL');
      const deadline = Date.now() + 20_000;
      let replacement: number | undefined;
      while (replacement === undefined && Date.now() < deadline) {
        replacement = childrenOf(primary).find((pid) => !first.includes(pid));
        if (replacement === undefined) await sleep(5);
      }
      expect(replacement, 'the primary starts another worker').toBeDefined();
      await sleep(delayMs);
      // It has not started serving yet: it would have said so.
      expect(server.stdout().split('\n').filter((line) => line.includes('listening on'))).toHaveLength(2);
      process.kill(-primary, 'SIGTERM');

      const result = await server.exited;
      expect({ code: result.code, signal: result.signal }, result.stdout + result.stderr).toEqual({ code: 0, signal: null });
      for (const pid of [primary, ...first, replacement!]) expect(isRunning(pid), `process ${pid}`).toBe(false);
      expect(result.stdout).not.toContain('giving up');
    } finally {
      removeDir(dir);
    }
  });
});

describe('WORKERS=2 and MAX_CONNECTIONS (issue 26)', () => {
  afterAll(() => killAll());

  // node:cluster's default is to hand a connection a worker at its cap refuses to another worker, round and round
  // while all are full: the connection was held (never closed) and the primary kept busy passing it on.
  it('closes the connections beyond each worker\'s cap at once, and answers again once others go', async () => {
    const dir = tempDir('snip-workers-cap-');
    try {
      const server = await startServer({ DATA_DIR: dir, WORKERS: '2', MAX_CONNECTIONS: '5', HEADERS_TIMEOUT: '2' });
      await server.waitForOutput(/listening on/, 2);
      const outcomes = await Promise.all(
        Array.from(
          { length: 20 },
          () =>
            new Promise<string>((resolve) => {
              const socket = net.connect({ port: server.port, host: '127.0.0.1' });
              let received = '';
              socket.setEncoding('latin1');
              socket.on('data', (chunk: string) => (received += chunk));
              socket.on('error', () => undefined);
              socket.on('close', () => resolve(received));
            }),
        ),
      );
      const held = outcomes.filter((text) => text !== '');
      // Each worker holds at most its 5 (which ones a connection reaches is the primary's round robin); the held ones
      // are closed by HEADERS_TIMEOUT with a 408, the others without an answer as soon as they were accepted.
      expect(held.length).toBeLessThanOrEqual(10);
      expect(held.length).toBeGreaterThan(0);
      for (const text of held) expect(text).toMatch(/^HTTP\/1\.1 408 /);
      const fresh = await request(server.url, { method: 'GET', path: '/healthz' });
      expect(fresh.status).toBe(200);
      expect((await server.stop()).code).toBe(0);
    } finally {
      removeDir(dir);
    }
  });
});
