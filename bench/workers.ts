import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort } from './free-port.js';

/**
 * One process against WORKERS=auto: `node dist/main.js` as `npm start` runs it, on a fresh SQLite database, redirecting
 * one link for a bot (nothing recorded) and for a browser (every click recorded), BENCH_WORKER_REQUESTS requests
 * (default 300,000) at 50 connections each. The load generator runs on the same machine, unpinned: on few CPUs it
 * takes a share of what the workers could use.
 */
const root = path.resolve(import.meta.dirname, '..');
const amount = Number(process.env.BENCH_WORKER_REQUESTS ?? 300_000);
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale', '--server-only'], { cwd: root, stdio: 'inherit' });

async function run(workers: string): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-bench-workers-'));
  const port = await freePort();
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', WORKERS: workers, PUBLIC_REQUESTS_PER_MINUTE: 'unlimited' };
  const child = spawn(process.execPath, ['dist/main.js'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (i > 300) throw new Error('the server did not start');
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const created = spawnSync(process.execPath, ['dist/cli/main.js', 'users', 'create', '--email', 'bench@example.com', '--tier', 'pro'], { cwd: root, env });
  const apiKey = String(JSON.parse(created.stdout.toString()).apiKey);
  const link = (await (await fetch(`${base}/api/v1/links`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://example.com/landing' }) })).json()) as { shortCode: string };
  for (const [label, userAgent] of [['bot', BOT], ['recorded', CHROME]] as const) {
    const load = (n: number) => autocannon({ url: `${base}/${link.shortCode}`, connections: 50, amount: n, headers: { 'user-agent': userAgent } });
    await load(20_000);
    const result = await load(amount);
    console.log(`WORKERS=${workers.padEnd(4)} ${label.padEnd(8)} ${Math.round(result.requests.total / result.duration).toLocaleString('en').padStart(7)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  non-3xx ${result.non2xx - result['3xx']}`);
  }
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
}

console.log(`redirect throughput, one process versus WORKERS=auto (${os.availableParallelism()} CPUs, ${amount.toLocaleString('en')} requests each)`);
await run('1');
await run('auto');
