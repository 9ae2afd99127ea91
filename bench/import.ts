import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SourceName } from '../src/imports/source.js';
import { startFakeSource, type FakeLink, type FakeVisit } from '../test/helpers/fake-sources.js';
import { scratchSchema } from '../test/helpers/pg-schema.js';

/**
 * Issue 31's goal: 10,000 links from a local source imported in under a minute. A fake Shlink and a fake Kutt
 * (test/helpers/fake-sources.ts, real HTTP on 127.0.0.1) each list BENCH_IMPORT_LINKS links (default 10,000) on
 * go.bench.test, which is BASE_URL's host, so every link keeps its short path as after a real move: a third are
 * 6-character codes (they stay Snip codes), a third 5-character Shlink-style codes and a third slugs (kept as imported
 * paths). Each run is `node dist/cli/main.js links import` as an operator types it, timed from spawn to exit, on a
 * fresh SQLite database; then the same command again, which finds every link already imported. Two more runs show
 * the other costs: Shlink with --with-clicks (VISITS_PER_LINK visits each, one visits request per link, written as
 * clicks), and a fake Dub whose links stay on dub.sh, so each gets a new code. With
 * SNIP_BENCH_DATABASE_URL=postgres://... the plain Shlink run is repeated on PostgreSQL, in a schema of its own.
 */
const root = path.resolve(import.meta.dirname, '..');
const TOTAL = Number(process.env.BENCH_IMPORT_LINKS ?? 10_000);
const HOST = 'go.bench.test';
const KEY = 'bench-source-key';
const GOAL_SECONDS = 60;
const pgUrl = process.env.SNIP_BENCH_DATABASE_URL || null;
const VISITS_PER_LINK = 5;

// The CLI runs as shipped (dist/): build it first when src/ changed.
spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale', '--server-only'], { cwd: root, stdio: 'inherit' });

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** A distinct code of `length` characters for each i (base 62, most significant first). */
function codeOf(i: number, length: number): string {
  let code = '';
  for (let n = i; code.length < length; n = Math.floor(n / 62)) code = ALPHABET[n % 62] + code;
  return code;
}

const links: FakeLink[] = Array.from({ length: TOTAL }, (_, i) => ({
  code: i % 3 === 0 ? codeOf(i + 1_000_000, 6) : i % 3 === 1 ? codeOf(i + 100_000, 5) : `spring-offer-${i}`,
  url: `https://shop.example.com/products/${i}?utm_source=newsletter&utm_campaign=c${i % 40}`,
  title: `Product page ${i}`,
  tags: i % 4 === 0 ? [] : [`campaign-${i % 25}`, ...(i % 2 === 0 ? ['newsletter'] : [])],
  clicks: (i * 7) % 300,
}));

const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
];
const visits: Record<string, FakeVisit[]> = Object.fromEntries(
  links.map((link, i) => [
    link.code,
    Array.from({ length: VISITS_PER_LINK }, (_, v) => ({
      at: new Date(Date.parse('2025-06-01T00:00:00Z') - (i * VISITS_PER_LINK + v) * 61_000).toISOString(),
      referrer: v % 2 === 0 ? 'https://news.example.org/post' : null,
      userAgent: AGENTS[v % AGENTS.length]!,
      country: v % 3 === 0 ? null : v % 3 === 1 ? 'DE' : 'US',
    })),
  ]),
);

interface Summary {
  imported: number;
  skipped: number;
  failed: number;
  clicks: number;
  rows: { source: string; shortUrl: string | null; outcome: string; code?: string }[];
  error?: { code: string; message: string };
}

/** Runs the built CLI without blocking this process, which serves the fake sources; stdout's last line is its JSON. */
function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ seconds: number; out: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/cli/main.js', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => {
      const seconds = (performance.now() - started) / 1000;
      const out = Buffer.concat(chunks).toString().trim();
      if (status !== 0) reject(new Error(`cli ${args.slice(0, 2).join(' ')} exited ${status}: ${out.slice(0, 500)}`));
      else resolve({ seconds, out: out.split('\n').at(-1) ?? '' });
    });
  });
}

