#!/usr/bin/env node
// End-to-end smoke test of Snip AS SHIPPED: `npm start` exactly as the README says, the operator CLI exactly as
// the README says, both API descriptions, redirects, stats, QR, preview page, MCP, a stop as a process manager
// does it (SIGTERM to npm's pid only) and as a terminal does it (Ctrl-C: SIGINT to the process group), a restart
// on the same data, and a clean log. Runs on the embedded SQLite database, then again on PostgreSQL when one is
// reachable (SNIP_CI_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test).
//
// Run from the repo after `npm ci` (and `npm test`):  node .ci/smoke.mjs
// Plain Node ESM on purpose: it must not depend on the TypeScript toolchain it is checking.
// Exit 0 when every step passed, 1 otherwise. SNIP_SMOKE_KEEP=1 keeps the temporary directories (logs, data).

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HEALTH_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;
const CLI_TIMEOUT_MS = 60_000;
const CLICK_WAIT_MS = 5_000;
const PG_URL = process.env.SNIP_CI_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const EMAIL = 'smoke@example.com';
const OTHER_EMAIL = 'other@example.com';
// A real browser's User-Agent: bots are redirected but not counted, and the click count is what we check.
const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
// Settings that would make the server or the CLI deviate from what this test sets up.
const STRIPPED_ENV = ['PORT', 'BASE_URL', 'DATA_DIR', 'DATABASE_URL', 'REDIS_URL', 'LOG_LEVEL'];

// ---------------------------------------------------------------------------------------------------------------
// Output and failure handling

class SmokeFailure extends Error {}
const fail = (message) => {
  throw new SmokeFailure(message);
};
const check = (condition, message) => {
  if (!condition) fail(message);
};
const warnings = [];
const warn = (message) => {
  warnings.push(message);
  console.log(`WARNING: ${message}`);
};

