import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSource, type FakeLink, type FakeSource, type FakeSourceOptions } from '../helpers/fake-sources.js';
import { bearer, killAll, oneJsonLine, removeDir, request, runCli as spawnCli, startServer, tempDir, type RunResult } from '../helpers/processes.js';
import type { SourceName } from '../../src/imports/source.js';

/**
 * `links import --from`: links of another shortener read from a local fake of its API, run as the shipped CLI on a
 * temporary DATA_DIR. The tests run side by side, a few processes at a time.
 */

const PARALLEL = 3;
// A hang's safety net: side-by-side tests wait their turn for a process slot inside their own time, and on a loaded
// 2-CPU CI machine a CLI process takes seconds, so the last export test in line passed 120 s there.
const TEST_TIMEOUT = 300_000;
const KEY = 'shlink-secret-key-0123456789';
let running = 0;
const queue: (() => void)[] = [];
async function runCli(args: string[], extraEnv: Record<string, string> = {}): Promise<RunResult> {
  if (running >= PARALLEL) await new Promise<void>((resolve) => queue.push(resolve));
  running += 1;
  try {
    return await spawnCli(args, { ...env, ...extraEnv });
  } finally {
    running -= 1;
    queue.shift()?.();
  }
}

let dir: string;
let env: Record<string, string>;
const fakes: FakeSource[] = [];

async function fake(kind: SourceName, options: Partial<FakeSourceOptions> = {}): Promise<FakeSource> {
  const source = await startFakeSource(kind, { key: KEY, links: [], ...options });
  fakes.push(source);
  return source;
}

const many = (n: number, prefix = 'c'): FakeLink[] =>
  Array.from({ length: n }, (_, i) => ({ code: `${prefix}${i}`, url: `https://example.com/${prefix}/${i}`, title: `Page ${i}`, clicks: i % 7 }));

let accounts = 0;
async function account(): Promise<{ email: string; apiKey: string }> {
  const email = `importer${++accounts}@example.com`;
  const result = await runCli(['users', 'create', '--email', email, '--tier', 'pro']);
  expect(result.code, result.stderr).toBe(0);
  return { email, apiKey: oneJsonLine(result.stdout).apiKey as string };
}

interface Row {
  source: string;
  shortUrl: string | null;
  outcome: string;
  code?: string;
}
interface Summary {
  from: string;
  dryRun: boolean;
  imported: number;
  skipped: number;
  failed: number;
  clicks: number;
  rows: Row[];
  error?: { code: string; message: string };
}

/** The one summary line; stderr stays empty (not a terminal, so no progress bar). */
function summaryOf(result: RunResult, exitCode: number): Summary {
  expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(exitCode);
  expect(result.stderr).toBe('');
  return oneJsonLine(result.stdout) as unknown as Summary;
}

