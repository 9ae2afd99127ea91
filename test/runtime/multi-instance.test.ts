import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDatabase, testDatabaseUrl } from '../helpers/app.js';
import { bearer, killAll, removeDir, request, runCli, startServer, tempDir, type HttpResponse, type ServerProcess } from '../helpers/processes.js';
import { redisReachable, TEST_REDIS_URL } from '../helpers/redis.js';
import { BROWSER_UA } from '../helpers/user-agents.js';

/**
 * Three Snip processes (`node dist/main.js`, as `npm start` runs it), each with a data directory of its own as on
 * three machines, on one PostgreSQL and one Redis (issue 21): changes reach every instance within a second, limits
 * hold across them, and an instance killed mid-load loses no click and no webhook delivery. Needs both services;
 * skipped with a message otherwise (`.ci/run` runs it with them).
 */
const runs = testDatabaseUrl !== null && (await redisReachable());
if (!runs) console.warn(`\n== SKIPPED test/runtime/multi-instance.test.ts: needs SNIP_TEST_DATABASE_URL (PostgreSQL) and Redis at ${TEST_REDIS_URL}\n`);

const PLANS_FILE = path.join(import.meta.dirname, '..', 'fixtures', 'plans-redis.json');

describe.skipIf(!runs)('three instances on one PostgreSQL and one Redis', () => {
  let shared: Awaited<ReturnType<typeof sharedDatabase>>;
  const dirs: string[] = [];
  const servers: ServerProcess[] = [];
  let env: Record<string, string> = {};
  let apiKey = '';
  let builderKey = '';
  const deliveries: string[] = [];
  let receiver: http.Server;
  let hookUrl = '';

  const start = (dir: string) => startServer({ ...env, DATA_DIR: dir });

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        deliveries.push(String(req.headers['x-snip-delivery']));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    shared = await sharedDatabase();
    env = { ...shared.env, REDIS_URL: TEST_REDIS_URL, LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE: 'true', PUBLIC_REQUESTS_PER_MINUTE: 'unlimited', PLANS_FILE };
    for (let i = 0; i < 3; i++) dirs.push(tempDir('snip-instance-'));
    // The first start migrates; the other two find the schema ready.
    servers.push(await start(dirs[0]!));
    servers.push(...(await Promise.all([start(dirs[1]!), start(dirs[2]!)])));
    // The database's first account is its operator, whom no plan limits: the accounts below are members.
    await runCli(['users', 'create', '--email', 'operator@example.com'], { ...env, DATA_DIR: dirs[0]! });
    const pro = await runCli(['users', 'create', '--email', 'multi@example.com', '--tier', 'pro'], { ...env, DATA_DIR: dirs[0]! });
    expect(pro.code, pro.stderr).toBe(0);
    apiKey = String(JSON.parse(pro.stdout).apiKey);
    // Builder: unmetered requests in plans-redis.json, for the load; pro has 10 requests a minute.
    const builder = await runCli(['users', 'create', '--email', 'load@example.com', '--tier', 'builder'], { ...env, DATA_DIR: dirs[0]! });
    builderKey = String(JSON.parse(builder.stdout).apiKey);
  });

  afterAll(async () => {
    await killAll();
    receiver?.close();
    for (const dir of dirs) removeDir(dir);
    await shared?.cleanup();
  });

  const api = (server: ServerProcess, method: string, urlPath: string, body?: unknown, key = builderKey) =>
    request(server.url, { method, path: urlPath, headers: bearer(key), ...(body === undefined ? {} : { body }) });
  const visit = (server: ServerProcess, code: string) => request(server.url, { method: 'GET', path: `/${code}`, headers: { 'user-agent': BROWSER_UA } });

  /** Milliseconds until every server answers as `holds` says, polling every 20 ms; fails after 5 s. */
  async function everywhere(targets: ServerProcess[], probe: (s: ServerProcess) => Promise<HttpResponse>, holds: (r: HttpResponse) => boolean): Promise<number> {
    const started = Date.now();
    for (;;) {
      const answers = await Promise.all(targets.map(probe));
      if (answers.every(holds)) return Date.now() - started;
      if (Date.now() - started > 5_000) throw new Error(`not everywhere after 5 s: ${answers.map((a) => a.status).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('drops a link changed or deleted through one instance from the others within a second; a revoked key stops at once', async () => {
    const [a, b, c] = servers as [ServerProcess, ServerProcess, ServerProcess];
    const created = await api(a, 'POST', '/api/v1/links', { url: 'https://example.com/one' });
    expect(created.status, created.body).toBe(201);
    const code = String(created.json().shortCode);
    for (const s of [b, c]) expect((await visit(s, code)).headers.location).toBe('https://example.com/one');

    expect((await api(a, 'PATCH', `/api/v1/links/${code}`, { url: 'https://example.com/two' })).status).toBe(200);
    expect(await everywhere([b, c], (s) => visit(s, code), (r) => r.headers.location === 'https://example.com/two')).toBeLessThan(1_000);

    expect((await api(a, 'DELETE', `/api/v1/links/${code}`)).status).toBe(200);
    expect(await everywhere([b, c], (s) => visit(s, code), (r) => r.status === 404)).toBeLessThan(1_000);

    const key = await api(a, 'POST', '/api/keys', {});
    expect(key.status, key.body).toBe(201);
    const { apiKey: secret, id } = key.json() as { apiKey: string; id: string };
    expect((await api(c, 'GET', '/api/v1/links', undefined, secret)).status).toBe(200);
    expect((await api(a, 'DELETE', `/api/keys/${id}`)).status).toBe(200);
    expect((await api(c, 'GET', '/api/v1/links', undefined, secret)).status).toBe(401);
  });

  it('keeps a click cap exact and a per-minute limit shared across the three', async () => {
    const made = await api(servers[0]!, 'POST', '/api/v1/links', { url: 'https://example.com/capped', maxClicks: 25 });
    const code = String(made.json().shortCode);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => visit(servers[i % 3]!, code)));
    expect(answers.filter((r) => r.status === 302)).toHaveLength(25);

    // Pro: 10 requests a minute (plans-redis.json), counted in Redis whichever instance answers.
    const calls = await Promise.all(Array.from({ length: 24 }, (_, i) => api(servers[i % 3]!, 'GET', '/api/v1/links', undefined, apiKey)));
    const admitted = calls.filter((r) => r.status === 200).length;
    // A call may land in the next minute's window; never more than the limit in one.
    expect(admitted).toBeGreaterThanOrEqual(10);
    expect(admitted).toBeLessThanOrEqual(20);
    expect(calls.filter((r) => r.status === 429).length).toBe(24 - admitted);
  });

  it('loses no click and no webhook delivery when an instance is killed (SIGKILL) mid-load and started again', async () => {
    const [a] = servers as [ServerProcess];
    expect((await api(a, 'POST', '/api/v1/webhooks', { url: hookUrl, events: ['link.click'] })).status).toBe(201);
    const code = String((await api(a, 'POST', '/api/v1/links', { url: 'https://example.com/load' })).json().shortCode);
    let answered = 0;
    let unanswered = 0;
    let sent = 0;
    const TOTAL = 600;
    const worker = async () => {
      while (sent < TOTAL) {
        const target = servers[sent % 3]!;
        sent += 1;
        if (sent === TOTAL / 3) void servers[2]!.kill();
        try {
          const res = await visit(target, code);
          if (res.status === 302) answered += 1;
          else unanswered += 1;
        } catch {
          // Refused (the instance is gone) or cut off mid-answer: either way, not answered.
          unanswered += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: 12 }, worker));
    expect(answered).toBeGreaterThan(TOTAL / 2);

    // The killed instance comes back on its data directory and replays its journal.
    servers[2] = await start(dirs[2]!);
    const total = async () => Number((await api(a, 'GET', `/api/v1/links/${code}/stats`)).json().totalClicks);
    const deadline = Date.now() + 15_000;
    while ((await total()) < answered && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    // Clicks cut off mid-answer may still be on their way (a batch that failed to commit is tried again a second
    // later, a replay after a restart): the count is read once it has stood still for longer than that retry.
    const settled = async (read: () => Promise<number>, until: number): Promise<number> => {
      let value = await read();
      for (let still = 0; still < 6 && Date.now() < until; ) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        const now = await read();
        still = now === value ? still + 1 : 0;
        value = now;
      }
      return value;
    };
    const counted = await settled(total, deadline + 5_000);
    // Every answered click is counted; at most the requests cut off mid-answer were counted without an answer.
    expect(counted).toBeGreaterThanOrEqual(answered);
    expect(counted).toBeLessThanOrEqual(answered + unanswered);

    // One delivery per counted click; what the killed instance held is sent by another once its lease lapses.
    // Both are read again once the deliveries have stood still: each delivery's event commits with its count, so
    // the two must agree then, whenever the last commit came.
    const until = Date.now() + 45_000;
    while (new Set(deliveries).size < counted && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 250));
    const unique = await settled(async () => new Set(deliveries).size, until);
    const finalCount = await total();
    expect(unique, `deliveries against the count (answered ${answered}, unanswered ${unanswered}, first count ${counted})`).toBe(finalCount);
    // And a commit counted twice after the first reading would raise both: the count still has its bounds.
    expect(finalCount).toBeLessThanOrEqual(answered + unanswered);
    // At least once: a delivery in flight when its instance died may come twice (same X-Snip-Delivery), nothing more.
    expect(deliveries.length - unique).toBeLessThanOrEqual(20);
  });
});