/** Runs one step and prints `ok  - <step> (<ms>)`; a failure is printed as `not ok` and ends the run. */
async function step(name, fn) {
  const started = performance.now();
  try {
    const result = await fn();
    console.log(`ok  - ${name} (${Math.round(performance.now() - started)} ms)`);
    return result;
  } catch (error) {
    console.log(`not ok - ${name} (${Math.round(performance.now() - started)} ms)`);
    throw error;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** One line, at most `max` characters: bodies and outputs inside a failure message. */
const short = (text, max = 400) => {
  const line = String(text).replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max)}...` : line;
};
const tail = (file, lines = 40) => {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines - 1).join('\n').trimEnd();
  } catch {
    return '(no file)';
  }
};

// ---------------------------------------------------------------------------------------------------------------
// Processes

/** A free TCP port: the kernel picks one for a throwaway listener. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function baseEnv(extra) {
  const env = { ...process.env };
  for (const name of STRIPPED_ENV) delete env[name];
  // npm's update check asks the registry at exit; CI tests Snip, not the network.
  return { ...env, npm_config_update_notifier: 'false', ...extra };
}

/** The live (non-zombie) processes of a process group, as `ps` lines; empty when the group is gone. */
function groupMembers(pgid) {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    if (error.code === 'ESRCH') return [];
    if (error.code !== 'EPERM') throw error;
  }
  // kill(0) also succeeds for zombies nobody has reaped yet (PID 1 of a container may not reap orphans); those
  // are dead, so look at the state. ps has no portable "by process group" selector: filter the pgid column.
  const ps = spawnSync('ps', ['-eo', 'pid=,ppid=,pgid=,stat=,args='], { encoding: 'utf8' });
  if (ps.status !== 0) return [`(process group ${pgid} still exists; ps unavailable)`];
  return ps.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => {
      const [, , group, stat] = line.split(/\s+/);
      return Number(group) === pgid && stat && !stat.startsWith('Z');
    });
}

function killGroup(pgid, signal = 'SIGKILL') {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/** Every process group we started and have not seen end: killed on any failure or interruption. */
const liveGroups = new Set();

/** Runs the operator CLI as the README says: `npm run --silent cli -- <args>`. */
async function cli(env, args) {
  const child = spawn('npm', ['run', '--silent', 'cli', '--', ...args], {
    cwd: REPO,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own group, so a hung CLI (npm -> sh -> node) can be killed as a whole
  });
  liveGroups.add(child.pid);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  let hung = '';
  const timer = setTimeout(() => {
    // Which process of npm -> node (-> esbuild) did not finish, for the failure message.
    hung = groupMembers(child.pid).join('\n');
    killGroup(child.pid);
  }, CLI_TIMEOUT_MS);
  const [code, signal] = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c, s) => resolve([c, s]));
  });
  clearTimeout(timer);
  liveGroups.delete(child.pid);
  // npm on this machine warns about its own config ("npm warn Unknown user config ..."): not the CLI's output.
  const cliStderr = stderr
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('npm warn'))
    .join('\n');
  return { code, signal, stdout, stderr: hung ? `${cliStderr}\nstill running at the timeout:\n${hung}` : cliStderr, timedOut: hung !== '' };
}

const describeCli = (args, r) =>
  `\`cli ${args.join(' ')}\` exited ${r.code ?? r.signal}${r.timedOut ? ' (timed out)' : ''}\n` +
  `  stdout: ${short(r.stdout.trim()) || '(empty)'}\n  stderr: ${short(r.stderr.trim()) || '(empty)'}`;

/** The README's contract: exit 0 and exactly one JSON line on stdout. Returns the parsed line. */
async function cliJson(env, args) {
  const r = await cli(env, args);
  check(r.code === 0, describeCli(args, r));
  const lines = r.stdout.split('\n').filter((line) => line.trim());
  check(lines.length === 1, `expected exactly one JSON line on stdout, got ${lines.length}\n${describeCli(args, r)}`);
  let value;
  try {
    value = JSON.parse(lines[0]);
  } catch {
    fail(`stdout is not JSON\n${describeCli(args, r)}`);
  }
  reportCliStderr(args, r.stderr);
  return value;
}

/** Anything left on the CLI's stderr after a success: pino warnings are shown, errors fail. */
function reportCliStderr(args, stderr) {
  for (const line of stderr.split('\n').filter((l) => l.trim())) {
    let level = 0;
    try {
      level = JSON.parse(line).level ?? 0;
    } catch {
      // not a log line
    }
    if (level >= 50) fail(`\`cli ${args.join(' ')}\` succeeded but logged an error: ${short(line)}`);
    warn(`\`cli ${args.join(' ')}\` wrote to stderr: ${short(line)}`);
  }
}

/** The server started by `npm start`, with its logs in files and its own process group. */
class Server {
  constructor(flow, n) {
    this.flow = flow;
    this.n = n;
    this.outFile = path.join(flow.work, `server-${flow.label}-${n}.stdout.log`);
    this.errFile = path.join(flow.work, `server-${flow.label}-${n}.stderr.log`);
    this.exit = null; // {code, signal} of npm once it exited
  }

  start() {
    const out = fs.openSync(this.outFile, 'w');
    const err = fs.openSync(this.errFile, 'w');
    this.spawnedAt = performance.now();
    // detached: npm gets its own process group (and session), like a service under a process manager; the
    // logs go straight to files, so nothing of ours (a pipe) keeps the server alive or blocks it.
    this.child = spawn('npm', ['start'], { cwd: REPO, env: this.flow.env, stdio: ['ignore', out, err], detached: true });
    fs.closeSync(out);
    fs.closeSync(err);
    this.pgid = this.child.pid;
    liveGroups.add(this.pgid);
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => resolve((this.exit = { code, signal })));
      this.child.once('error', (error) => resolve((this.exit = { code: null, signal: null, error })));
    });
  }

  /** Polls GET /healthz every 100 ms; resolves with the milliseconds since spawn. */
  async waitHealthy() {
    const deadline = this.spawnedAt + HEALTH_TIMEOUT_MS;
    let last = 'no answer yet';
    while (performance.now() < deadline) {
      if (this.exit) {
        this.exitReported = true;
        fail(
          `the server (npm start) exited before GET /healthz answered 200: ` +
            `${this.exit.error ? this.exit.error.message : `code ${this.exit.code}, signal ${this.exit.signal}`}`,
        );
      }
      try {
        const res = await fetch(`${this.flow.origin}/healthz`, { signal: AbortSignal.timeout(2_000) });
        if (res.status === 200) return Math.round(performance.now() - this.spawnedAt);
        last = `HTTP ${res.status}: ${short(await res.text(), 200)}`;
      } catch (error) {
        last = error.cause?.code ?? error.message;
      }
      await sleep(100);
    }
    fail(`GET /healthz did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000} s (last: ${last})`);
  }

  /** Sends `signal` (to npm's pid, or with group: true to the whole group) and expects the group gone in 10 s. */
  async stop(signal, { group }) {
    this.stopSignal = signal;
    if (this.exit) fail(`npm start had already exited (code ${this.exit.code}, signal ${this.exit.signal}) before ${signal} was sent`);
    if (group) process.kill(-this.pgid, signal);
    else process.kill(this.child.pid, signal);
    const deadline = performance.now() + STOP_TIMEOUT_MS;
    let members = groupMembers(this.pgid);
    while (members.length && performance.now() < deadline) {
      await sleep(100);
      members = groupMembers(this.pgid);
    }
    if (members.length) {
      const how = group ? `${signal} to process group ${this.pgid}` : `${signal} to npm (pid ${this.child.pid}) only`;
      killGroup(this.pgid);
      liveGroups.delete(this.pgid);
      const npm = this.exit ? `npm itself exited (code ${this.exit.code}, signal ${this.exit.signal})` : 'npm is still running';
      fail(
        `after ${how}, processes of the server's group were still running ${STOP_TIMEOUT_MS / 1000} s later; ` +
          `${npm}. Still running (now killed with SIGKILL):\n    PID  PPID  PGID STAT COMMAND\n  ${members.join('\n  ')}`,
      );
    }
    liveGroups.delete(this.pgid);
    await Promise.race([this.exited, sleep(1_000)]);
    // Gone is not enough: the server must have seen the signal and drained (it logs the signal as it starts).
    // A node orphaned by npm and killed by someone else later would otherwise pass.
    if (!this.loggedSignal(signal)) {
      fail(
        `the server's group is gone, but the server never logged receiving ${signal} (no graceful shutdown: ` +
          `npm exited with code ${this.exit?.code}, signal ${this.exit?.signal}; the node process was not told)`,
      );
    }
  }

  loggedSignal(signal) {
    return fs.readFileSync(this.outFile, 'utf8').split('\n').some((line) => {
      try {
        return JSON.parse(line).signal === signal;
      } catch {
        return false;
      }
    });
  }

  logTail() {
    return `--- server stdout (${this.outFile}), last lines:\n${tail(this.outFile)}\n` +
      `--- server stderr (${this.errFile}), last lines:\n${tail(this.errFile)}`;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP

async function http(flow, method, urlPath, { key, json, headers = {}, ua } = {}) {
  const init = { method, redirect: 'manual', headers: { ...headers }, signal: AbortSignal.timeout(15_000) };
  if (key) init.headers.authorization = `Bearer ${key}`;
  if (ua) init.headers['user-agent'] = ua;
  if (json !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(json);
  }
  let res;
  try {
    res = await fetch(`${flow.origin}${urlPath}`, init);
  } catch (error) {
    fail(`${method} ${urlPath} got no answer: ${error.cause?.code ?? error.cause?.message ?? error.message}`);
  }
  const buffer = Buffer.from(await res.arrayBuffer());
  const text = buffer.toString('utf8');
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, buffer, text, body };
}

