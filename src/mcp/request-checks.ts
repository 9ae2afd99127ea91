import type { FastifyInstance } from 'fastify';
import { errors } from '../errors.js';
import { nulPathOf } from '../http/json-limits.js';
import { nulError } from '../schema/issues.js';

/** Of a very deep path, the start names the place well enough; the message stays short. */
const PATH_NAMED = 8;

/**
 * How /mcp reads its body, in place of REST's parser (this plugin's own, src/mcp/routes.ts): JSON only, by Fastify's
 * parser (prototype poisoning refused), an empty body a parse error, and a NUL (U+0000) anywhere refused for the whole
 * POST, as REST refuses it, since no database stores it in text. Unlike REST's, it sets no depth bound on the body:
 * deep tool arguments are refused per call with JSON-RPC -32602 (src/mcp/arguments.ts), and the NUL search here walks
 * without recursion.
 */
export function registerMcpBody(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(errors.invalidJson(), undefined);
    return parseJson(request, text, (error, value) => {
      if (error) return done(error, undefined);
      const nul = text.includes('\\u0000') ? nulPathOf(value) : null;
      return nul ? done(nulError(nul.slice(0, PATH_NAMED), 'The body'), undefined) : done(null, value);
    });
  });
}

/**
 * Whether an Origin header may call /mcp: none (a program, not a browser page), or a page's http(s) origin, of any
 * site. Browser-based MCP clients call cross-origin on purpose, through CORS, with a bearer credential (a key or an
 * OAuth token) that a browser never attaches by itself, and /mcp reads no cookie; the DNS-rebinding defence is the
 * Host check (src/http/hosts.ts). `null` (a sandboxed frame, a file), other schemes and anything that is no origin
 * are refused: the MCP transport wants 403 for an Origin that is present and invalid.
 */
export function originAllowed(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin.toLowerCase();
  } catch {
    return false;
  }
}

const isRequest = (message: unknown): message is { id: unknown; method: unknown } =>
  typeof message === 'object' && message !== null && 'method' in message && 'id' in message;

/**
 * Refuses, before anything is charged or run, a batch that cannot be answered as JSON-RPC asks: an empty one
 * (JSON-RPC 2.0: one Invalid Request error, not an empty answer) and one whose requests share an id (their answers
 * could not be told apart, and the SDK would answer only one of them).
 */
export function checkBatch(body: unknown): void {
  if (!Array.isArray(body)) return;
  if (body.length === 0) throw errors.badRequest('The batch is empty: send one JSON-RPC message or a list of them');
  const seen = new Set<string>();
  for (const { id } of body.filter(isRequest)) {
    // Any other id is no JSON-RPC request, which the SDK refuses as such.
    if (typeof id !== 'string' && typeof id !== 'number') continue;
    const key = `${typeof id}:${id}`;
    if (seen.has(key)) throw errors.badRequest(`Two requests of the batch have the id ${JSON.stringify(id).slice(0, 100)}: give each request its own id`);
    seen.add(key);
  }
}