/** A refused command line: nothing on stdout, the error line on stderr. */
function refusal(result: RunResult): { code: string; message: string } {
  expect([1, 2], `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toContain(result.code);
  expect(result.stdout).toBe('');
  const body = oneJsonLine(result.stderr);
  expect(body).toMatchObject({ error: true, code: expect.any(String), message: expect.any(String) });
  return body as unknown as { code: string; message: string };
}

const importFrom = (email: string, from: string, source: FakeSource | string, extra: string[] = []) =>
  runCli(['links', 'import', '--email', email, '--from', from, '--source', typeof source === 'string' ? source : source.base, '--source-key', KEY, ...extra]);

async function exported(email: string): Promise<Record<string, unknown>[]> {
  const result = await runCli(['links', 'export', '--email', email, '--format', 'json']);
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { links: Record<string, unknown>[] }).links;
}

beforeAll(async () => {
  dir = tempDir('snip-cli-source-');
  env = { DATA_DIR: path.join(dir, 'data'), BASE_URL: 'http://sho.rt' };
  // The database's first account becomes its operator (no plan limits): a throwaway one, so the tests' users are members.
  await account();
}, TEST_TIMEOUT);

afterAll(async () => {
  await killAll();
  await Promise.all(fakes.map((f) => f.close()));
  removeDir(dir);
});

describe.concurrent('links import --from', { timeout: TEST_TIMEOUT }, () => {
  it('imports 120 Shlink links over several pages: one line with a row per link; a second run skips them all', async () => {
    const { email } = await account();
    const links = many(120);
    const shlink = await fake('shlink', { links, pageSize: 25 });
    const first = summaryOf(await importFrom(email, 'shlink', shlink), 0);
    expect(first).toMatchObject({ from: 'shlink', dryRun: false, imported: 120, skipped: 0, failed: 0, clicks: links.reduce((s, l) => s + l.clicks!, 0) });
    expect(first.error).toBeUndefined();
    expect(first.rows.map((r) => r.source)).toEqual(links.map((l) => `https://shlink.test/${l.code}`));
    for (const row of first.rows) {
      expect(row.outcome).toBe('imported');
      expect(row.shortUrl).toMatch(/^http:\/\/sho\.rt\/\S+$/);
    }
    expect(new Set(first.rows.map((r) => r.shortUrl)).size).toBe(120);
    // Several pages were asked for.
    expect(shlink.requests.filter((r) => r.startsWith('/rest/v3/short-urls?')).length).toBeGreaterThanOrEqual(5);

    const made = await exported(email);
    expect(made).toHaveLength(120);
    expect(made.map((l) => l.shortUrl).sort()).toEqual(first.rows.map((r) => r.shortUrl).sort());
    expect(made.map((l) => l.destination).sort()).toEqual(links.map((l) => l.url).sort());

    const again = summaryOf(await importFrom(email, 'shlink', shlink), 0);
    expect(again).toMatchObject({ imported: 0, skipped: 120, failed: 0 });
    for (const [i, row] of again.rows.entries()) {
      expect(row).toMatchObject({ source: first.rows[i]!.source, shortUrl: first.rows[i]!.shortUrl, outcome: 'skipped', code: 'ALREADY_IMPORTED' });
    }
    expect(await exported(email)).toHaveLength(120);
  });

  it('--dry-run says what would happen and makes nothing', async () => {
    const { email } = await account();
    const shlink = await fake('shlink', { links: many(30) });
    const dry = summaryOf(await importFrom(email, 'shlink', shlink, ['--dry-run']), 0);
    expect(dry).toMatchObject({ dryRun: true, imported: 30, skipped: 0, failed: 0 });
    expect(dry.rows).toHaveLength(30);
    expect(await exported(email)).toEqual([]);
    // Nothing was made, so the real run makes all of them.
    expect(summaryOf(await importFrom(email, 'shlink', shlink), 0)).toMatchObject({ dryRun: false, imported: 30 });
  });

  it('a source that dies part-way: exit 1, the summary of what came with SOURCE_UNREACHABLE; run again, the rest comes', async () => {
    const { email } = await account();
    const links = many(120);
    const shlink = await fake('shlink', { links, pageSize: 25, dieAfter: 2 });
    const broken = summaryOf(await importFrom(email, 'shlink', shlink), 1);
    expect(broken.error?.code).toBe('SOURCE_UNREACHABLE');
    expect(broken).toMatchObject({ imported: 50, failed: 0 });
    expect(await exported(email)).toHaveLength(50);

    shlink.revive();
    const rest = summaryOf(await importFrom(email, 'shlink', shlink), 0);
    expect(rest.error).toBeUndefined();
    expect(rest).toMatchObject({ imported: 70, skipped: 50, failed: 0 });
    const made = await exported(email);
    expect(made).toHaveLength(120);
    expect(new Set(made.map((l) => l.destination)).size).toBe(120);
  });

  it('a wrong key: exit 1, SOURCE_AUTH_FAILED, the key not echoed', async () => {
    const { email } = await account();
    const shlink = await fake('shlink', { links: many(3), key: 'another-key' });
    const result = await importFrom(email, 'shlink', shlink);
    const summary = summaryOf(result, 1);
    expect(summary).toMatchObject({ imported: 0, rows: [] });
    expect(summary.error?.code).toBe('SOURCE_AUTH_FAILED');
    expect(result.stdout).not.toContain(KEY);
    expect(await exported(email)).toEqual([]);
  });

  it('refuses command lines it cannot run: an unknown --from, no --source-key, a FILE with --from', async () => {
    const { email } = await account();
    const shlink = await fake('shlink', { links: many(2) });
    expect(refusal(await importFrom(email, 'nope', shlink)).code).toBe('INVALID_ARGUMENT');
    const noKey = await runCli(['links', 'import', '--email', email, '--from', 'shlink', '--source', shlink.base]);
    expect(refusal(noKey).code).toBe('MISSING_ARGUMENT');
    const both = await runCli(['links', 'import', '--email', email, path.join(dir, 'links.csv'), '--from', 'shlink', '--source', shlink.base, '--source-key', KEY]);
    expect(refusal(both).code).toBe('INVALID_ARGUMENT');
    expect(shlink.requests).toEqual([]);
    expect(await exported(email)).toEqual([]);
  });
});

describe('links import --from bitly next to a running server', { timeout: TEST_TIMEOUT }, () => {
  it('--source replaces Bitly’s public API; --with-clicks keeps each link’s clicks summary as its importedClicks', async () => {
    const { email, apiKey } = await account();
    const links: FakeLink[] = [
      { code: 'b1', url: 'https://example.com/b/1', clicks: 12 },
      { code: 'b2', url: 'https://example.com/b/2', clicks: 0 },
      { code: 'b3', url: 'https://example.com/b/3', clicks: 1234 },
    ];
    const bitly = await fake('bitly', { links });
    const summary = summaryOf(await importFrom(email, 'bitly', bitly, ['--with-clicks']), 0);
    expect(summary).toMatchObject({ from: 'bitly', imported: 3, failed: 0, clicks: 1246 });
    expect(summary.rows.map((r) => r.source)).toEqual(['https://bit.ly/b1', 'https://bit.ly/b2', 'https://bit.ly/b3']);
    // Each total came from the fake (the --source given), one clicks summary per link.
    expect(bitly.requests.filter((r) => /^\/v4\/bitlinks\/bit\.ly\/b\d\/clicks\/summary/.test(r))).toHaveLength(3);

    const server = await startServer({ DATA_DIR: env.DATA_DIR!, BASE_URL: env.BASE_URL! });
    try {
      const res = await request(server.url, { method: 'GET', path: '/api/v1/links?limit=100', headers: bearer(apiKey) });
      expect(res.status, res.body).toBe(200);
      const body = res.json() as { links?: Record<string, unknown>[]; data?: Record<string, unknown>[] };
      const list = body.links ?? body.data ?? [];
      const byFrom = Object.fromEntries(list.map((l) => [l.importedFrom, l.importedClicks]));
      expect(byFrom).toEqual({ 'https://bit.ly/b1': 12, 'https://bit.ly/b2': 0, 'https://bit.ly/b3': 1234 });
    } finally {
      await server.kill();
    }
  });
});