const describe = (method, urlPath, r) => `${method} ${urlPath} answered ${r.status}: ${short(r.text) || '(empty)'}`;

async function expectRedirect(flow, urlPath, destination) {
  const r = await http(flow, 'GET', urlPath, { ua: BROWSER_UA });
  check(r.status === 302, `expected 302 from GET ${urlPath}; ${describe('GET', urlPath, r)}`);
  const location = r.headers.get('location');
  check(location === destination, `GET ${urlPath}: Location is ${location}, expected ${destination}`);
}

/** Total clicks of a link (A's stats); clicks are recorded asynchronously, so wait up to 5 s for `atLeast`. */
async function waitClicks(flow, code, atLeast) {
  const deadline = performance.now() + CLICK_WAIT_MS;
  for (;;) {
    const urlPath = `/api/v1/links/${encodeURIComponent(code)}/stats`;
    const r = await http(flow, 'GET', urlPath, { key: flow.apiKey });
    check(r.status === 200, describe('GET', urlPath, r));
    check(Number.isInteger(r.body?.totalClicks), `no integer totalClicks in ${describe('GET', urlPath, r)}`);
    if (r.body.totalClicks >= atLeast) return r.body.totalClicks;
    if (performance.now() > deadline) {
      fail(`${urlPath}: totalClicks is ${r.body.totalClicks} after ${CLICK_WAIT_MS / 1000} s, expected at least ${atLeast}`);
    }
    await sleep(200);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The steps (one flow = one database: SQLite, then PostgreSQL)

async function startServer(flow, n) {
  const server = new Server(flow, n);
  flow.server = server;
  flow.servers.push(server);
  server.start();
  const ms = await server.waitHealthy();
  flow.starts.push(ms);
  return ms;
}

async function createAccount(flow) {
  const account = await cliJson(flow.env, ['users', 'create', '--email', EMAIL, '--tier', 'pro']);
  check(typeof account.apiKey === 'string' && account.apiKey.startsWith('snip_'), `no apiKey in ${JSON.stringify(account)}`);
  check(account.email === EMAIL && account.tier === 'pro', `unexpected account ${JSON.stringify(account)}`);
  flow.apiKey = account.apiKey;
  flow.namespace = account.namespace;
}

async function checkOpenApi(flow) {
  const r = await http(flow, 'GET', '/openapi.yaml');
  check(r.status === 200 && r.text.includes('/api/v1/links'), short(describe('GET', '/openapi.yaml', r), 300));
}

async function createLinkA(flow) {
  const url = 'https://example.com/a';
  const r = await http(flow, 'POST', '/api/v1/links', { key: flow.apiKey, json: { url } });
  check(r.status === 201, describe('POST', '/api/v1/links', r));
  const { shortCode, shortUrl } = r.body ?? {};
  check(/^[A-Za-z0-9]{6}$/.test(shortCode ?? ''), `no 6-character shortCode: ${short(r.text)}`);
  check(shortUrl === `${flow.baseUrl}/${shortCode}`, `shortUrl ${shortUrl} is not ${flow.baseUrl}/${shortCode}`);
  flow.links.a = { code: shortCode, path: `/${shortCode}`, url };
}

async function createLinksB(flow) {
  // POST /api/links: B calls the slug `shortUrl` and the clickable address `url`.
  const url = 'https://example.com/b';
  let r = await http(flow, 'POST', '/api/links', { key: flow.apiKey, json: { url } });
  check(r.status === 201, describe('POST', '/api/links', r));
  check(/^[A-Za-z0-9]{6}$/.test(r.body?.shortUrl ?? ''), `no slug in shortUrl: ${short(r.text)}`);
  check(r.body.url === `${flow.baseUrl}/${r.body.shortUrl}`, `url ${r.body.url} is not ${flow.baseUrl}/${r.body.shortUrl}`);
  flow.links.b = { code: r.body.shortUrl, path: `/${r.body.shortUrl}`, url };

  // POST /api/createShort: the destination in Base64.
  const url64 = 'https://example.com/b64';
  const long = Buffer.from(url64).toString('base64');
  r = await http(flow, 'POST', '/api/createShort', { key: flow.apiKey, json: { long } });
  check(r.status === 201, describe('POST', '/api/createShort', r));
  check(/^[A-Za-z0-9]{6}$/.test(r.body?.shortUrl ?? ''), `no slug in shortUrl: ${short(r.text)}`);
  check(r.body.url === `${flow.baseUrl}/${r.body.shortUrl}`, `url ${r.body.url} is not ${flow.baseUrl}/${r.body.shortUrl}`);
  flow.links.b64 = { code: r.body.shortUrl, path: `/${r.body.shortUrl}`, url: url64 };
}

async function followRedirects(flow) {
  for (const link of [flow.links.a, flow.links.b, flow.links.b64]) await expectRedirect(flow, link.path, link.url);
}

async function checkStats(flow) {
  flow.clicksA = await waitClicks(flow, flow.links.a.code, 1);
}

async function checkQr(flow) {
  const urlPath = `/api/qr/${flow.links.a.code}`;
  const r = await http(flow, 'GET', urlPath);
  check(r.status === 200, describe('GET', urlPath, r));
  check((r.headers.get('content-type') ?? '').startsWith('image/png'), `${urlPath}: content-type ${r.headers.get('content-type')}`);
  const magic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  check(r.buffer.subarray(0, 8).equals(magic), `${urlPath}: not a PNG (first bytes ${r.buffer.subarray(0, 8).toString('hex')})`);
}

async function checkPreview(flow) {
  const urlPath = `${flow.links.a.path}+`;
  const r = await http(flow, 'GET', urlPath, { ua: BROWSER_UA });
  check(r.status === 200, describe('GET', urlPath, r));
  check((r.headers.get('content-type') ?? '').startsWith('text/html'), `${urlPath}: content-type ${r.headers.get('content-type')}`);
  check(
    r.text.includes(flow.links.a.url) || r.text.includes(`${flow.baseUrl}${flow.links.a.path}`),
    `${urlPath}: the page names neither ${flow.links.a.url} nor the short URL: ${short(r.text)}`,
  );
}

/** The JSON-RPC answer with `id` from a JSON body or an SSE stream (`data:` lines). */
function jsonRpcAnswer(r, id) {
  if (r.body !== undefined) return [r.body].flat().find((m) => m?.id === id);
  const events = r.text.split(/\r?\n\r?\n/);
  for (const event of events) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (!data) continue;
    try {
      const message = [JSON.parse(data)].flat().find((m) => m?.id === id);
      if (message) return message;
    } catch {
      // not JSON: keep looking
    }
  }
  return undefined;
}

async function checkMcp(flow) {
  const r = await http(flow, 'POST', '/mcp', {
    key: flow.apiKey,
    json: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    headers: { accept: 'application/json, text/event-stream' },
  });
  check(r.status === 200, describe('POST', '/mcp', r));
  const answer = jsonRpcAnswer(r, 1);
  check(answer, `POST /mcp: no JSON-RPC answer with id 1: ${short(r.text)}`);
  check(!answer.error, `POST /mcp tools/list answered an error: ${JSON.stringify(answer.error)}`);
  const tools = answer.result?.tools;
  check(Array.isArray(tools) && tools.length > 0, `POST /mcp tools/list: no tools in ${short(JSON.stringify(answer))}`);
  return tools.length;
}

async function checkRootPage(flow) {
  const r = await http(flow, 'GET', '/', { ua: BROWSER_UA });
  const fine = r.status === 200 || (r.status >= 300 && r.status < 400 && r.headers.get('location'));
  if (fine) return;
  fail(`GET / should answer 200 or a redirect for a visitor; ${describe('GET', '/', r)}`);
}

/** The dashboard as shipped: its page, and every script and style it names, answered from dist/app. */
async function checkDashboard(flow) {
  const root = await http(flow, 'GET', '/', { ua: BROWSER_UA });
  check(root.status === 302 && root.headers.get('location') === '/app', `GET / should redirect to /app; ${describe('GET', '/', root)}`);
  const page = await http(flow, 'GET', '/app/links', { ua: BROWSER_UA });
  check(page.status === 200 && page.text.includes('<div id="root">'), `GET /app/links is not the dashboard: ${describe('GET', '/app/links', page)}`);
  const assets = [...page.text.matchAll(/(?:src|href)="(\/app\/assets\/[^"]+)"/g)].map((m) => m[1]);
  check(assets.length >= 2, `the dashboard page names no scripts or styles under /app/assets: ${short(page.text)}`);
  for (const asset of assets) {
    const r = await http(flow, 'GET', asset, { ua: BROWSER_UA });
    check(r.status === 200 && r.text.length > 100, `a dashboard asset is missing: ${describe('GET', asset, r)}`);
  }
  return assets.length;
}

/** Step 5: every CLI command the README lists, each exiting 0 with one JSON line (export to stdout: data). */
async function cliCommands(flow) {
  const { env } = flow;
  const tier = await cliJson(env, ['users', 'set-tier', '--email', EMAIL, '--tier', 'builder']);
  check(tier.tier === 'builder', `users set-tier answered ${JSON.stringify(tier)}`);
  const shown = await cliJson(env, ['users', 'show', '--email', EMAIL]);
  check(shown.email === EMAIL && shown.tier === 'builder', `users show answered ${short(JSON.stringify(shown))}`);

  const key = await cliJson(env, ['keys', 'create', '--email', EMAIL]);
  check(typeof key.apiKey === 'string' && key.apiKey.startsWith('snip_'), `keys create answered ${JSON.stringify(key)}`);
  let r = await http(flow, 'GET', '/api/v1/links', { key: key.apiKey });
  check(r.status === 200, `the key from \`keys create\` is refused: ${describe('GET', '/api/v1/links', r)}`);
  const revoked = await cliJson(env, ['keys', 'revoke', '--key', key.apiKey]);
  check(revoked.revoked === true, `keys revoke answered ${JSON.stringify(revoked)}`);
  r = await http(flow, 'GET', '/api/v1/links', { key: key.apiKey });
  check(r.status === 401, `a key revoked by the CLI still works on the running server: ${describe('GET', '/api/v1/links', r)}`);

  // Import: two rows, one with a custom slug (lands in the account's namespace), from an absolute path.
  const csv = path.join(flow.work, 'import.csv');
  fs.writeFileSync(csv, 'url,customSlug\nhttps://example.com/import-1,smoke-one\nhttps://example.com/import-2,\n');
  const imported = await cliJson(env, ['links', 'import', '--email', EMAIL, csv]);
  check(
    imported.imported === 2 && imported.failed === 0 && imported.total === 2,
    `links import answered ${short(JSON.stringify(imported))}`,
  );

  // Export as JSON lines to stdout: the data itself, no summary line.
  const args = ['links', 'export', '--email', EMAIL, '--format', 'jsonl'];
  const out = await cli(env, args);
  check(out.code === 0, describeCli(args, out));
  reportCliStderr(args, out.stderr);
  let rows;
  try {
    rows = out.stdout.split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line));
  } catch {
    fail(`links export --format jsonl: stdout is not JSON lines:\n${short(out.stdout, 1000)}`);
  }
  // A row names its destination in a field whose name is the export's business (url today); find it by value.
  const rowOf = (url) => rows.find((row) => Object.values(row).includes(url));
  const expected = [flow.links.a.url, flow.links.b.url, flow.links.b64.url, 'https://example.com/import-1', 'https://example.com/import-2'];
  for (const url of expected) check(rowOf(url), `links export has no row for ${url}:\n${short(out.stdout, 1000)}`);
  check(rows.length === expected.length, `links export has ${rows.length} rows, expected ${expected.length}`);
  const rowA = rowOf(flow.links.a.url);
  check(
    typeof rowA.shortUrl === 'string' && rowA.shortUrl.startsWith(`http://localhost:${flow.port}/`),
    `links export: the A link's shortUrl is ${rowA.shortUrl}, expected http://localhost:${flow.port}/... (PORT not honoured?)`,
  );
  const slugRow = rowOf('https://example.com/import-1');
  check(slugRow.fullPath, `links export: the imported custom slug has no fullPath: ${JSON.stringify(slugRow)}`);
  flow.links.imported = { code: slugRow.shortCode, path: `/${slugRow.fullPath}`, url: 'https://example.com/import-1' };
  await expectRedirect(flow, flow.links.imported.path, flow.links.imported.url);

  // Export to a file: one summary line, and the file is there.
  const file = path.join(flow.work, 'x.csv');
  const summary = await cliJson(env, ['links', 'export', '--email', EMAIL, '--output', file]);
  check(summary.exported === expected.length && summary.format === 'csv', `links export --output answered ${JSON.stringify(summary)}`);
  check(fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes('https://example.com/a'), `links export --output: ${file} lacks the links`);
}

