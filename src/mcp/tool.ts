import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { KindGuard, Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { Operation } from '../access/operation.js';
import { settle, tierRefusal, type Admission, type Policy } from '../access/policy.js';
import type { Caller } from '../accounts/service.js';
import type { Core } from '../core.js';
import { AppError, errors } from '../errors.js';
import { DateTime, MAX_INTEGER, StringEnum } from '../http/schemas.js';
import type { RequestId } from './admission.js';
import { checkArguments } from './arguments.js';
import { InvalidParams } from './json-rpc.js';
import { scopeCovers, type Scope } from '../oauth/scopes.js';

export interface ToolContext {
  core: Core;
  caller: Caller;
  /** The charge of each call of this POST, by JSON-RPC id (src/mcp/admission.ts). */
  admissions?: ReadonlyMap<RequestId, Admission>;
  /** Where a tool's unexpected failure is logged (the request's logger). */
  log?: FastifyBaseLogger;
}

export interface ToolSpec<P extends TProperties = TProperties> {
  name: string;
  description: string;
  /** The operation the tool offers, as REST's routes of it do (src/access/operation.ts). */
  operation: Operation;
  /** Who may call it and what a call costs: its operation's. */
  policy: Policy;
  /** What an application connected by OAuth must have been granted to call it (src/oauth/scopes.ts). */
  scope: Scope;
  /** The arguments, in the schema language REST's routes use (TypeBox); tools/list lists it as it is. */
  input: TObject<P>;
  run: (args: Static<TObject<P>>, context: ToolContext) => Promise<unknown>;
}

/**
 * A tool from its argument properties, or from a REST operation's own schema where the arguments are the same
 * (update_qr_settings takes PATCH /api/v1/qr/settings's body); keeps `run`'s argument types tied to the schema.
 */
export function tool<P extends TProperties>(spec: Omit<ToolSpec<P>, 'input' | 'policy'> & { input: P | TObject<P> }): ToolSpec {
  const given: unknown = spec.input;
  const input = KindGuard.IsObject(given) ? given : Type.Object(given as TProperties, { additionalProperties: false });
  return { ...spec, input, policy: spec.operation.policy } as unknown as ToolSpec;
}

/** The 403 for a caller connected by OAuth without the tool's scope, or null; keys and sessions hold every scope. */
export function scopeRefusal(caller: Caller, spec: Pick<ToolSpec, 'scope'>): AppError | null {
  return caller.scopes && !scopeCovers(caller.scopes, spec.scope) ? errors.insufficientScope(spec.scope) : null;
}

/** A tool answer that carries an image (the QR code) besides its JSON description. */
export class ToolImage {
  constructor(
    readonly png: Buffer,
    readonly details: unknown,
  ) {}
}

const text = (value: unknown, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
  ...(isError ? { isError: true } : {}),
});

/** A refusal as a tool error: the code and message REST answers for the same call. */
const toolError = (error: AppError): CallToolResult => text({ error: true, code: error.code, message: error.message }, true);

/** The answer to a call of a tool Snip does not have. */
export const unknownTool = (name: string): CallToolResult => toolError(errors.unknownTool(name));

/**
 * Runs one call of a tool whose rules live in the services it calls. The call was charged with the rest of the
 * POST (src/mcp/admission.ts); here the scope and the plan are checked, then the arguments; a refusal, a bad argument or a
 * service's AppError becomes a tool error with the stable code REST answers, and a 429 from a service refunds it.
 */
export async function callTool(spec: ToolSpec, raw: unknown, context: ToolContext, requestId: RequestId): Promise<CallToolResult> {
  const admission = context.admissions?.get(requestId) ?? null;
  try {
    const refusal = scopeRefusal(context.caller, spec) ?? tierRefusal(context.core.config.plans, context.caller, spec.policy);
    if (refusal) throw refusal;
    const result = await spec.run(checkArguments(spec.input, raw), context);
    if (result instanceof ToolImage) {
      return { content: [{ type: 'image', data: result.png.toString('base64'), mimeType: 'image/png' }, ...text(result.details).content] };
    }
    return text(result);
  } catch (error) {
    await settle(error, admission);
    if (error instanceof AppError) return toolError(error);
    // Arguments that cannot be read at all: the SDK answers JSON-RPC -32602 with the call's id.
    if (error instanceof InvalidParams) throw error;
    // A database's or a library's own words never reach a client: the log keeps them, the caller gets REST's 500.
    context.log?.error({ err: error, tool: spec.name }, 'tool call failed');
    return toolError(errors.internalError());
  }
}

/** Shared argument shapes, described for the model reading them. */
export const args = {
  shortPath: Type.String({ minLength: 1, description: 'The short link: its 6-character code, or prefix/slug for a namespaced link' }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Page size, 1-100 (default 20)' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_INTEGER, description: 'Items to skip (default 0)' })),
  dateTime: (what: string) => DateTime(`${what}, ISO 8601 date-time (e.g. 2026-12-31T23:59:59Z)`),
  oneOf: <const T extends string>(values: readonly T[], description: string) => StringEnum(values, { description }),
};
