import net, { type AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { dialectName, useTestApp } from '../helpers/app.js';
import { BROWSER_UA } from '../helpers/user-agents.js';

/**
 * Attack: slow and idle clients hold the server. A body sent one byte every 10 s kept its connection for over 330 s
 * (the redirect fast path's server copied Fastify's `requestTimeout = 0` over Node's default), and 1,000 idle TCP
 * connections were never closed. Now every connection is bounded (src/http/server.ts): its headers within
 * HEADERS_TIMEOUT, its whole request within REQUEST_TIMEOUT, idle between requests for IDLE_TIMEOUT, and at most
 * MAX_CONNECTIONS at once; a client that stops reading an answer is closed too, one that keeps reading is not.
 * Real sockets against a listening server, with small settings; every bound below is generous.
 */
const LIMITS = { HEADERS_TIMEOUT: '1', REQUEST_TIMEOUT: '2', IDLE_TIMEOUT: '1', MAX_CONNECTIONS: '20' };
/** Longest a bounded connection may stay: its deadline, Node's checking interval or keep-alive margin, and slack for a loaded machine. */
const CLOSED_WITHIN_MS = 8_000;
const HOST = 'snip.test';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client connection, with what it received and when it was closed. */
interface Client {
  socket: net.Socket;
  received(): string;
  /** Resolves with the milliseconds from connecting to the close; rejects if still open after `CLOSED_WITHIN_MS`. */
  closed: Promise<number>;
}

function connect(port: number): Promise<Client> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    const start = Date.now();
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    // A refused connection may be reset rather than ended; either way it is closed.
    socket.on('error', () => undefined);
    const closed = new Promise<number>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`still open after ${CLOSED_WITHIN_MS} ms; received ${JSON.stringify(text.slice(0, 200))}`)), CLOSED_WITHIN_MS);
      socket.on('close', () => {
        clearTimeout(timer);
        done(Date.now() - start);
      });
    });
    closed.catch(() => undefined);
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

/** Writes `text` one byte every `everyMs` until the socket closes or the text is all sent. */
async function trickle(socket: net.Socket, text: string, everyMs = 500): Promise<void> {
  for (const byte of text) {
    if (socket.destroyed || socket.writableEnded) return;
    socket.write(byte);
    await sleep(everyMs);
  }
}

/** Waits until the client has received the head of an answer. */
const answered = (client: Client) => vi.waitFor(() => expect(client.received()).toContain('\r\n\r\n'), { timeout: 5_000, interval: 20 });
const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
const bodyOf = (text: string) => text.slice(text.indexOf('\r\n\r\n') + 4);
/** The body of a chunked answer (an export is streamed a page at a time) without its chunk framing; latin1 text. */
function unchunked(text: string): string {
  const head = text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase();
  let rest = bodyOf(text);
  if (!head.includes('transfer-encoding: chunked')) return rest;
  let body = '';
  for (;;) {
    const line = rest.indexOf('\r\n');
    const length = parseInt(rest.slice(0, line), 16);
    if (!(length > 0)) return body;
    body += rest.slice(line + 2, line + 2 + length);
    rest = rest.slice(line + 2 + length + 2);
  }
}

