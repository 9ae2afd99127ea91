import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp, TestUser } from '../helpers/app.js';
import { rpc } from '../helpers/mcp.js';

/**
 * Parity (issue 15): one operation, sent with the same input over every surface that has it (Description A,
 * Description B, MCP, the CLI), answers the same way: the same success, or the same error code, and, where the
 * code is the same, the same message. Each call is reduced to an `Outcome` so the surfaces can be compared.
 */

export const PARITY_PLANS = path.join(import.meta.dirname, '..', 'fixtures', 'plans-parity.json');

/** What one call answered, surface-neutral. */
export type Outcome =
  | { ok: true; status: number; body: unknown }
  | { ok: false; status: number; code: string; message: string; via: 'http' | 'tool' | 'jsonrpc' };

export type Surface = 'A' | 'B' | 'MCP' | 'CLI';

/** A REST answer as an outcome: 2xx/3xx is success; an error's message is `message` (A) or the text `error` (B's 429). */
export function restOutcome(res: LightMyRequestResponse): Outcome {
  if (res.statusCode < 400) {
    const isJson = String(res.headers['content-type'] ?? '').includes('json');
    return { ok: true, status: res.statusCode, body: isJson && res.body !== '' ? res.json() : res.rawPayload };
  }
  const body = res.json<{ error?: unknown; code?: string; message?: string }>();
  return {
    ok: false,
    status: res.statusCode,
    code: String(body.code),
    message: typeof body.message === 'string' ? body.message : String(body.error),
    via: 'http',
  };
}

interface JsonRpcAnswer {
  id?: unknown;
  result?: { isError?: boolean; content?: { type: string; text?: string }[] };
  error?: { code: number; message: string; data?: unknown };
}

/** The code an MCP-level failure carries: the data's `code` of a JSON-RPC error, else the JSON-RPC number. */
function jsonRpcCode(error: NonNullable<JsonRpcAnswer['error']>): string {
  const data = error.data as { code?: unknown } | undefined;
  return typeof data?.code === 'string' ? data.code : `JSONRPC_${error.code}`;
}

/** One JSON-RPC answer (a tools/call) as an outcome; `status` is the HTTP status of the POST that carried it. */
export function toolOutcome(answer: JsonRpcAnswer, status: number): Outcome {
  if (answer.error) return { ok: false, status, code: jsonRpcCode(answer.error), message: answer.error.message, via: 'jsonrpc' };
  const text = answer.result?.content?.find((c) => c.type === 'text')?.text;
  const body: unknown = text === undefined ? null : JSON.parse(text);
  if (answer.result?.isError) {
    const error = body as { code?: string; message?: string };
    return { ok: false, status, code: String(error.code), message: String(error.message), via: 'tool' };
  }
  return { ok: true, status, body };
}

/** An HTTP-level refusal of the whole POST /mcp (401, 429, ...) as an outcome. */
function httpMcpOutcome(res: LightMyRequestResponse): Outcome {
  const body = res.json<{ code?: string; message?: string; error?: JsonRpcAnswer['error'] | string }>();
  if (body.error && typeof body.error === 'object') return { ok: false, status: res.statusCode, code: jsonRpcCode(body.error), message: body.error.message, via: 'jsonrpc' };
  return { ok: false, status: res.statusCode, code: String(body.code), message: String(body.message ?? body.error), via: 'http' };
}

let rpcId = 0;
const call = (name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name, arguments: args } });

/** The raw POST /mcp of one tools/call (for its headers). */
export function mcpPost(t: TestApp, user: TestUser, name: string, args: Record<string, unknown> = {}): Promise<LightMyRequestResponse> {
  return rpc(t, user.apiKey, call(name, args));
}

/** One tools/call over POST /mcp (raw JSON-RPC through app.inject), as an outcome. */
export async function mcp(t: TestApp, user: TestUser, name: string, args: Record<string, unknown> = {}): Promise<Outcome> {
  return mcpOutcome(await mcpPost(t, user, name, args));
}

export function mcpOutcome(res: LightMyRequestResponse): Outcome {
  if (res.statusCode !== 200) return httpMcpOutcome(res);
  return toolOutcome(res.json<JsonRpcAnswer>(), res.statusCode);
}

