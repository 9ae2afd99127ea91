import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../config.js';
import { errors } from '../errors.js';

/** What one connection may hold (HEADERS_TIMEOUT, REQUEST_TIMEOUT, IDLE_TIMEOUT) and how many one process takes (MAX_CONNECTIONS). */
export type ConnectionLimits = Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs' | 'idleTimeoutMs' | 'maxConnections'>;

/**
 * How often Node looks for connections past their header or request deadline: it checks on a timer, not per
 * connection (its default, 30 s, would let a 10 s deadline run to 40 s). Half the shorter deadline keeps a deadline
 * at most 50% late; never more often than 4 times a second, never less often than Node's own default.
 */
export function checkingIntervalOf(limits: ConnectionLimits): number {
  return Math.min(30_000, Math.max(250, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 2)));
}

/** The response a socket is writing, as Node's HTTP server records it on the socket (`_httpMessage`). */
type ServerSocket = Socket & { _httpMessage?: ServerResponse | null };

/**
 * A connection on which nothing moved for `server.timeout` (REQUEST_TIMEOUT): no byte read, no byte of a pending
 * answer taken by the client (Node's socket timer already counts partial progress of a large write, so a slow
 * reader that keeps reading never gets here). An answer Snip itself is still preparing (nothing waiting to be sent)
 * is Snip's slowness, not the client's, and is let be; anything else is closed: a client that stopped reading an
 * answer, a connection kept alive past IDLE_TIMEOUT (Node sets that timer after each answer).
 */
function onInactive(socket: ServerSocket): void {
  const answering = socket._httpMessage;
  if (answering && !answering.writableFinished && socket.writableLength === 0) return;
  socket.destroy();
}

/**
 * A request that broke off before it reached a route: not sent in time (Node's header and request deadlines) or not
 * HTTP. Answered with a catalogue code in the body every error has, instead of Fastify's own text; as Node does, never
 * into an answer already started (that would corrupt it), and the connection is closed either way.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const refusal =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? errors.requestTimeout()
      : errors.badRequest(error.code === 'HPE_HEADER_OVERFLOW' ? 'The request headers are too large' : 'The request is not valid HTTP');
  const started = (socket as ServerSocket)._httpMessage?.headersSent === true;
  if (socket.writable && !started) {
    const body = JSON.stringify({ error: true, message: refusal.message, code: refusal.code });
    const reason = http.STATUS_CODES[refusal.status] ?? '';
    socket.write(
      `HTTP/1.1 ${refusal.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * The HTTP server for Fastify's `serverFactory`, bounded by Snip's settings rather than Fastify's (its
 * requestTimeout of 0 would let a body trickle in forever), handing each request to `first` (the redirect's fast
 * path) before Fastify's handler. The bounds are Node's, per connection, so the fast path is held to them too and a
 * request pays nothing for them:
 * - a connection that sends nothing, or its headers too slowly: `headersTimeout` from the first byte of a request
 *   (from the connection for the first one), 408;
 * - a request whose body comes too slowly: `requestTimeout`, 408 (Node stops counting once the request has arrived,
 *   so a long answer is not cut by it);
 * - a kept-alive connection idle after an answer: `keepAliveTimeout` (plus Node's one-second margin), closed;
 * - a client that stops reading an answer: the socket timer (`server.timeout`, see `onInactive`), closed;
 * - beyond `maxConnections` open at once (in this process: each worker under WORKERS), a new connection is closed as
 *   soon as it is accepted.
 */
export function serverWith(limits: ConnectionLimits, first: (request: IncomingMessage, response: ServerResponse) => boolean) {
  return (handler: (request: IncomingMessage, response: ServerResponse) => void, options: { http?: http.ServerOptions | null }) => {
    const server = http.createServer(
      {
        ...options.http,
        // Node refuses a header deadline beyond the request's; the shorter bound holds for both.
        headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
        requestTimeout: limits.requestTimeoutMs,
        keepAliveTimeout: limits.idleTimeoutMs,
        connectionsCheckingInterval: checkingIntervalOf(limits),
      },
      (request, response) => {
        if (!first(request, response)) handler(request, response);
      },
    );
    server.maxConnections = limits.maxConnections;
    // Under WORKERS, a worker at its cap would by default hand the connection back to the primary, which offers it to
    // the next worker and round again while all are full (held, not closed, and the primary busy passing it on):
    // close it instead (Node >= 22.12; not yet in @types/node).
    (server as http.Server & { dropMaxConnection: boolean }).dropMaxConnection = true;
    server.setTimeout(limits.requestTimeoutMs, onInactive);
    return server;
  };
}
