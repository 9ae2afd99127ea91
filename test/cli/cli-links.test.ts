import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importLinks, type ImportProgress } from '../../src/cli/links-import.js';
import { importItem, importProblems } from '../../src/links/import-columns.js';
import { dialectName, useTestApp } from '../helpers/app.js';
import {
  bearer, killAll, oneJsonLine, projectRoot, removeDir, request, runCli as spawnCli, runNpmCli as spawnNpmCli, startServer, tempDir,
  type RunResult, type ServerProcess,
} from '../helpers/processes.js';

/**
 * `links import` and `links export`, run as real processes on a temporary DATA_DIR. The tests run side by side,
 * but at most PARALLEL processes at a time: each CLI process starts a whole TypeScript toolchain.
 */

const PARALLEL = 3;
// A hang's safety net: side-by-side tests wait their turn for a process slot inside their own time, and on a loaded
// 2-CPU CI machine a CLI process takes seconds, so the last export test in line passed 120 s there.
const TEST_TIMEOUT = 300_000;
let running = 0;
const queue: (() => void)[] = [];
async function limited(start: () => Promise<RunResult>): Promise<RunResult> {
  if (running >= PARALLEL) await new Promise<void>((resolve) => queue.push(resolve));
  running += 1;
  try {
    return await start();
  } finally {
    running -= 1;
    queue.shift()?.();
  }
}
const runCli = (args: string[], env: Record<string, string>) => limited(() => spawnCli(args, env));
const runNpmCli = (args: string[], env: Record<string, string>, options: { cwd?: string } = {}) => limited(() => spawnNpmCli(args, env, options));

const dirs: string[] = [];
let env: Record<string, string>;
let files: string;

/** A future instant as the service stores it (whole days from the start of the test run, so it is stable). */
const startedAt = Math.floor(Date.now() / 1000) * 1000;
const future = (days: number) => new Date(startedAt + days * 86_400_000).toISOString();

function write(name: string, text: string): string {
  const file = path.join(files, name);
  fs.writeFileSync(file, text);
  return file;
}

function failure(result: RunResult): string {
  expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).not.toBe(0);
  expect(result.stdout).toBe('');
  const body = oneJsonLine(result.stderr);
  expect(body.code, String(body.message)).not.toBe('INTERNAL_ERROR');
  expect(body).toMatchObject({ error: true, code: expect.any(String), message: expect.any(String) });
  return body.code as string;
}

function success(result: RunResult): Record<string, unknown> {
  expect(result.code, `stderr: ${result.stderr}`).toBe(0);
  // Not a terminal, so no progress bar: stderr stays empty.
  expect(result.stderr).toBe('');
  return oneJsonLine(result.stdout);
}

let accounts = 0;
/** A fresh account (Pro unless told), so tests running side by side never share links. */
async function account(tier = 'pro'): Promise<string> {
  const email = `user${++accounts}-${tier}@example.com`;
  success(await runCli(['users', 'create', '--email', email, '--tier', tier], env));
  return email;
}

const importFile = async (email: string, file: string, extra: string[] = []) =>
  success(await runCli(['links', 'import', '--email', email, ...extra, file], env));

type Row = Record<string, string>;

/** `links export` to stdout as CSV, parsed. */
async function exportCsv(email: string): Promise<Row[]> {
  const result = await runCli(['links', 'export', '--email', email], env);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  return parse(result.stdout, { columns: true }) as Row[];
}

/** The columns of Snip's links file, written by the API's export and `links export` alike. */
const LINK_COLUMNS = [
  'shortCode', 'shortUrl', 'fullPath', 'destination', 'clicks', 'createdAt', 'expiresAt', 'maxClicks', 'activeFrom',
  'folderId', 'blockedCountries', 'domain',
];

/** The slug of an import row (customSlug) or of an exported link (fullPath's last part), else null. */
const slugOf = (r: Record<string, unknown>) => (r.customSlug as string) || (r.fullPath ? String(r.fullPath).split('/').pop()! : null);
/** Blocked countries as an import row or an export (CSV cell or JSON list) gives them. */
const countriesOf = (value: unknown) =>
  (Array.isArray(value) ? value : String(value ?? '').split(',')).filter(Boolean).map((c) => String(c).toUpperCase()).sort().join(',') || null;

/** What an import carries over, as comparable text, from import rows (url, customSlug) or exports (destination, fullPath). */
const settings = (rows: Record<string, unknown>[]) =>
  rows
    .map((r) =>
      JSON.stringify([
        r.url ?? r.destination,
        slugOf(r),
        r.expiresAt || null,
        r.maxClicks ? Number(r.maxClicks) : null,
        r.activeFrom || null,
        countriesOf(r.blockedCountries),
      ]),
    )
    .sort();

beforeAll(async () => {
  const dir = tempDir('snip-cli-links-');
  dirs.push(dir);
  env = { DATA_DIR: path.join(dir, 'data'), BASE_URL: 'http://sho.rt' };
  files = path.join(dir, 'files');
  fs.mkdirSync(files);
  // The first command creates and migrates the database; the tests then run side by side on it.
  await account();
}, TEST_TIMEOUT);

afterAll(async () => {
  await killAll();
  for (const dir of dirs) removeDir(dir);
});

describe.concurrent('links import', { timeout: TEST_TIMEOUT }, () => {
  it('imports a CSV with good and bad rows, reporting each failure by the physical line of its row', async () => {
    const email = await account();
    const csv = [
      'Notes,URL,maxClicks,customSlug,expiresAt,activeFrom', // 1: header, any case and order, unknown column
      'first,https://example.com/a,,,,', //                       2: ok
      '', //                                                      3: blank, skipped
      '"a note that',                                       //    4: one row over two lines
      'spans two lines",https://example.com/b,3,,,', //           5
      'x,ftp://example.com/c,,,,', //                             6: INVALID_URL
      'x,https://example.com/d,0,,,', //                          7: INVALID_MAX_CLICKS
      ',,,,,', //                                                 8: an empty row, skipped
      `x,https://example.com/e,,,2000-01-01T00:00:00Z,`, //      9: EXPIRES_AT_IN_PAST
      'x,https://example.com/f,,ab,,', //                        10: INVALID_SLUG
      'x,,,,,' + future(1), //                                   11: MISSING_URL
      'x,https://example.com/g,,good-slug,,', //                 12: ok
      'x,https://example.com/h,,good-slug,,', //                 13: SLUG_TAKEN (the row above has it)
      `x,https://example.com/i,,,${future(2)},${future(3)}`, //  14: EXPIRES_BEFORE_ACTIVE
      'x,https://example.com/j,abc,,,', //                       15: INVALID_MAX_CLICKS
    ].join('\r\n');
    const summary = await importFile(email, write('mixed.csv', `${csv}\r\n`));
    expect(summary).toMatchObject({ imported: 3, existing: 0, failed: 8, total: 11 });
    expect(summary.failuresTruncated).toBeUndefined();
    const failures = summary.failures as { line: number; code: string }[];
    expect(failures.map((f) => [f.line, f.code])).toEqual([
      [6, 'INVALID_URL'],
      [7, 'INVALID_MAX_CLICKS'],
      [9, 'EXPIRES_AT_IN_PAST'],
      [10, 'INVALID_SLUG'],
      [11, 'MISSING_URL'],
      [13, 'SLUG_TAKEN'],
      [14, 'EXPIRES_BEFORE_ACTIVE'],
      [15, 'INVALID_MAX_CLICKS'],
    ]);
    const links = await exportCsv(email);
    expect(links.map((l) => l.destination).sort()).toEqual(['https://example.com/a', 'https://example.com/b', 'https://example.com/g']);
    expect(links.find((l) => l.destination === 'https://example.com/b')).toMatchObject({ maxClicks: '3', fullPath: '' });
    expect(links.find((l) => l.destination === 'https://example.com/g')?.shortUrl).toMatch(/^http:\/\/sho\.rt\/[a-z0-9-]+\/good-slug$/);
  });

  it('fails each row whose value is no value of its field with the code the dashboard preview flags it with; nothing is dropped', async () => {
    const email = await account();
    const header = ['url', 'maxClicks', 'expiresAt', 'blockedCountries'];
    const rows = [
      ['https://example.com/ok', '5', '', 'de, fr'], //          2: ok
      ['https://example.com/half', '12.5', '', ''], //          3: INVALID_MAX_CLICKS
      ['https://example.com/word', 'abc', 'tomorrow', ''], //  4: INVALID_EXPIRES_AT first, as the schema checks it
      ['https://example.com/when', '', '31/12/2030', ''], //    5: INVALID_EXPIRES_AT
      ['https://example.com/where', '', '', 'DE;FR'], //        6: INVALID_BLOCKED_COUNTRIES
      ['', '3', '', ''], //                                      7: MISSING_URL
    ];
    const csv = [header, ...rows].map((cells) => cells.map((c) => (c.includes(',') ? `"${c}"` : c)).join(',')).join('\n');
    const summary = await importFile(email, write('values.csv', `${csv}\n`));
    expect(summary).toMatchObject({ imported: 1, failed: 5, total: 6 });
    const failures = summary.failures as { line: number; code: string; message: string }[];
    const expected = [
      [3, 'INVALID_MAX_CLICKS'],
      [4, 'INVALID_EXPIRES_AT'],
      [5, 'INVALID_EXPIRES_AT'],
      [6, 'INVALID_BLOCKED_COUNTRIES'],
      [7, 'MISSING_URL'],
    ];
    expect(failures.map((f) => [f.line, f.code])).toEqual(expected);
    for (const failure of failures) expect(failure.message, `line ${failure.line}`).not.toBe('');
    // The one import dialect flags exactly these rows, first with the code the links service answered.
    const flagged = rows
      .map((cells, i) => ({ line: i + 2, problems: importProblems(importItem(Object.fromEntries(header.map((h, j) => [h, cells[j]!])), true)) }))
      .filter((r) => r.problems.length > 0)
      .map((r) => [r.line, r.problems[0]!.code]);
    expect(flagged).toEqual(expected);
    const links = await exportCsv(email);
    expect(links.map((l) => [l.destination, l.maxClicks, l.blockedCountries])).toEqual([['https://example.com/ok', '5', 'DE,FR']]);
  });

  it('keeps quoted CSV fields with commas and quotes whole', async () => {
    const email = await account();
    const summary = await importFile(
      email,
      write('quoted.csv', 'url,customSlug\n"https://example.com/search?q=a,b,c&x=1",\n"https://example.com/say?""hi""",quoted-slug\n'),
    );
    expect(summary).toMatchObject({ imported: 2, failed: 0, total: 2 });
    const urls = (await exportCsv(email)).map((l) => l.destination).sort();
    expect(urls).toEqual(['https://example.com/say?%22hi%22', 'https://example.com/search?q=a,b,c&x=1']);
  });

  it('imports JSON lines: malformed lines and rule failures count as failures by line number, the rest imports', async () => {
    const email = await account();
    const lines = [
      JSON.stringify({ url: 'https://example.com/j1', maxClicks: 2, ignored: true }), // 1
      '', //                                                                            2
      '{"url": "https://example.com/j2", ', //                                         3: INVALID_JSON
      JSON.stringify({ url: 'https://example.com/j3', customSlug: 'json-slug', expiresAt: future(5) }), // 4
      '[1, 2]', //                                                                      5: INVALID_ITEM
      JSON.stringify({ url: 'not a url' }), //                                         6: INVALID_URL
      JSON.stringify({ url: 'https://example.com/j4', activeFrom: future(1), expiresAt: null }), // 7
    ];
    const summary = await importFile(email, write('links.jsonl', `${lines.join('\n')}\n`));
    expect(summary).toMatchObject({ imported: 3, existing: 0, failed: 3, total: 6 });
    expect((summary.failures as { line: number; code: string }[]).map((f) => [f.line, f.code])).toEqual([
      [3, 'INVALID_JSON'],
      [5, 'INVALID_ITEM'],
      [6, 'INVALID_URL'],
    ]);
    const links = await exportCsv(email);
    expect(links.find((l) => l.destination === 'https://example.com/j3')).toMatchObject({ fullPath: expect.stringMatching(/\/json-slug$/), expiresAt: future(5) });
  });

  it('sniffs the format of a file without a known extension or named .json; --format overrides it', async () => {
    const email = await account();
    const jsonl = write('links.txt', `${JSON.stringify({ url: 'https://example.com/sniff' })}\n`);
    expect(await importFile(email, jsonl)).toMatchObject({ imported: 1, total: 1 });
    const csv = write('links.data', 'url\nhttps://example.com/sniff-csv\n');
    expect(await importFile(email, csv)).toMatchObject({ imported: 1, total: 1 });
    const csvNamedJson = write('really-csv.json', 'url\nhttps://example.com/forced\n');
    expect(await importFile(email, csvNamedJson, ['--format', 'csv'])).toMatchObject({ imported: 1, total: 1 });
    // A JSON array of links is one document, its items numbered by position.
    const array = write('array.json', JSON.stringify([{ url: 'https://example.com/array' }, { url: 'nope' }], null, 2));
    expect(await importFile(email, array)).toMatchObject({ imported: 1, failed: 1, total: 2, failures: [{ line: 2, code: 'INVALID_URL' }] });
  });

  it('can be re-run safely: a second run creates nothing and answers existing; identical rows still make two links', async () => {
    const email = await account();
    const file = write(
      'rerun.csv',
      ['url,maxClicks', 'https://example.com/same,5', 'https://example.com/other,', 'https://example.com/same,5', 'bad-url,'].join('\n'),
    );
    const first = await importFile(email, file);
    expect(first).toMatchObject({ imported: 3, existing: 0, failed: 1, total: 4 });
    const second = await importFile(email, file);
    expect(second).toMatchObject({ imported: 0, existing: 3, failed: 1, total: 4 });
    expect(second.failures).toEqual(first.failures);
    const links = await exportCsv(email);
    expect(links).toHaveLength(3);
    expect(links.filter((l) => l.destination === 'https://example.com/same')).toHaveLength(2);

    // The same rows as JSON lines are the same rows: still nothing new. One more identical row makes one more link.
    const asJson = write(
      'rerun.jsonl',
      ['{"url":"https://example.com/same","maxClicks":5}', '{"url":"https://example.com/same","maxClicks":5}', '{"url":"https://example.com/same","maxClicks":5}'].join('\n'),
    );
    expect(await importFile(email, asJson)).toMatchObject({ imported: 1, existing: 2, failed: 0, total: 3 });
    expect(await exportCsv(email)).toHaveLength(4);
  });

  it('imports in chunks and caps the listed failures, keeping the counts exact', async () => {
    const email = await account();
    const rows = ['url'];
    for (let i = 0; i < 1200; i++) rows.push(i % 2 === 0 ? `https://example.com/many/${i}` : `nope-${i}`);
    const summary = await importFile(email, write('many.csv', rows.join('\n')));
    expect(summary).toMatchObject({ imported: 600, existing: 0, failed: 600, total: 1200, failures: expect.any(Array) });
    expect(summary.failuresTruncated).toBeUndefined();

    const bad = ['url', ...Array.from({ length: 1005 }, (_, i) => `bad-${i}`)];
    const capped = await importFile(email, write('bad.csv', bad.join('\n')));
    expect(capped).toMatchObject({ imported: 0, failed: 1005, total: 1005, failuresTruncated: true });
    const failures = capped.failures as { line: number }[];
    expect(failures).toHaveLength(1000);
    expect(failures[0]!.line).toBe(2);
    expect(failures[999]!.line).toBe(1001);
  });

  it('stops at broken CSV quoting, keeps the rows before it and says where it stopped', async () => {
    const email = await account();
    const summary = await importFile(email, write('broken.csv', 'url\nhttps://example.com/ok\n\n"https://example.com/open\nhttps://example.com/lost\n'));
    expect(summary).toMatchObject({ imported: 1, failed: 1, total: 2, incomplete: true });
    expect(summary.failures).toEqual([{ line: 4, code: 'INVALID_CSV', message: expect.stringContaining('not read past') }]);
  });

  it('fails cleanly for an unknown account, a missing file, a CSV without a url column and a missing FILE', async () => {
    const email = await account();
    const good = write('good.csv', 'url\nhttps://example.com/x\n');
    const [nobody, missing, noUrl, noFile, badFormat] = await Promise.all([
      runCli(['links', 'import', '--email', 'nobody@example.com', good], env),
      runCli(['links', 'import', '--email', email, path.join(files, 'missing.csv')], env),
      runCli(['links', 'import', '--email', email, write('no-url.csv', 'link,slug\nhttps://example.com/x,abc\n')], env),
      runCli(['links', 'import', '--email', email], env),
      runCli(['links', 'import', '--email', email, '--format', 'xml', good], env),
    ]);
    expect(failure(nobody)).toBe('ACCOUNT_NOT_FOUND');
    expect(failure(missing)).toBe('FILE_UNREADABLE');
    expect(failure(noUrl)).toBe('INVALID_FILE');
    expect(failure(noFile)).toBe('MISSING_ARGUMENT');
    expect(failure(badFormat)).toBe('INVALID_FORMAT');
    expect(await exportCsv(email)).toEqual([]);
  });

  it('does not charge the daily link limit: a free account imports more than its 25 links a day', async () => {
    const email = await account('free');
    const rows = ['url', ...Array.from({ length: 40 }, (_, i) => `https://example.com/free/${i}`)];
    expect(await importFile(email, write('free.csv', rows.join('\n')))).toMatchObject({ imported: 40, failed: 0 });
  });
});

