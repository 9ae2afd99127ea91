import http from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createCore } from '../../src/core.js';
import {
  bearer, killAll, readResponse, removeDir, request, spawnServer, startServer, tempDir,
  type HttpResponse, type RunResult, type ServerProcess,
} from '../helpers/processes.js';

/** The server as a real process: settings, health, persistence, graceful shutdown. SQLite in a temp DATA_DIR. */

const dirs: string[] = [];
function freshDir(): string {
  const dir = tempDir('snip-server-');
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await killAll();
  for (const dir of dirs) removeDir(dir);
});

/**
 * Opens the DATA_DIR in this process the way the CLI does (which also migrates it) and runs `work` on the core.
 * Used to make accounts before a server starts and to look at what a stopped server left behind.
 */
async function withCore<T>(dataDir: string, work: (core: Awaited<ReturnType<typeof createCore>>) => Promise<T>): Promise<T> {
  const log = pino({ level: 'silent' }) as FastifyBaseLogger;
  const core = await createCore(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), log);
  try {
    return await work(core);
  } finally {
    await core.close();
  }
}

const proKey = (dataDir: string, email: string) =>
  withCore(dataDir, async (core) => (await core.accounts.createAccount({ email, tier: 'pro' })).apiKey);

/** GET on `agent`, body read in full. */
function requestVia(agent: http.Agent, baseUrl: string, path: string): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL(path, baseUrl), { agent }, (res) => resolve(readResponse(res)));
    req.on('error', reject);
  });
}

interface InFlight {
  url: string;
  /** Resolves once the headers and the first half of the body are on the wire. */
  sent: Promise<void>;
  /** Sends the rest of the body. */
  finish(): void;
  response: Promise<HttpResponse>;
}

/**
 * Starts POST /api/v1/links and stops half-way through the body, so the request is surely in flight (the server
 * has routed it and waits for the rest) until `finish` is called. `agent: false` closes the connection after the
 * response, as `Connection: close` clients do.
 */
function startInFlight(server: ServerProcess, key: string, url: string, agent: http.Agent | false): InFlight {
  const payload = JSON.stringify({ url });
  const half = Math.floor(payload.length / 2);
  const req = http.request(new URL('/api/v1/links', server.url), {
    method: 'POST',
    agent,
    headers: { ...bearer(key), 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) },
  });
  const response = new Promise<HttpResponse>((resolve, reject) => {
    req.on('response', (res) => resolve(readResponse(res)));
    req.on('error', reject);
  });
  const sent = new Promise<void>((resolve) => {
    req.flushHeaders();
    req.write(payload.slice(0, half), () => resolve());
  });
  return { url, sent, finish: () => req.end(payload.slice(half)), response };
}

/** Waits until the server has logged "incoming request" for each of them (LOG_LEVEL=debug logs every request). */
async function untilServerHasThem(server: ServerProcess, flights: InFlight[]): Promise<void> {
  await Promise.all(flights.map((flight) => flight.sent));
  const routed = /^(?=.*"msg":"incoming request")(?=.*"method":"POST")(?=.*"url":"\/api\/v1\/links")/;
  await server.waitForOutput(routed, flights.length);
}

/**
 * A fresh DATA_DIR with a pro account for `email`, and a server on it that logs every request (LOG_LEVEL=debug),
 * as `untilServerHasThem` needs.
 */
async function startServerLoggingRequests(email: string): Promise<{ dataDir: string; key: string; server: ServerProcess }> {
  const dataDir = freshDir();
  const key = await proKey(dataDir, email);
  const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'debug' });
  return { dataDir, key, server };
}

/**
 * Sends the server SIGTERM once it has routed every one of `flights`, lets them finish after it says it is
 * draining, and answers their responses.
 */
async function sigtermWhileInFlight(server: ServerProcess, flights: InFlight[]): Promise<HttpResponse[]> {
  await untilServerHasThem(server, flights);
  server.child.kill('SIGTERM');
  await server.waitForOutput(/draining in-flight requests/);
  for (const flight of flights) flight.finish();
  return Promise.all(flights.map((flight) => flight.response));
}

/**
 * The exit of a server that was sent SIGTERM. If it is still running after a generous grace period (it needs
 * well under a second), it is killed, so a hang shows as a failed assertion on `signal` instead of a test timeout.
 */
async function exitOrKill(server: ServerProcess, graceMs = 8_000): Promise<RunResult> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), graceMs)));
  const first = await Promise.race([server.exited, guard]);
  clearTimeout(timer);
  if (first !== 'hung') return first;
  await server.kill();
  return server.exited;
}

