import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AppError } from '../errors.js';
import { DASHBOARD_PATH } from './dashboard.js';

/** Below this many bytes an answer goes out as it is: a header or two would eat what compression saves. */
export const COMPRESSION_THRESHOLD = 1024;

/** Where @fastify/swagger-ui serves its own files (src/http/openapi.ts mounts it at /docs). */
const DOCS_STATIC_PATH = '/docs/static';

/**
 * The types Snip compresses as it answers: JSON, YAML (/openapi.yaml), CSV, plain text, JavaScript, CSS, XML, SVG.
 * Not HTML (see `leavePlain`), not text/event-stream (it must reach a client event by event), not
 * application/octet-stream (which the library's own list takes), nor whatever else mime-db calls compressible.
 */
const COMPRESSIBLE = /^(?:text\/(?:plain|csv|css|javascript|xml)|application\/(?:[\w.+-]+\+)?(?:json|yaml|x-yaml|xml|javascript)|image\/svg\+xml)\s*(?:;|$)/i;

/**
 * Routes the compressor stays off entirely, with not even a hook to run:
 * - the short links (`/{code}`, `/{prefix}/{slug}`, tagged `redirect`): a redirect has no body, and the redirect path
 *   carries nothing it does not need (src/redirects/fast-path.ts answers cached ones before Fastify routes at all);
 * - the dashboard, whose files are compressed once at build and served as such (src/http/dashboard.ts);
 * - HEAD routes: no body goes out, so compressing one would be work for nothing;
 * - the API reference's static files (/docs/static, @fastify/swagger-ui): its 1.7 MB script would be compressed afresh
 *   for every unauthenticated request (about 40 ms of CPU each), which anyone could repeat at will.
 */
function leftAlone(route: RouteOptions): boolean {
  const methods = [route.method].flat();
  if (methods.every((method) => method === 'HEAD')) return true;
  if (route.schema?.tags?.includes('redirect')) return true;
  if (route.url.startsWith(`${DOCS_STATIC_PATH}/`)) return true;
  return route.url === DASHBOARD_PATH || route.url.startsWith(`${DASHBOARD_PATH}/`);
}

/** Methods whose requests Fastify never reads a body of. */
const BODYLESS = new Set(['GET', 'HEAD']);

/**
 * Snip decodes no request body (a small gzip or brotli body can inflate to gigabytes, and no client of Snip's needs
 * to send one): a body with a Content-Encoding is refused, unread, with 415 and the `Accept-Encoding: identity` that
 * RFC 9110 (12.5.3) asks such a refusal to carry. An encoding of `identity` is no encoding.
 */
async function refuseEncodedBody(request: FastifyRequest, _reply: FastifyReply, payload: unknown): Promise<unknown> {
  const encoding = request.headers['content-encoding'];
  if (encoding === undefined || encoding.trim().toLowerCase() === 'identity') return payload;
  const length = request.headers['content-length'];
  if (request.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) return payload;
  throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body uncompressed: Snip reads no Content-Encoding (gzip, br, ...) on a request', {
    'accept-encoding': 'identity',
  });
}

/** RFC 1950's zlib header or RFC 1952's gzip magic, as @fastify/compress tests the start of an answer for them. */
function startsLikeCompressed(payload: unknown): boolean {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return false;
  const head = typeof payload === 'string' ? Buffer.from(payload.slice(0, 3)) : payload;
  if (head.length < 2) return false;
  const [first = 0, second = 0, third = 0] = head.subarray(0, 3);
  const gzip = head.length > 2 && first === 0x1f && second === 0x8b && third === 0x08;
  const deflate = (first & 0x0f) === 0x08 && (first & 0x80) === 0 && ((first << 8) + second) % 31 === 0;
  return gzip || deflate;
}

/**
 * Which answers of a compressing route go out as they are, decided before @fastify/compress looks (and told it by
 * its own opt-out, the `x-no-compression` request header):
 * - a HEAD answer: its body is dropped;
 * - HTML: Snip's pages are a few KB, and some hold a secret next to text someone else chose (the OAuth consent page:
 *   the session's CSRF token beside a client's self-registered name and address), which is what BREACH needs to read
 *   a secret through compressed sizes;
 * - any type outside COMPRESSIBLE (an answer without one is JSON, as Fastify serializes objects);
 * - a body that merely starts like zlib or gzip data (text beginning `80`, `hb`, `XG`, `(r` ...): the library would
 *   pass it through as it is yet label it with the negotiated encoding, which browsers then fail to decode
 *   (fastify/fastify-compress#347).
 */
function leavePlain(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
  const type = reply.getHeader('content-type') ?? 'application/json';
  if (request.method === 'HEAD' || !COMPRESSIBLE.test(String(type)) || startsLikeCompressed(payload)) request.headers['x-no-compression'] = '1';
  done(null, payload);
}

/**
 * Answers are compressed, requests are not decompressed. Registered before any route: @fastify/compress attaches its
 * hooks to each route declared after it.
 *
 * What is on, of the library's defaults and Snip's choices:
 * - Brotli (quality 4: cheap enough per answer) or gzip (level 6), whichever the client prefers by Accept-Encoding
 *   (`*` counts as gzip); not deflate (clients disagree on what it means) nor zstd (which Node 22.15+ would add);
 * - only the types above, of at least 1 KB; a stream (a file of /docs) is compressed whatever its size;
 * - not a 206 or an answer with a Content-Range, not an answer that already has a Content-Encoding, not when the
 *   request says `x-no-compression`;
 * - `Vary: accept-encoding` on every compressed answer; the Content-Length of the compressed bytes when the answer
 *   was compressed at once (up to the library's syncThreshold, 8 KB on two cores), none (chunked) when streamed;
 * - a larger answer, or a stream, goes through stream.pipeline on the libuv pool, which keeps backpressure: a slow
 *   reader pauses the compressor;
 * - off: request decompression (refused instead, above), inflateIfDeflated, onUnsupportedEncoding (an answer nobody
 *   can decode goes out plain).
 * A hijacked reply (the MCP endpoint, the OAuth library's routes) writes to the socket itself and is not compressed.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // Runs before the library's own onRoute hook (registered below), so it sees `compress: false` and adds nothing.
  app.addHook('onRoute', (route) => {
    if ([route.method].flat().some((method) => !BODYLESS.has(method))) route.preParsing = [refuseEncodedBody, ...[route.preParsing ?? []].flat()];
    if (route.compress !== undefined) return;
    if (leftAlone(route)) route.compress = false;
    else route.onSend = [...[route.onSend ?? []].flat(), leavePlain];
  });
  await app.register(fastifyCompress, {
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD,
    customTypes: COMPRESSIBLE,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } },
    zlibOptions: { level: 6 },
  });
}