describe(`slow and idle clients (${dialectName})`, () => {
  const t = useTestApp(LIMITS);
  const owner = t.user('pro');
  let port: number;
  let code: string;
  const auth = () => `Authorization: Bearer ${owner.apiKey}\r\n`;
  const openConnections = () => new Promise<number>((resolve, reject) => t.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    const created = await t.as(owner, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/slow' } });
    expect(created.statusCode, created.body).toBe(201);
    code = created.json<{ shortCode: string }>().shortCode;
    // The new link's trust scan drops it from the redirect cache when it ends; the first visit then caches it, and
    // later ones take the fast path.
    await t.core.trust.settle();
    const first = await connect(port);
    first.socket.write(`GET /${code} HTTP/1.1\r\nHost: ${HOST}\r\nUser-Agent: ${BROWSER_UA}\r\nConnection: close\r\n\r\n`);
    await first.closed;
    expect(statusOf(first.received())).toBe(302);
  });

  it('answers every kind of route as before: a redirect on the fast path, API calls on one kept-alive connection', async () => {
    const visit = vi.spyOn(t.core.redirects, 'visit');
    const client = await connect(port);
    client.socket.write(`GET /${code} HTTP/1.1\r\nHost: ${HOST}\r\nUser-Agent: ${BROWSER_UA}\r\n\r\n`);
    await answered(client);
    expect(visit).not.toHaveBeenCalled(); // answered before Fastify
    visit.mockRestore();
    expect(statusOf(client.received())).toBe(302);
    expect(client.received()).toContain('location: https://example.com/slow');

    const body = JSON.stringify({ url: 'https://example.com/kept-alive' });
    client.socket.write(`POST /api/v1/links HTTP/1.1\r\nHost: ${HOST}\r\n${auth()}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    await vi.waitFor(() => expect(client.received()).toMatch(/HTTP\/1\.1 201[\s\S]*"shortCode"/), { timeout: 5_000, interval: 20 });
    client.socket.write(`GET /api/v1/links/${code} HTTP/1.1\r\nHost: ${HOST}\r\n${auth()}Connection: close\r\n\r\n`);
    await client.closed;
    expect(client.received().match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 302', 'HTTP/1.1 201', 'HTTP/1.1 200']);
  });

  it('closes a connection that sends nothing (HEADERS_TIMEOUT), with 408 REQUEST_TIMEOUT', async () => {
    const client = await connect(port);
    await client.closed;
    expect(statusOf(client.received())).toBe(408);
    expect(JSON.parse(bodyOf(client.received()))).toEqual({ error: true, message: expect.any(String), code: 'REQUEST_TIMEOUT' });
  });

  it('closes a connection that sends its headers one byte every 0.5 s, on the redirect path and the API alike', async () => {
    const clients = await Promise.all([connect(port), connect(port)]);
    const requests = [`GET /${code} HTTP/1.1\r\nHost: ${HOST}\r\n\r\n`, `GET /api/v1/links HTTP/1.1\r\nHost: ${HOST}\r\n${auth()}\r\n`];
    clients.forEach((client, i) => void trickle(client.socket, requests[i]!));
    for (const client of clients) {
      await client.closed;
      expect(statusOf(client.received())).toBe(408);
    }
  });

  it('closes a connection whose body comes one byte every 0.5 s (REQUEST_TIMEOUT): an API call gets 408', async () => {
    const client = await connect(port);
    const body = JSON.stringify({ url: 'https://example.com/trickled-body' });
    client.socket.write(`POST /api/v1/links HTTP/1.1\r\nHost: ${HOST}\r\n${auth()}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    void trickle(client.socket, body);
    await client.closed;
    expect(statusOf(client.received())).toBe(408);
    expect(JSON.parse(bodyOf(client.received()))).toMatchObject({ code: 'REQUEST_TIMEOUT' });
  });

  it('closes a connection whose body comes one byte every 0.5 s on the fast path, which answered at once', async () => {
    const visit = vi.spyOn(t.core.redirects, 'visit');
    const client = await connect(port);
    client.socket.write(`GET /${code} HTTP/1.1\r\nHost: ${HOST}\r\nUser-Agent: ${BROWSER_UA}\r\nContent-Length: 100\r\n\r\n`);
    void trickle(client.socket, 'x'.repeat(100));
    await answered(client);
    expect(statusOf(client.received())).toBe(302);
    expect(visit).not.toHaveBeenCalled();
    visit.mockRestore();
    await client.closed;
  });

  it('closes a kept-alive connection left idle after an answer (IDLE_TIMEOUT), on the fast path and after an API call', async () => {
    const requests = [`GET /${code} HTTP/1.1\r\nHost: ${HOST}\r\nUser-Agent: ${BROWSER_UA}\r\n\r\n`, `GET /api/v1/links/${code} HTTP/1.1\r\nHost: ${HOST}\r\n${auth()}\r\n`];
    const clients = await Promise.all(requests.map(() => connect(port)));
    clients.forEach((client, i) => client.socket.write(requests[i]!));
    for (const [i, client] of clients.entries()) {
      await answered(client);
      expect(statusOf(client.received())).toBe([302, 200][i]);
      expect(client.received()).toMatch(/keep-alive: timeout=1/i);
      const answer = client.received().length;
      await client.closed;
      expect(client.received().length, 'nothing more than the answer').toBe(answer);
    }
  });

  it(`closes the connections beyond MAX_CONNECTIONS at once, and answers again once others go`, async () => {
    const max = Number(LIMITS.MAX_CONNECTIONS);
    await vi.waitFor(async () => expect(await openConnections()).toBe(0), { timeout: CLOSED_WITHIN_MS, interval: 50 });
    const held = await Promise.all(Array.from({ length: max }, () => connect(port)));
    await vi.waitFor(async () => expect(await openConnections()).toBe(max), { timeout: 5_000, interval: 20 });
    const extra = await Promise.all(Array.from({ length: 10 }, () => connect(port)));
    for (const client of extra) {
      await client.closed;
      expect(client.received(), 'refused without an answer').toBe('');
    }
    // The held ones were not refused: they are still open, or closed later by HEADERS_TIMEOUT with a 408.
    for (const client of held) {
      await client.closed;
      expect(statusOf(client.received())).toBe(408);
    }
    const fresh = await connect(port);
    fresh.socket.write(`GET /healthz HTTP/1.1\r\nHost: ${HOST}\r\nConnection: close\r\n\r\n`);
    await fresh.closed;
    expect(statusOf(fresh.received())).toBe(200);
  });

  describe('a large answer (an export of 2,000 links of 4 KB each)', () => {
    let size: number;
    const exportRequest = () => `GET /api/v1/export/links?format=json HTTP/1.1\r\nHost: ${HOST}\r\n${auth()}Connection: close\r\n\r\n`;

    beforeAll(async () => {
      const caller = await t.core.accounts.callerFor(owner.email);
      for (let chunk = 0; chunk < 4; chunk++) {
        const items = Array.from({ length: 500 }, (_, i) => ({ url: `https://example.com/${chunk}-${i}?pad=${'p'.repeat(4000)}` }));
        const outcomes = await t.core.links.createMany(caller, items, { maxItems: 500, chargeQuota: false });
        expect(outcomes.filter((o) => 'error' in o)).toEqual([]);
      }
      const measured = await t.as(owner, { method: 'GET', url: '/api/v1/export/links?format=json', headers: { host: HOST } });
      expect(measured.statusCode).toBe(200);
      size = measured.rawPayload.length;
      expect(size).toBeGreaterThan(8_000_000);
    }, 120_000);

    it('is read to the end by a client that reads it slowly, for longer than every timeout together', async () => {
      const client = await connect(port);
      const start = Date.now();
      // 64 KB at most every 40 ms: 8 MB take some 5 s, more than REQUEST_TIMEOUT and IDLE_TIMEOUT together.
      client.socket.on('data', () => {
        client.socket.pause();
        setTimeout(() => client.socket.resume(), 40);
      });
      client.socket.write(exportRequest());
      await new Promise((resolve) => client.socket.once('close', resolve));
      expect(statusOf(client.received())).toBe(200);
      expect(Buffer.byteLength(unchunked(client.received()), 'latin1')).toBe(size);
      expect(Date.now() - start).toBeGreaterThan(3_000);
    }, 60_000);

    it('is cut off when the client stops reading it (nothing moves for REQUEST_TIMEOUT)', async () => {
      const accepted = new Promise<net.Socket>((resolve) => t.app.server.once('connection', resolve));
      const client = await connect(port);
      const serverSide = await accepted;
      client.socket.write(exportRequest());
      client.socket.pause();
      // Closed by the server while the client reads nothing (the client could not see it without reading).
      await vi.waitFor(() => expect(serverSide.destroyed).toBe(true), { timeout: CLOSED_WITHIN_MS, interval: 100 });
      client.socket.resume();
      await new Promise((resolve) => client.socket.once('close', resolve));
      expect(statusOf(client.received())).toBe(200);
      expect(Buffer.byteLength(bodyOf(client.received()), 'latin1')).toBeLessThan(size);
    }, 60_000);
  });
});