/**
 * A JSON-RPC batch of tools/call in one POST /mcp: the outcome of each call, in the order sent (an HTTP-level
 * refusal of the whole POST answers that refusal for every call).
 */
export async function mcpBatch(t: TestApp, user: TestUser, calls: [string, Record<string, unknown>][]): Promise<{ res: LightMyRequestResponse; outcomes: Outcome[] }> {
  const requests = calls.map(([name, args]) => call(name, args));
  const res = await rpc(t, user.apiKey, requests);
  if (res.statusCode !== 200) return { res, outcomes: calls.map(() => httpMcpOutcome(res)) };
  const body = res.json<JsonRpcAnswer | JsonRpcAnswer[]>();
  const answers = Array.isArray(body) ? body : [body];
  return {
    res,
    outcomes: requests.map((r) => {
      const answer = answers.find((a) => a.id === r.id);
      return answer ? toolOutcome(answer, res.statusCode) : { ok: false as const, status: res.statusCode, code: 'NO_ANSWER', message: JSON.stringify(body), via: 'jsonrpc' as const };
    }),
  };
}

/** REST through app.inject, as an outcome. */
export async function rest(t: TestApp, user: TestUser | null, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object): Promise<Outcome> {
  return restOutcome(await t.as(user, { method, url, ...(payload === undefined ? {} : { payload }) }));
}

const describeOutcome = (o: Outcome) => (o.ok ? `ok ${o.status}` : `${o.code} (${o.status} via ${o.via}): ${o.message}`);

/** Every surface's code (null for success), for one readable comparison. */
export const codes = (outcomes: Record<string, Outcome>): Record<string, string | null> =>
  Object.fromEntries(Object.entries(outcomes).map(([s, o]) => [s, o.ok ? null : o.code]));

/**
 * The field names a surface uses instead of the operation's (src/schema/rename.ts): a refusal names the field as the
 * caller wrote it, so MCP's "slug must ..." is A's "customSlug must ...".
 */
const RENAMED: Record<string, Record<string, string>> = { MCP: { slug: 'customSlug' } };

/** A surface's message in the operation's field names, for comparing with the other surfaces'. */
export function inOperationNames(surface: string, message: string): string {
  let text = message;
  for (const [theirs, own] of Object.entries(RENAMED[surface] ?? {})) text = text.replace(new RegExp(`(^|[.\\]])${theirs}\\b`, 'g'), `$1${own}`);
  return text;
}

/**
 * The parity assertion: every surface refused with `code`, and, the code being the same, with the same message
 * (the message of the first surface listed), each in the operation's field names.
 */
export function expectSameError(label: string, outcomes: Record<string, Outcome>, code: string): void {
  const all = Object.entries(outcomes) as [string, Outcome][];
  const detail = all.map(([s, o]) => `${s}: ${describeOutcome(o)}`).join('\n');
  expect(codes(outcomes), `${label}\n${detail}`).toEqual(Object.fromEntries(all.map(([s]) => [s, code])));
  const messages = Object.fromEntries(all.map(([s, o]) => [s, o.ok ? null : inOperationNames(s, o.message)]));
  const first = all[0]![1];
  expect(messages, `${label}: same code, so the same message\n${detail}`).toEqual(Object.fromEntries(all.map(([s]) => [s, first.ok ? null : first.message])));
}

/** The REST status of an error: A and B agree on it. */
export function expectRestStatus(label: string, outcomes: Record<string, Outcome>, status: number): void {
  const rest = (Object.entries(outcomes) as [string, Outcome][]).filter(([s]) => s === 'A' || s === 'B');
  expect(Object.fromEntries(rest.map(([s, o]) => [s, o.status])), label).toEqual(Object.fromEntries(rest.map(([s]) => [s, status])));
}

/** Every surface succeeded; answers the bodies. */
export function expectAllOk(label: string, outcomes: Record<string, Outcome>): Record<string, unknown> {
  const all = Object.entries(outcomes) as [string, Outcome][];
  expect(codes(outcomes), `${label}\n${all.map(([s, o]) => `${s}: ${describeOutcome(o)}`).join('\n')}`).toEqual(Object.fromEntries(all.map(([s]) => [s, null])));
  return Object.fromEntries(all.map(([s, o]) => [s, (o as { body: unknown }).body]));
}

/** An ISO instant `ms` from the app's clock. */
export const fromNow = (t: TestApp, ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