async function newCliCommands(flow) {
  const { env } = flow;
  await cliJson(env, ['users', 'create', '--email', OTHER_EMAIL]);
  const listed = JSON.stringify(await cliJson(env, ['users', 'list']));
  check(listed.includes(EMAIL) && listed.includes(OTHER_EMAIL), `users list does not list both accounts: ${short(listed)}`);
  const keys = JSON.stringify(await cliJson(env, ['keys', 'list', '--email', EMAIL]));
  check(!keys.includes(flow.apiKey), `keys list prints a full API key: ${short(keys)}`);
  await cliJson(env, ['users', 'delete', '--email', OTHER_EMAIL, '--yes']);
  const r = await cli(env, ['users', 'show', '--email', OTHER_EMAIL]);
  check(r.code !== 0 && /NOT_FOUND/.test(r.stderr), `after users delete, users show still answers: ${describeCli(['users', 'show'], r)}`);
}

/** Step 7's check: the stats kept before the stop and every link still redirecting. */
async function checkNothingLost(flow) {
  await waitClicks(flow, flow.links.a.code, flow.clicksA);
  // The B link was clicked right before the stop, without waiting: the click had to be drained or journaled.
  await waitClicks(flow, flow.links.b.code, 1);
  for (const link of [flow.links.a, flow.links.b, flow.links.b64, flow.links.imported]) await expectRedirect(flow, link.path, link.url);
}

/** Step 8: pino JSON lines on stdout below error level, nothing but npm's own warnings on stderr, clean exits. */
function checkLogs(flow) {
  const problems = [];
  for (const server of flow.servers) {
    const name = `start ${server.n}`;
    for (const line of fs.readFileSync(server.outFile, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let entry;
      try {
        entry = JSON.parse(line);
      } catch {
        // npm's banner ("> snip@0.1.0 start", the command line) is expected; anything else is shown.
        if (!line.startsWith('> ')) warn(`${name}: a non-JSON line on stdout: ${short(line, 200)}`);
        continue;
      }
      if (entry.level >= 50) problems.push(`${name} stdout (level ${entry.level}): ${short(line, 1000)}`);
      else if (entry.level >= 40) warn(`${name}: the server logged a warning: ${short(line, 300)}`);
    }
    for (const line of fs.readFileSync(server.errFile, 'utf8').split('\n')) {
      if (line.trim() && !line.startsWith('npm warn')) problems.push(`${name} stderr: ${short(line, 1000)}`);
    }
    // Clean exit: npm ended with 0, or by (or with 128 + the number of) the signal it was sent; and the server
    // itself saw the signal (it logs it when it starts draining) rather than being cut off around it.
    const { code, signal } = server.exit ?? {};
    const signo = os.constants.signals[server.stopSignal];
    if (!(code === 0 || signal === server.stopSignal || code === 128 + signo)) {
      problems.push(`${name}: npm start ended with code ${code}, signal ${signal} after ${server.stopSignal}`);
    }
    if (!server.loggedSignal(server.stopSignal)) problems.push(`${name}: the server never logged receiving ${server.stopSignal} (no graceful shutdown)`);
  }
  if (problems.length) fail(`the server's logs show problems:\n  ${problems.join('\n  ')}`);
}

/** The whole flow on one database; resolves with the first and second start times. */
async function runFlow({ label, databaseUrl }) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `snip-smoke-${label}-`));
  const dataDir = path.join(work, 'data');
  fs.mkdirSync(dataDir);
  const port = await freePort();
  const flow = {
    label,
    work,
    port,
    origin: `http://127.0.0.1:${port}`,
    baseUrl: `http://localhost:${port}`, // BASE_URL's default, as the server builds short URLs
    env: baseEnv({ PORT: String(port), DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }),
    links: {},
    starts: [],
    servers: [],
    server: null,
  };
  currentFlow = flow;
  console.log(`== smoke test on ${label} (port ${port}, DATA_DIR ${dataDir}${databaseUrl ? `, ${databaseUrl}` : ''})`);
  const s = (name, fn) => step(`[${label}] ${name}`, fn);
  try {
    await s('npm start: first start until GET /healthz answers 200', () => startServer(flow, 1));
    await s('cli users create --tier pro', () => createAccount(flow));
    await s('GET /openapi.yaml', () => checkOpenApi(flow));
    await s('A: POST /api/v1/links', () => createLinkA(flow));
    await s('B: POST /api/links and POST /api/createShort', () => createLinksB(flow));
    await s('redirects (302 + Location) for all three links', () => followRedirects(flow));
    await s('A: stats count the click', () => checkStats(flow));
    await s('QR code PNG', () => checkQr(flow));
    await s('preview page /{code}+', () => checkPreview(flow));
    await s('MCP tools/list', () => checkMcp(flow));
    await s(`GET / is a page or a redirect`, () => checkRootPage(flow));
    await s(`the dashboard at /app and its assets`, () => checkDashboard(flow));
    await s('cli: set-tier, show, keys create/revoke, links import/export', () => cliCommands(flow));
    await s(`cli: users list, keys list, users delete`, () => newCliCommands(flow));
    // A click right before the stop, not waited for: the shutdown must keep it.
    await s('click the B link just before the stop', () => expectRedirect(flow, flow.links.b.path, flow.links.b.url));
    await s('SIGTERM to the npm pid only: whole process group gone within 10 s', () => flow.server.stop('SIGTERM', { group: false }));
    await s('npm start: second start on the same data until GET /healthz answers 200', () => startServer(flow, 2));
    await s('nothing lost: stats kept, links still redirect', () => checkNothingLost(flow));
    await s('Ctrl-C (SIGINT to the process group): whole group gone within 10 s', () => flow.server.stop('SIGINT', { group: true }));
    await s('server logs: no error, clean exits', () => checkLogs(flow));
    return { first: flow.starts[0], second: flow.starts[1] };
  } catch (error) {
    if (flow.server) {
      // A server that went away on its own (crash, or a signal from someone else) explains most odd failures.
      const { server } = flow;
      await Promise.race([server.exited, sleep(200)]);
      if (server.exit && !server.stopSignal && !server.exitReported && error instanceof Error) {
        const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'].filter((signal) => server.loggedSignal(signal));
        error.message +=
          `\n(the server stopped by itself during this step: npm exited with code ${server.exit.code}, signal ` +
          `${server.exit.signal}${signals.length ? `; it logged receiving ${signals.join(', ')}, which this script did not send` : ''})`;
      }
      killGroup(flow.server.pgid);
      liveGroups.delete(flow.server.pgid);
      // Printed after the failure message: every start's log (the failure may be about the first one).
      if (error instanceof Error) error.logTail = flow.servers.map((server) => server.logTail()).join('\n');
    }
    throw error;
  } finally {
    currentFlow = null;
    if (!process.env.SNIP_SMOKE_KEEP) fs.rmSync(work, { recursive: true, force: true });
    else console.log(`(kept ${work})`);
  }
}

