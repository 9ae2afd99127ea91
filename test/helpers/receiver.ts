import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a webhook receiver saw it: the raw body bytes, exactly as they came over the wire. */
export interface ReceivedRequest {
  method: string;
  /** The request path (with any query). */
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Date.now() when the request's body had fully arrived. */
  at: number;
}

/** Chooses the status of an answer; `nth` counts the requests to this path so far, from 1. */
export type Answer = (request: ReceivedRequest, nth: number) => number;

/**
 * A real HTTP server on 127.0.0.1 standing in for a customer's endpoint. Every test uses paths of its own, so
 * one receiver serves a whole file; what a path answers is set with `answer` (200 unless told).
 */
export interface Receiver {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  /** Every request so far, in the order they arrived. */
  requests: ReceivedRequest[];
  /** TCP connections accepted so far (a request that never got as far as HTTP still counts here). */
  connections: number;
  /** The requests to `path`, in order. */
  to(path: string): ReceivedRequest[];
  /** `http://127.0.0.1:<port><path>`, answered with `answer` (a status, or a function of the request). */
  endpoint(path: string, answer?: number | Answer): string;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const answers = new Map<string, Answer>();
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const received: ReceivedRequest = { method: req.method ?? '', path, headers: req.headers, body: Buffer.concat(chunks), at: Date.now() };
      requests.push(received);
      const nth = requests.filter((r) => r.path === path).length;
      const status = (answers.get(path) ?? (() => 200))(received, nth);
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status === 204 ? undefined : `answered ${status}`);
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    requests,
    get connections() {
      return connections;
    },
    to: (path) => requests.filter((r) => r.path === path),
    endpoint(path, answer = 200) {
      answers.set(path, typeof answer === 'number' ? () => answer : answer);
      return `${origin}${path}`;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Lowercase hex HMAC-SHA256 of the raw bytes, keyed by the secret: what `x-snip-signature` must be. */
export const expectedSignature = (secret: string, raw: Buffer): string => createHmac('sha256', secret).update(raw).digest('hex');

/**
 * Polls `probe` every 20 ms until it answers something other than undefined, null or false, and answers that;
 * fails naming `what` after `timeoutMs`.
 */
export async function waitFor<T>(what: string, probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs = 8_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