describe.concurrent('server process', () => {
  describe.sequential('on one DATA_DIR, across a restart', () => {
    const dataDir = freshDir();
    let server: ServerProcess | undefined;
    let key = '';
    let code = '';
    afterAll(async () => {
      await server?.kill();
    });

    it('answers GET /healthz with 200 {status: "ok"}', async () => {
      key = await proKey(dataDir, 'persist@example.com');
      server = await startServer({ DATA_DIR: dataDir, BASE_URL: 'http://sho.rt' });
      const res = await request(server.url, { method: 'GET', path: '/healthz' });
      expect(res.status).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
    });

    it('builds short URLs from BASE_URL', async () => {
      if (!server) throw new Error('server did not start');
      const res = await request(server.url, {
        method: 'POST',
        path: '/api/v1/links',
        headers: bearer(key),
        body: { url: 'https://example.com/kept' },
      });
      expect(res.status, res.body).toBe(201);
      const body = res.json();
      code = body.shortCode as string;
      expect(code).toMatch(/^[A-Za-z0-9]{6}$/);
      expect(body.shortUrl).toBe(`http://sho.rt/${code}`);
      const details = await request(server.url, { method: 'GET', path: `/api/v1/links/${code}`, headers: bearer(key) });
      expect(details.status, details.body).toBe(200);
      expect(details.json()).toMatchObject({ shortUrl: `http://sho.rt/${code}` });
    });

    it('keeps links across a SIGTERM and a restart on the same DATA_DIR', async () => {
      if (!server || !code) throw new Error('no link was created');
      const stopped = await server.stop();
      expect(stopped.code, stopped.stderr).toBe(0);

      server = await startServer({ DATA_DIR: dataDir, BASE_URL: 'http://sho.rt' });
      const redirect = await request(server.url, { method: 'GET', path: `/${code}` });
      expect(redirect.status).toBe(302);
      expect(redirect.headers.location).toBe('https://example.com/kept');
      // The account and its key survived too.
      const details = await request(server.url, { method: 'GET', path: `/api/v1/links/${code}`, headers: bearer(key) });
      expect(details.status, details.body).toBe(200);
      expect(details.json()).toMatchObject({ long: 'https://example.com/kept' });

      const again = await server.stop();
      expect(again.code, again.stderr).toBe(0);
    });
  });

  it('on SIGTERM finishes the requests in flight, then exits 0', async () => {
    const { dataDir, key, server } = await startServerLoggingRequests('drain@example.com');
    // An idle keep-alive connection left over from an earlier request must not hold up the exit either.
    const idle = new http.Agent({ keepAlive: true });
    try {
      const warm = await requestVia(idle, server.url, '/healthz');
      expect(warm.status).toBe(200);

      const count = 8;
      const flights = Array.from({ length: count }, (_, i) => startInFlight(server, key, `https://example.com/in-flight/${i}`, false));
      const responses = await sigtermWhileInFlight(server, flights);
      for (const res of responses) {
        expect(res.status, res.body).toBe(201);
        expect(res.json()).toMatchObject({ success: true, shortCode: expect.stringMatching(/^[A-Za-z0-9]{6}$/) });
      }
      const exit = await exitOrKill(server);
      expect(exit.signal, 'the server had to be killed: it did not exit after SIGTERM').toBeNull();
      expect(exit.code, exit.stderr).toBe(0);

      // What the drained requests answered was really stored before the database closed.
      const stored = await withCore(dataDir, (core) => core.database.db.selectFrom('links').select('url').execute());
      expect(stored.map((row) => row.url).sort()).toEqual(flights.map((flight) => flight.url).sort());
    } finally {
      idle.destroy();
      await server.kill();
    }
  });

  it('on SIGTERM does not wait for keep-alive clients to hang up after their in-flight request is answered', async () => {
    const { key, server } = await startServerLoggingRequests('keepalive@example.com');
    // Browsers, SDKs and proxies keep connections open; a client like that must not keep Snip from stopping.
    const agent = new http.Agent({ keepAlive: true });
    try {
      const flights = Array.from({ length: 3 }, (_, i) => startInFlight(server, key, `https://example.com/kept-alive/${i}`, agent));
      for (const res of await sigtermWhileInFlight(server, flights)) expect(res.status, res.body).toBe(201);
      const exit = await exitOrKill(server);
      expect(exit.signal, 'still running with idle keep-alive connections open; had to be killed').toBeNull();
      expect(exit.code, exit.stderr).toBe(0);
    } finally {
      agent.destroy();
      await server.kill();
    }
  });

  it.each([
    ['PORT', 'abc'],
    ['BASE_URL', 'ftp://x'],
    ['DATABASE_URL', 'mysql://x'],
    ['TRUST_PROXY', 'maybe'],
    ['REDIRECT_STATUS', '200'],
  ])('refuses to start with %s=%s, naming the variable', async (name, value) => {
    const dataDir = freshDir();
    const server = spawnServer({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info', [name]: value });
    try {
      const result = await server.exited;
      expect(result.code).not.toBe(0);
      expect(result.code).not.toBeNull();
      expect(result.stderr).toContain(name);
      expect(result.stdout).not.toMatch(/listening/i);
    } finally {
      await server.kill();
    }
  });
});
