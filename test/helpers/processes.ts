import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Real processes for the CLI and server tests: the server and the CLI run as child processes on a temporary
 * DATA_DIR, and the tests talk to them over HTTP, stdout, stderr and exit codes only.
 */
export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * The program as shipped: `node dist/...` (built before the tests by test/global-setup.ts), the way `npm start` and
 * `npm run cli` run it. Not tsx: its loader hooks run on a worker thread, and a short-lived process under them
 * sometimes printed its output and then never exited (Node 24, loaded machine).
 */
const shipped = (file: string, args: string[] = []): [string, string[]] => [process.execPath, ['--enable-source-maps', path.join('dist', file), ...args]];

/** Every child started here, so a failing test cannot leave one behind. */
const started = new Set<ChildProcess>();

export function tempDir(prefix = 'snip-proc-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** A port nobody listens on right now (the kernel picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('no port'));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}

/** The environment of a child: the test's own, minus settings that would leak in, plus `env`. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  // INIT_CWD too: the test runner's own npm set it, and the CLI reads relative paths from it.
  for (const name of ['PORT', 'HOST', 'BASE_URL', 'DATA_DIR', 'DATABASE_URL', 'TRUST_PROXY', 'REDIRECT_STATUS', 'LOG_LEVEL', 'NODE_OPTIONS', 'INIT_CWD']) {
    delete base[name];
  }
  return { ...base, ...env };
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function collect(child: ChildProcess): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      started.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

function track(child: ChildProcess): ChildProcess {
  started.add(child);
  child.on('exit', () => started.delete(child));
  return child;
}

/** `node dist/cli/main.js ...args` from the project root (see `shipped`), with `input` on its stdin when given. */
export function runCli(args: string[], env: Record<string, string>, input?: string): Promise<RunResult> {
  const [command, argv] = shipped('cli/main.js', args);
  const child = track(spawn(command, argv, { cwd: projectRoot, env: childEnv(env), stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] }));
  child.stdin?.end(input);
  return collect(child);
}

/**
 * `npm run --silent cli -- ...args`, exactly as the README tells an operator to run it: from the project root, or
 * with `cwd` from that directory as `npm --prefix <project root> run --silent cli -- ...args`.
 */
export function runNpmCli(args: string[], env: Record<string, string>, options: { cwd?: string } = {}): Promise<RunResult> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const prefix = options.cwd ? ['--prefix', projectRoot] : [];
  const child = track(
    spawn(npm, [...prefix, 'run', '--silent', 'cli', '--', ...args], { cwd: options.cwd ?? projectRoot, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  return collect(child);
}

/** The one line a CLI command prints, parsed; fails when there is not exactly one. */
export function oneJsonLine(text: string): Record<string, unknown> {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length !== 1) throw new Error(`expected exactly one line, got ${lines.length}: ${JSON.stringify(text)}`);
  const parsed: unknown = JSON.parse(lines[0]!);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`not a JSON object: ${lines[0]}`);
  return parsed as Record<string, unknown>;
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Everything the server printed so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once the process has exited. */
  exited: Promise<RunResult>;
  /** Resolves when stdout has `count` lines matching `pattern`. */
  waitForOutput(pattern: RegExp, count?: number): Promise<void>;
  /** Sends SIGTERM and waits for the exit. */
  stop(): Promise<RunResult>;
  /** SIGKILL, for clean-up; a no-op once the process has exited. */
  kill(): Promise<void>;
}

/**
 * Spawns `node dist/main.js` (what `npm start` execs), so a signal sent to the child reaches Snip itself rather
 * than a wrapper. Does not wait for readiness; see `startServer`. With `processGroup` the child leads a process group
 * of its own, so a test can signal the whole group (`process.kill(-child.pid, ...)`) as systemd or a terminal does.
 */
export function spawnServer(env: Record<string, string>, options: { processGroup?: boolean } = {}): ServerProcess {
  const port = Number(env.PORT ?? 0);
  const [command, argv] = shipped('main.js');
  const child = track(spawn(command, argv, { cwd: projectRoot, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached: options.processGroup === true }));
  let out = '';
  let err = '';
  const waiters: Array<() => void> = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const wake of [...waiters]) wake();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<RunResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      started.delete(child);
      for (const wake of [...waiters]) wake();
      resolve({ code, signal, stdout: out, stderr: err });
    });
  });
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForOutput(pattern, count = 1) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const seen = out.split('\n').filter((line) => pattern.test(line)).length;
          if (seen >= count) {
            waiters.splice(waiters.indexOf(check), 1);
            resolve();
          } else if (hasExited()) {
            waiters.splice(waiters.indexOf(check), 1);
            reject(new Error(`server exited before printing ${count} x ${pattern}; stdout:\n${out}\nstderr:\n${err}`));
          }
        };
        waiters.push(check);
        check();
      });
    },
    async stop() {
      if (!hasExited()) child.kill('SIGTERM');
      return exited;
    },
    async kill() {
      if (!hasExited()) child.kill('SIGKILL');
      await exited.catch(() => undefined);
    },
  };
}

/** Starts the server on a free port and waits until GET /healthz answers 200. */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const server = spawnServer({ HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env, PORT: String(port) });
  // Generous: on a loaded two-core CI machine a start can take far longer than on a quiet one.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      const result = await server.exited;
      throw new Error(`server exited with ${result.code ?? result.signal} before it was ready:\n${result.stderr}`);
    }
    try {
      const res = await request(server.url, { method: 'GET', path: '/healthz' });
      if (res.status === 200) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.kill();
      throw new Error(`server did not become ready:\n${server.stdout()}\n${server.stderr()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Kills every child this module started that is still running. */
export async function killAll(): Promise<void> {
  const running = [...started];
  await Promise.all(
    running.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('close', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json(): Record<string, unknown>;
}

export interface RequestOptions {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/** One HTTP request on a fresh connection (no keep-alive), answered in full. */
export function request(baseUrl: string, options: RequestOptions): Promise<HttpResponse> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const url = new URL(options.path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: options.method,
        agent: false,
        headers: {
          connection: 'close',
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }),
          ...options.headers,
        },
      },
      (res) => resolve(readResponse(res)),
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Reads a response's body in full. */
export function readResponse(res: http.IncomingMessage): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    let body = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (body += chunk));
    res.on('end', () => resolve(toResponse(res, body)));
    res.on('error', reject);
  });
}

function toResponse(res: http.IncomingMessage, body: string): HttpResponse {
  return {
    status: res.statusCode ?? 0,
    headers: res.headers,
    body,
    json() {
      const parsed: unknown = JSON.parse(body);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`not a JSON object: ${body}`);
      return parsed as Record<string, unknown>;
    },
  };
}

/** A bearer header for an API key. */
export const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });
