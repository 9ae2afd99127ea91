import type { CallToolResult, Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { KindGuard, Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { Operation } from '../access/operation.js';
import { settle, tierRefusal, type Admission, type Policy } from '../access/policy.js';
import type { Caller } from '../caller.js';
import type { Core } from '../core.js';
import { AppError, errors, isErrorCode, type ErrorCode } from '../errors.js';
import { checkToolCode } from '../http/declared-codes.js';
import { validationCodes } from '../schema/messages.js';
import { DateTime, MAX_INTEGER, StringEnum } from '../schema/shapes.js';
import { checkArguments } from './arguments.js';
import { InvalidParams, type RequestId } from './json-rpc.js';
import { portableSchema, type JsonSchema } from './json-schema.js';
import { scopeCovers, type Scope } from '../oauth/scopes.js';

export interface ToolContext {
  core: Core;
  caller: Caller;
  /** The charge of each call of this POST, by JSON-RPC id (src/mcp/admission.ts). */
  admissions?: ReadonlyMap<RequestId, Admission>;
  /** Where a tool's unexpected failure is logged (the request's logger). */
  log?: FastifyBaseLogger;
}

/** What a call does to Snip, read from its operation's verb (`effectOf`): the source of its annotations. */
export type Effect = 'read' | 'create' | 'update' | 'delete' | 'action';

/** The four behaviour hints of MCP's tool annotations (2025-03-26 and later). */
export type Hints = Required<Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>>;

export interface ToolSpec<P extends TProperties = TProperties> {
  name: string;
  /** Shown to people (2025-06-18's `title`, and 2025-03-26's `annotations.title`). */
  title: string;
  description: string;
  /** The operation the tool offers, as REST's routes of it do (src/access/operation.ts). */
  operation: Operation;
  /** Who may call it and what a call costs: its operation's. */
  policy: Policy;
  /** What an application connected by OAuth must have been granted to call it (src/oauth/scopes.ts). */
  scope: Scope;
  /** The arguments, in the schema language REST's routes use (TypeBox). */
  input: TObject<P>;
  /**
   * The shape of a successful answer (`structuredContent`, and tools/list's outputSchema): the response schema of the
   * REST route the tool mirrors, or one built from its parts where the tool answers more. Always an object.
   */
  output?: TSchema;
  /**
   * `input` and `output` as tools/list shows them, in portable JSON Schema (src/mcp/json-schema.ts); calls are checked
   * against this input schema, so what a client reads is what it is held to.
   */
  listed: { input: JsonSchema; output?: JsonSchema };
  /** Its annotations: derived from the operation's effect, but for the hints the tool overrides. */
  hints: Hints;
  run: (args: Static<TObject<P>>, context: ToolContext) => Promise<unknown>;
}

/**
 * An operation's effect, read from the verb its id starts with (createLink, listLinks, releaseNamespace, ...), so every
 * tool of an operation is hinted alike; a verb not listed here stops the start rather than guess.
 */
const EFFECTS: Record<string, Effect> = {
  get: 'read', list: 'read', export: 'read', discover: 'read', resolve: 'read',
  create: 'create', bulk: 'create', add: 'create', join: 'create',
  update: 'update', set: 'update', claim: 'update',
  delete: 'delete', remove: 'delete', release: 'delete',
  verify: 'action', test: 'action',
};

export function effectOf(operation: Operation): Effect {
  const verb = /^[a-z]+/.exec(operation.id)?.[0] ?? '';
  const effect = EFFECTS[verb];
  if (!effect) throw new Error(`MCP: no effect known for the verb of operation ${operation.id}`);
  return effect;
}

/**
 * The hints of each effect. A read changes nothing; a create only adds (a second call adds again); an update or a
 * delete replaces or removes what was there (destructive: the old destination, colour or webhook is gone), and a
 * second identical call changes nothing more. Nothing reaches outside Snip unless a tool says so (openWorldHint).
 */
const HINTS: Record<Effect, Hints> = {
  read: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  create: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  update: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  delete: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  action: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
};

/** What `run` answers: the output schema's type where the tool has one (checked at compile time), else anything. */
type Answer<O> = O extends TSchema ? Static<O> | ToolImage<Static<O>> : unknown;

/**
 * A tool from its argument properties, or from a REST operation's own schema where the arguments are the same
 * (update_qr_settings takes PATCH /api/v1/qr/settings's body); keeps `run`'s argument types tied to the schema and its
 * answer to the output schema, as a REST route's reply is tied to its response schema.
 */
export function tool<P extends TProperties, O extends TSchema | undefined = undefined>(
  spec: Omit<ToolSpec<P>, 'input' | 'policy' | 'hints' | 'output' | 'listed' | 'run'> & {
    input: P | TObject<P>;
    output?: O;
    hints?: Partial<Hints>;
    run: (args: Static<TObject<P>>, context: ToolContext) => Promise<Answer<O>>;
  },
): ToolSpec {
  const given: unknown = spec.input;
  const input = KindGuard.IsObject(given) ? given : Type.Object(given as TProperties, { additionalProperties: false });
  // structuredContent is an object (MCP): a tool that answers a list answers it under a name, as REST does.
  if (spec.output && (spec.output as { type?: unknown }).type !== 'object') throw new Error(`MCP: the output of ${spec.name} is not an object schema`);
  const listed = { input: portableSchema(input), ...(spec.output ? { output: portableSchema(spec.output) } : {}) };
  const hints = { ...HINTS[effectOf(spec.operation)], ...spec.hints };
  return { ...spec, input, listed, hints, policy: spec.operation.policy } as unknown as ToolSpec;
}

/**
 * A tool as tools/list shows it, the same to every protocol version: fields a version does not know (title,
 * annotations, outputSchema) are ignored by its clients, and a 2025-03-26 client finds the title in the annotations.
 */
export function listing(spec: ToolSpec): Tool {
  const { input, output } = spec.listed;
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: input as Tool['inputSchema'],
    ...(output ? { outputSchema: output as NonNullable<Tool['outputSchema']> } : {}),
    annotations: { title: spec.title, ...spec.hints },
  };
}

/** The 403 for a caller connected by OAuth without the tool's scope, or null; keys and sessions hold every scope. */
export function scopeRefusal(caller: Caller, spec: Pick<ToolSpec, 'scope'>): AppError | null {
  return caller.scopes && !scopeCovers(caller.scopes, spec.scope) ? errors.insufficientScope(spec.scope) : null;
}

/** A tool answer that carries an image (the QR code) besides its JSON description. */
export class ToolImage<D = unknown> {
  constructor(
    readonly png: Buffer,
    readonly details: D,
  ) {}
}

const text = (value: unknown, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
  ...(isError ? { isError: true } : {}),
});

/**
 * A success: the JSON as text, which every client reads, and, for a tool with an output schema, the same data as
 * structuredContent (2025-06-18). A tool error never carries structuredContent.
 */
const answer = (spec: ToolSpec, value: unknown, before: CallToolResult['content'] = []): CallToolResult => ({
  content: [...before, ...text(value).content],
  ...(spec.output ? { structuredContent: value as Record<string, unknown> } : {}),
});

/** A refusal as a tool error: the code and message REST answers for the same call. */
const toolError = (error: AppError): CallToolResult => text({ error: true, code: error.code, message: error.message }, true);

/** The answer to a call of a tool Snip does not have. */
export const unknownTool = (name: string): CallToolResult => toolError(errors.unknownTool(name));

/**
 * The codes a call of the tool may answer as a tool error, derived for every tool as REST's `errorCodesOf` derives a
 * route's: its operation's (the service's refusals), its access (an OAuth scope it was not granted, a plan below its
 * policy's), the field codes of its argument schema, and INTERNAL_ERROR. The key, the body and the rate limits are
 * checked for the whole POST before any call runs, and are refused as JSON-RPC errors, never as tool errors.
 */
export function errorCodesOfTool(spec: ToolSpec): ReadonlySet<ErrorCode> {
  let codes = declaredCodes.get(spec);
  if (codes) return codes;
  const tierCode = spec.policy.tierCode ?? 'TIER_REQUIRED';
  codes = new Set<ErrorCode>([
    ...spec.operation.errors,
    'INSUFFICIENT_SCOPE',
    ...(spec.policy.minTier !== 'any' && isErrorCode(tierCode) ? [tierCode] : []),
    ...validationCodes(spec.listed.input, true),
    'INTERNAL_ERROR',
  ]);
  declaredCodes.set(spec, codes);
  return codes;
}

const declaredCodes = new WeakMap<ToolSpec, ReadonlySet<ErrorCode>>();

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
    const result = await spec.run(checkArguments(spec.listed.input, raw), context);
    if (result instanceof ToolImage) return answer(spec, result.details, [{ type: 'image', data: result.png.toString('base64'), mimeType: 'image/png' }]);
    return answer(spec, result);
  } catch (error) {
    await settle(error, admission);
    if (error instanceof AppError) {
      // A code outside the tool's declared set is reported as REST reports a route's (src/http/declared-codes.ts).
      checkToolCode(context.core, context.log, spec.name, errorCodesOfTool(spec), error.code);
      return toolError(error);
    }
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
