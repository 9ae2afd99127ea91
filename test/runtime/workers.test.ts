import net from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, killAll, removeDir, request, runCli, spawnServer, startServer, tempDir, type ServerProcess } from '../helpers/processes.js';
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