describe.concurrent('links export', { timeout: TEST_TIMEOUT }, () => {
  /** An account with links of every kind, made through the import. */
  async function seeded(): Promise<{ email: string; rows: Record<string, unknown>[] }> {
    const email = await account();
    const rows = [
      { url: 'https://example.com/plain' },
      { url: 'https://example.com/with,comma?x=1,2' },
      { url: 'https://example.com/slugged', customSlug: 'my-link' },
      { url: 'https://example.com/capped', maxClicks: 7 },
      { url: 'https://example.com/scheduled', activeFrom: future(1), expiresAt: future(30) },
      { url: 'https://example.com/blocked', blockedCountries: ['us', 'GB'] },
      { url: 'https://example.com/plain' },
    ];
    const summary = await importFile(email, write(`${email}.jsonl`, rows.map((r) => JSON.stringify(r)).join('\n')));
    expect(summary).toMatchObject({ imported: rows.length, failed: 0 });
    return { email, rows };
  }

  it("writes the API's CSV to stdout with no summary line, and the export imports into another account unchanged", async () => {
    const { email, rows } = await seeded();
    const result = await runNpmCli(['links', 'export', '--email', email], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n')[0]).toBe(LINK_COLUMNS.join(','));
    const exported = parse(result.stdout, { columns: true }) as Row[];
    expect(exported).toHaveLength(rows.length);
    expect(settings(exported)).toEqual(settings(rows));
    // Newest first, each with its short link and counts.
    const created = exported.map((r) => r.createdAt!);
    expect([...created].sort().reverse()).toEqual(created);
    const slugged = exported.find((r) => r.destination === 'https://example.com/slugged')!;
    expect(slugged.fullPath).toMatch(/^[a-z0-9-]+\/my-link$/);
    expect(slugged.shortUrl).toBe(`http://sho.rt/${slugged.fullPath}`);
    const plain = exported.find((r) => r.destination === 'https://example.com/plain')!;
    expect(plain).toMatchObject({ shortUrl: `http://sho.rt/${plain.shortCode}`, fullPath: '', clicks: '0' });
    expect(exported.find((r) => r.destination === 'https://example.com/blocked')).toMatchObject({ blockedCountries: 'GB,US' });

    const other = await account();
    const file = write(`${email}-export.csv`, result.stdout);
    expect(await importFile(other, file)).toMatchObject({ imported: rows.length, existing: 0, failed: 0, total: rows.length });
    expect(settings(await exportCsv(other))).toEqual(settings(exported));
  });

  it('writes JSON lines or a JSON document to --output and prints one summary line; each imports into another account unchanged', async () => {
    const { email, rows } = await seeded();
    const output = path.join(files, `${email}-export.jsonl`);
    const summary = success(await runCli(['links', 'export', '--email', email, '--format', 'jsonl', '--output', output], env));
    expect(summary).toEqual({ exported: rows.length, format: 'jsonl', output });
    const lines = fs.readFileSync(output, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(rows.length);
    expect(Object.keys(lines[0]!)).toEqual(LINK_COLUMNS);
    expect(lines.find((l) => l.destination === 'https://example.com/capped')).toMatchObject({ maxClicks: 7, fullPath: null, clicks: 0 });
    expect(fs.readdirSync(files).filter((name) => name.startsWith(`.${email}-export`) && name.endsWith('.tmp'))).toEqual([]);

    // The format follows --output's extension when --format is not given: .json is the API's JSON document.
    const jsonOut = path.join(files, `${email}-export.json`);
    const csvOut = path.join(files, `${email}-export.csv`);
    const [asJson, asCsv] = await Promise.all([
      runCli(['links', 'export', '--email', email, '--output', jsonOut], env),
      runCli(['links', 'export', '--email', email, '--output', csvOut], env),
    ]);
    expect(success(asJson)).toEqual({ exported: rows.length, format: 'json', output: jsonOut });
    expect(success(asCsv)).toEqual({ exported: rows.length, format: 'csv', output: csvOut });
    const document = JSON.parse(fs.readFileSync(jsonOut, 'utf8')) as { links: Record<string, unknown>[] };
    expect(document.links).toEqual(lines);
    expect(settings(parse(fs.readFileSync(csvOut, 'utf8'), { columns: true }) as Row[])).toEqual(settings(rows));

    const [fromLines, fromDocument] = [await account(), await account()];
    const [linesSummary, documentSummary] = await Promise.all([importFile(fromLines, output), importFile(fromDocument, jsonOut)]);
    expect(linesSummary).toMatchObject({ imported: rows.length, failed: 0 });
    expect(documentSummary).toMatchObject({ imported: rows.length, failed: 0 });
    expect(settings(await exportCsv(fromLines))).toEqual(settings(rows));
    expect(settings(await exportCsv(fromDocument))).toEqual(settings(rows));
  });

  it('exports an account without links as a header only (CSV), an empty list (JSON) or nothing (JSON lines)', async () => {
    const email = await account();
    const [csv, json, jsonl] = await Promise.all(
      ['csv', 'json', 'jsonl'].map((format) => runCli(['links', 'export', '--email', email, '--format', format], env)),
    );
    expect(csv).toMatchObject({ code: 0, stdout: `${LINK_COLUMNS.join(',')}\n`, stderr: '' });
    expect(json).toMatchObject({ code: 0, stdout: '{"links":[]}', stderr: '' });
    expect(jsonl).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('fails cleanly for an unknown account (nothing on stdout, no file), a bad --format and an --output it cannot write', async () => {
    const email = await account();
    const output = path.join(files, 'never.csv');
    const xlsx = path.join(files, 'links.xlsx');
    const [toStdout, toFile, badFormat, spreadsheet, forced] = await Promise.all([
      runCli(['links', 'export', '--email', 'nobody@example.com'], env),
      runCli(['links', 'export', '--email', 'nobody@example.com', '--output', output], env),
      runCli(['links', 'export', '--email', email, '--format', 'xlsx'], env),
      runCli(['links', 'export', '--email', email, '--output', xlsx], env),
      runCli(['links', 'export', '--email', email, '--format', 'csv', '--output', path.join(files, 'forced.xlsx')], env),
    ]);
    expect(failure(toStdout)).toBe('ACCOUNT_NOT_FOUND');
    expect(failure(toFile)).toBe('ACCOUNT_NOT_FOUND');
    expect(fs.existsSync(output)).toBe(false);
    expect(failure(badFormat)).toBe('INVALID_FORMAT');
    // An extension that names no format Snip writes is refused, not filled with CSV; --format says what to write.
    expect(failure(spreadsheet)).toBe('UNSUPPORTED_FORMAT');
    expect(oneJsonLine(spreadsheet.stderr).message).toContain('.xlsx');
    expect(fs.existsSync(xlsx)).toBe(false);
    expect(success(forced)).toMatchObject({ exported: 0, format: 'csv' });
  });

  it('reads FILE and writes --output relative to the directory the command was typed in, not the package root', async () => {
    const email = await account();
    const here = tempDir('snip-cli-cwd-');
    dirs.push(here);
    fs.writeFileSync(path.join(here, 'mine.csv'), 'url\nhttps://example.com/relative\n');
    const imported = await runNpmCli(['links', 'import', '--email', email, 'mine.csv'], env, { cwd: here });
    expect(success(imported)).toMatchObject({ imported: 1, failed: 0 });
    const exported = await runNpmCli(['links', 'export', '--email', email, '--output', 'out.csv'], env, { cwd: here });
    expect(success(exported)).toEqual({ exported: 1, format: 'csv', output: path.join(here, 'out.csv') });
    expect(parse(fs.readFileSync(path.join(here, 'out.csv'), 'utf8'), { columns: true })).toMatchObject([{ destination: 'https://example.com/relative' }]);
    expect(fs.existsSync(path.join(projectRoot, 'out.csv'))).toBe(false);
  });
});

describe('links export next to a running server', { timeout: TEST_TIMEOUT }, () => {
  let server: ServerProcess;
  /** The server's settings as an operator gives them to both: no BASE_URL, so short URLs come from PORT. */
  let serverEnv: Record<string, string>;

  beforeAll(async () => {
    server = await startServer({ DATA_DIR: env.DATA_DIR! });
    serverEnv = { DATA_DIR: env.DATA_DIR!, PORT: String(server.port) };
  }, TEST_TIMEOUT);
  afterAll(async () => {
    await server?.kill();
  });

  const apiExport = async (key: string, format: string) => {
    const res = await request(server.url, { method: 'GET', path: `/api/v1/export/links?format=${format}`, headers: bearer(key) });
    expect(res.status, res.body).toBe(200);
    return res.body;
  };

  it("writes the server's own file, short URLs included; the API's CSV and JSON import with the CLI", async () => {
    const created = success(await runCli(['users', 'create', '--email', 'server-side@example.com', '--tier', 'pro'], serverEnv));
    const email = created.email as string;
    const rows = [
      { url: 'https://example.com/one' },
      { url: 'https://example.com/a,b?x=1,2', customSlug: 'server-slug', maxClicks: 3, blockedCountries: ['FR'] },
      { url: 'https://example.com/later', activeFrom: future(2), expiresAt: future(9) },
    ];
    expect(await importFile(email, write('server-side.jsonl', rows.map((r) => JSON.stringify(r)).join('\n')))).toMatchObject({ imported: 3 });

    const [apiCsv, apiJson, cliCsv, cliJson] = await Promise.all([
      apiExport(created.apiKey as string, 'csv'),
      apiExport(created.apiKey as string, 'json'),
      runCli(['links', 'export', '--email', email], serverEnv),
      runCli(['links', 'export', '--email', email, '--format', 'json'], serverEnv),
    ]);
    // One file, one presenter: the CLI, given the server's PORT, writes byte for byte what the API answers.
    expect(cliCsv.stdout).toBe(apiCsv);
    expect(cliJson.stdout).toBe(apiJson);
    const links = (JSON.parse(apiJson) as { links: Record<string, unknown>[] }).links;
    for (const link of links) expect(link.shortUrl).toBe(`http://localhost:${server.port}/${(link.fullPath as string | null) ?? (link.shortCode as string)}`);

    const [fromCsv, fromJson] = [await account(), await account()];
    const [csvSummary, jsonSummary] = await Promise.all([
      importFile(fromCsv, write('api-export.csv', apiCsv)),
      importFile(fromJson, write('api-export.json', apiJson)),
    ]);
    expect(csvSummary).toMatchObject({ imported: 3, failed: 0 });
    expect(jsonSummary).toMatchObject({ imported: 3, failed: 0 });
    expect(settings(await exportCsv(fromCsv))).toEqual(settings(rows));
    expect(settings(await exportCsv(fromJson))).toEqual(settings(rows));
  });
});

describe(`links import progress (in process, ${dialectName})`, { timeout: TEST_TIMEOUT }, () => {
  const t = useTestApp();

  it('counts the rows the links service has answered: never ahead, never back, 100% only once every row is in', async () => {
    const user = await t.createUser('pro');
    const rows = Array.from({ length: 3000 }, (_, i) => `https://example.com/progress/${i}`);
    const file = write('progress.csv', `url\n${rows.join('\n')}\n`);
    const size = fs.statSync(file).size;
    const updates: ImportProgress[] = [];
    const summary = await importLinks(t.core, { email: user.email, file, onProgress: (p) => updates.push({ ...p }) });
    expect(summary).toMatchObject({ imported: 3000, failed: 0, total: 3000 });

    // One update at the start, one per chunk of 500 rows, one at the end.
    expect(updates.map((u) => u.rows)).toEqual([0, 500, 1000, 1500, 2000, 2500, 3000, 3000]);
    expect(updates.every((u) => u.total === size)).toBe(true);
    for (const [i, u] of updates.entries()) expect(u.done).toBeGreaterThanOrEqual(i === 0 ? 0 : updates[i - 1]!.done);
    expect(updates.at(-1)).toEqual({ done: size, total: size, rows: 3000, failed: 0 });
    expect(updates.slice(0, -1).every((u) => u.done < size)).toBe(true);
    // The bar moves with the rows: halfway through the rows is about halfway through the file (not read-ahead).
    expect(updates.find((u) => u.rows === 1500)!.done / size).toBeCloseTo(0.5, 1);
    expect(updates.find((u) => u.rows === 2500)!.done / size).toBeLessThan(0.85);
  });
});