/** A fresh database: a DATA_DIR, and on PostgreSQL a schema dropped afterwards. */
async function freshDatabase(onPg: boolean): Promise<{ env: NodeJS.ProcessEnv; cleanup(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-bench-import-'));
  // A DATABASE_URL of the shell would put every run on one database: each gets its own.
  const { DATABASE_URL: _shared, ...inherited } = process.env;
  const base: NodeJS.ProcessEnv = { ...inherited, DATA_DIR: dataDir, BASE_URL: `https://${HOST}`, LOG_LEVEL: 'warn' };
  if (!onPg || !pgUrl) return { env: base, cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  const schema = await scratchSchema(pgUrl, 'bench_import');
  return {
    env: { ...base, DATABASE_URL: schema.url },
    async cleanup() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await schema.drop();
    },
  };
}

const results: { label: string; seconds: number }[] = [];

interface RunOptions {
  onPg?: boolean;
  withClicks?: boolean;
  /** The source's links stay on the service's own domain (dub.sh): new codes on Snip. */
  staysBehind?: boolean;
}

async function run(from: SourceName, { onPg = false, withClicks = false, staysBehind = false }: RunOptions = {}): Promise<void> {
  const label = `${from}${withClicks ? ' --with-clicks' : ''}${staysBehind ? ' (new codes)' : ''}, ${onPg ? 'PostgreSQL' : 'SQLite'}`;
  const source = await startFakeSource(from, { key: KEY, links, ...(staysBehind ? {} : { defaultDomain: HOST }), ...(withClicks ? { visits } : {}) });
  const db = await freshDatabase(onPg);
  try {
    // The first account of a database is its operator; the import goes to a Pro account after it, as on a real server.
    await cli(['users', 'create', '--email', 'operator@bench.test', '--tier', 'enterprise'], db.env);
    await cli(['users', 'create', '--email', 'mover@bench.test', '--tier', 'pro'], db.env);
    const args = ['links', 'import', '--email', 'mover@bench.test', '--from', from, '--source', source.base, '--source-key', KEY, ...(withClicks ? ['--with-clicks'] : [])];

    const first = await cli(args, db.env);
    const summary = JSON.parse(first.out) as Summary;
    if (summary.error || summary.imported !== TOTAL || summary.failed !== 0) {
      throw new Error(`${label}: imported ${summary.imported}, failed ${summary.failed}${summary.error ? `, ${summary.error.message}` : ''}`);
    }
    const kept = summary.rows.filter((row) => row.shortUrl === row.source).length;
    results.push({ label, seconds: first.seconds });
    console.log(
      `import ${TOTAL.toLocaleString('en')} links from ${label}: ${first.seconds.toFixed(1)} s, ${Math.round(TOTAL / first.seconds).toLocaleString('en')} links/s ` +
        `(${kept.toLocaleString('en')} kept their short URL, ${summary.clicks.toLocaleString('en')} clicks ${withClicks ? 'as click records' : 'as imported totals'}, ${source.requests.length.toLocaleString('en')} source requests)`,
    );

    const again = await cli(args, db.env);
    const rerun = JSON.parse(again.out) as Summary;
    if (rerun.skipped !== TOTAL || rerun.imported !== 0) throw new Error(`${label} re-run: skipped ${rerun.skipped}, imported ${rerun.imported}`);
    console.log(`  re-run, all ${TOTAL.toLocaleString('en')} skipped as already imported: ${again.seconds.toFixed(1)} s`);
  } finally {
    await source.close();
    await db.cleanup();
  }
}

console.log(`links import from a local source (${os.availableParallelism()} CPUs, Node ${process.versions.node}, timed from spawning the CLI to its exit)`);
await run('shlink');
await run('kutt');
await run('shlink', { withClicks: true });
await run('dub', { staysBehind: true });
if (pgUrl) await run('shlink', { onPg: true });
else console.log('PostgreSQL skipped: set SNIP_BENCH_DATABASE_URL=postgres://... to run it');

const slowest = results.reduce((a, b) => (b.seconds > a.seconds ? b : a));
const met = TOTAL >= 10_000 && slowest.seconds < GOAL_SECONDS;
console.log(`goal: 10,000 links in under ${GOAL_SECONDS} s: ${met ? 'met' : 'NOT met'} (slowest: ${slowest.label}, ${slowest.seconds.toFixed(1)} s${TOTAL < 10_000 ? `; only ${TOTAL} links ran` : ''})`);
