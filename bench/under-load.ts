import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Worker } from 'node:worker_threads';
import { startFakeSource } from '../test/helpers/fake-sources.js';

/**
 * The redirect while the rest of Snip works hard (issue 32): Snip as shipped holds 10,000 links; a few visitors follow
 * a short link one request after another, first on a quiet server, then while four CSV exports of all 10,000 links,
 * a 1,000-link bulk create and an import of 2,000 links from a local Shlink run against the same process. Prints
 * the redirect's p99 and slowest answer in both phases beside the goals (p99 at most 25 ms, none over 100 ms under
 * load), that every API call finished, and that every answered redirect was counted.
 */

const root = path.resolve(import.meta.dirname, '..');
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const VISITORS = Number(process.env.BENCH_VISITORS ?? 4);
const QUIET_MS = 3_000;

async function start(): Promise<{ child: ChildProcess; port: number; code: string; apiKey: string }> {
  // BENCH_NODE_ARGS: for the server process (`--cpu-prof --cpu-prof-dir=...` to see where a stall comes from).
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, 'bench/servers/snip-loaded.mjs'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, IMPORT_ALLOW_PRIVATE: 'true', PUBLIC_REQUESTS_PER_MINUTE: 'unlimited' },
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  return { child, ...(JSON.parse(line) as { port: number; code: string; apiKey: string }) };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function get(port: number, pathname: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathname, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

function post(port: number, pathname: string, key: string, body: unknown): Promise<{ status: number; body: string }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: pathname, method: 'POST', agent, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/**
 * Visitors following the link back to back until `until` settles; each answer's time in ms. They run in a thread of
 * their own (bench/visitors.mjs), so the exports this process reads and the source it serves do not delay them.
 */
async function visit(port: number, code: string, until: Promise<unknown>): Promise<number[]> {
  const worker = new Worker(new URL('./visitors.mjs', import.meta.url), { workerData: { port, code, visitors: VISITORS, userAgent: CHROME } });
  const result = new Promise<number[]>((resolve, reject) => {
    worker.once('message', (message: { times?: number[]; error?: string }) => (message.times ? resolve(message.times) : reject(new Error(message.error))));
    worker.once('error', reject);
  });
  await until.finally(() => worker.postMessage('stop'));
  try {
    return await result;
  } finally {
    await worker.terminate();
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale', '--server-only'], { cwd: root, stdio: 'inherit' });
const s = await start();
const auth = { authorization: `Bearer ${s.apiKey}` };
const source = await startFakeSource('shlink', {
  key: 'bench',
  links: Array.from({ length: 2_000 }, (_, i) => ({ code: `load${i}`, domain: 'old.example', url: `https://example.com/old/${i}` })),
});
try {
  // Warm up the redirect (JIT, cache), then the quiet phase.
  await visit(s.port, s.code, new Promise((resolve) => setTimeout(resolve, 1_000)));
  const quiet = await visit(s.port, s.code, new Promise((resolve) => setTimeout(resolve, QUIET_MS)));

  const started = performance.now();
  // BENCH_WORK=exports|bulk|import runs one kind of work alone (to find which one a stall comes from).
  const only = process.env.BENCH_WORK;
  const idle = Promise.resolve({ status: 200, body: '{}' });
  const work = Promise.all([
    ...Array.from({ length: 4 }, () => (!only || only === 'exports' ? get(s.port, '/api/v1/export/links?format=csv', auth) : idle)),
    !only || only === 'bulk' ? post(s.port, '/api/bulk', s.apiKey, { urls: Array.from({ length: 1_000 }, (_, i) => ({ url: `https://example.com/bulk/${i}` })) }) : idle,
    !only || only === 'import' ? post(s.port, '/api/imports', s.apiKey, { from: 'shlink', source: source.base, sourceKey: 'bench' }) : idle,
  ]);
  const loaded = await visit(s.port, s.code, work);
  const answers = await work;
  const workSeconds = (performance.now() - started) / 1000;

  const failed = answers.filter((a) => a.status !== 200);
  const exported = answers.slice(0, 4).map((a) => a.body.split('\n').filter(Boolean).length - 1);
  const imported = (JSON.parse(answers[5]!.body) as { imported?: number }).imported;
  const details = await get(s.port, `/api/v1/links/${s.code}`, auth);
  const clicks = (JSON.parse(details.body) as { clicks: number }).clicks;
  const answered = quiet.length + loaded.length;

  const line = (name: string, t: number[]) =>
    `${name.padEnd(22)} ${String(t.length).padStart(6)} redirects  p50 ${percentile(t, 50).toFixed(1)} ms  p99 ${percentile(t, 99).toFixed(1)} ms  slowest ${t.reduce((a, b) => Math.max(a, b), 0).toFixed(1)} ms`;
  console.log(`redirect under load: ${VISITORS} visitors back to back, Node ${process.version}`);
  console.log(line('quiet', quiet));
  console.log(line('under load', loaded));
  console.log(`the work: 4 CSV exports (${exported.join(', ')} links), a 1,000-link bulk create, an import of ${imported} links, in ${workSeconds.toFixed(1)} s; ${failed.length === 0 ? 'every call answered 200' : `${failed.length} calls failed: ${failed.map((f) => f.status).join(', ')}`}`);
  const p99 = percentile(loaded, 99);
  const slowest = loaded.reduce((a, b) => Math.max(a, b), 0);
  console.log(`goal: redirect p99 under load <= 25 ms: ${p99.toFixed(1)} ms  ${p99 <= 25 ? 'met' : 'NOT met'}`);
  console.log(`goal: no redirect slower than 100 ms under load: slowest ${slowest.toFixed(1)} ms  ${slowest <= 100 ? 'met' : 'NOT met'}`);
  // The warm-up's redirects count too: the link's clicks are at least the measured ones, and none is lost.
  console.log(`goal: no click lost: ${clicks} counted for at least ${answered} answered  ${clicks >= answered && failed.length === 0 ? 'met' : 'NOT met'}`);
} finally {
  await source.close();
  const exited = new Promise((resolve) => s.child.once('exit', resolve));
  s.child.kill('SIGTERM');
  await exited;
  agent.destroy();
}