let currentFlow = null;

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL: a fresh database per run, dropped at the end

async function withPostgres(fn) {
  let pg;
  try {
    pg = createRequire(path.join(REPO, 'package.json'))('pg');
  } catch (error) {
    fail(`cannot load the pg package from ${REPO}/node_modules: ${error.message}`);
  }
  const shown = PG_URL.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch (error) {
    console.log(`== SKIPPED: smoke test on PostgreSQL (not reachable at ${shown}: ${error.message})`);
    return null;
  }
  const name = `snip_smoke_${randomBytes(6).toString('hex')}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    return await fn(url.toString());
  } finally {
    try {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } catch {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`).catch((error) => warn(`could not drop ${name}: ${error.message}`));
    }
    await admin.end();
  }
}

// ---------------------------------------------------------------------------------------------------------------

function killEverything() {
  for (const pgid of liveGroups) killGroup(pgid);
  liveGroups.clear();
}

// Interrupted (Ctrl-C on the CI job, a timeout): the server runs in its own group and would outlive us.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    console.log(`\ninterrupted by ${signal}: stopping the server`);
    killEverything();
    if (currentFlow && !process.env.SNIP_SMOKE_KEEP) fs.rmSync(currentFlow.work, { recursive: true, force: true });
    process.exit(1);
  });
}

async function main() {
  const started = performance.now();
  const results = [];
  try {
    results.push(['SQLite', await runFlow({ label: 'sqlite' })]);
    const pgResult = await withPostgres((databaseUrl) => runFlow({ label: 'postgres', databaseUrl }));
    if (pgResult) results.push(['PostgreSQL', pgResult]);
  } catch (error) {
    killEverything();
    console.log(`\nFAILED: ${error instanceof SmokeFailure ? error.message : error.stack}`);
    if (error?.logTail) console.log(error.logTail);
    process.exit(1);
  }
  console.log('\n== smoke summary (time from spawning `npm start`, build included, until GET /healthz answered 200)');
  for (const [name, { first, second }] of results) console.log(`${name.padEnd(11)} first start ${first} ms, second start ${second} ms`);
  if (warnings.length) console.log(`${warnings.length} warning(s):\n  ${warnings.join('\n  ')}`);
  console.log(`all smoke steps passed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  process.exit(0);
}

await main();
