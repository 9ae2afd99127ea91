import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { settle, tierRefusal, type Admission, type Policy } from '../access/policy.js';
import type { RequestId } from './admission.js';
import type { Caller } from '../accounts/service.js';
import type { Core } from '../core.js';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, errors } from '../errors.js';
import { validationError, type BrokenRule } from '../http/validation-messages.js';


export interface ToolContext {
  core: Core;
  caller: Caller;
  /** The charge of each call of this POST, by JSON-RPC id (src/mcp/admission.ts). */
  admissions?: ReadonlyMap<RequestId, Admission>;
  /** Where a tool's unexpected failure is logged (the request's logger). */
  log?: FastifyBaseLogger;
}

export interface ToolSpec<S extends z.ZodRawShape> {
  name: string;
  description: string;
  /** Who may call it and what a call costs: the policy of the REST operation it mirrors. */
  policy: Policy;
  input: S;
  run: (args: z.infer<z.ZodObject<S>>, context: ToolContext) => Promise<unknown>;
}

/** Keeps each tool's argument types tied to its schema. */
export const tool = <S extends z.ZodRawShape>(spec: ToolSpec<S>): ToolSpec<z.ZodRawShape> => spec as unknown as ToolSpec<z.ZodRawShape>;

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

/**
 * The schema the SDK is given. The SDK checks arguments before a tool runs and answers a failure in its own words,
 * with no code. This one keeps the definition of the tool's schema, which tools/list reads, so the listed
 * inputSchema stays exact, but lets any arguments through; `checkArguments` then refuses a bad one as REST does.
 */
class ListedOnly<S extends z.ZodRawShape> extends z.ZodObject<S> {
  override _parse(input: z.ParseInput): z.ParseReturnType<this['_output']> {
    return z.OK(input.data);
  }
}

/** zod's string checks by the names of JSON Schema formats, which the messages know. */
const ZOD_FORMATS: Record<string, string> = { url: 'uri', datetime: 'date-time' };

/** zod's issue as the rule broken (the same rules REST's Ajv errors translate to). */
function ruleOf(issue: z.ZodIssue): BrokenRule {
  switch (issue.code) {
    case z.ZodIssueCode.invalid_type:
      return issue.received === 'undefined' ? { rule: 'required' } : { rule: 'type', type: issue.expected };
    case z.ZodIssueCode.invalid_enum_value:
      return { rule: 'choice', values: issue.options };
    case z.ZodIssueCode.invalid_literal:
      return { rule: 'choice', values: [issue.expected] };
    case z.ZodIssueCode.too_small:
    case z.ZodIssueCode.too_big: {
      const small = issue.code === z.ZodIssueCode.too_small;
      const limit = Number(small ? issue.minimum : issue.maximum);
      if (issue.type === 'string') return { rule: small ? 'minLength' : 'maxLength', limit };
      if (issue.type === 'array') return { rule: small ? 'minItems' : 'maxItems', limit };
      if (small) return { rule: issue.inclusive ? 'atLeast' : 'above', limit };
      return { rule: issue.inclusive ? 'atMost' : 'below', limit };
    }
    case z.ZodIssueCode.invalid_string:
      if (issue.validation === 'regex') return { rule: 'pattern' };
      return typeof issue.validation === 'string' ? { rule: 'format', format: ZOD_FORMATS[issue.validation] ?? issue.validation } : { rule: 'invalid' };
    case z.ZodIssueCode.unrecognized_keys:
      return { rule: 'unknownField', name: issue.keys[0] ?? '' };
    default:
      return { rule: 'invalid' };
  }
}

/** The zod schema at `path` below `schema`, through optional, nullable, array and object wrappers. */
function schemaAt(schema: z.ZodTypeAny, path: readonly (string | number)[]): z.ZodTypeAny | undefined {
  let current: z.ZodTypeAny | undefined = schema;
  const unwrap = (t: z.ZodTypeAny): z.ZodTypeAny =>
    t instanceof z.ZodOptional || t instanceof z.ZodNullable ? unwrap(t.unwrap()) : t instanceof z.ZodDefault ? unwrap(t.removeDefault()) : t;
  for (const step of path) {
    if (!current) return undefined;
    current = unwrap(current);
    if (current instanceof z.ZodObject && typeof step === 'string') current = (current.shape as z.ZodRawShape)[step];
    else if (current instanceof z.ZodArray && typeof step === 'number') current = current.element as z.ZodTypeAny;
    else return undefined;
  }
  return current && unwrap(current);
}

/** The tool's arguments, parsed by its schema; a bad one is the AppError REST gives for that field. */
function checkArguments(schema: z.ZodObject<z.ZodRawShape>, args: unknown): Record<string, unknown> {
  const parsed = schema.safeParse(args ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  let broken = ruleOf(issue);
  // zod checks "is a number" before "is whole"; REST's schema says integer in one go, and so does this answer.
  const target = schemaAt(schema, issue.path);
  if (broken.rule === 'type' && broken.type === 'number' && target instanceof z.ZodNumber && target.isInt) broken = { rule: 'type', type: 'integer' };
  throw validationError(issue.path, broken, 'The arguments');
}

/**
 * Registers a tool whose rules live in the services it calls. Its call was charged with the rest of the POST
 * (src/mcp/admission.ts); here the plan is checked, then the arguments; a refusal, a bad argument or a service's
 * AppError becomes a tool error with the stable code REST answers, and a 429 from a service refunds the call.
 */
export function register(server: McpServer, spec: ToolSpec<z.ZodRawShape>, context: ToolContext): void {
  const schema = z.object(spec.input);
  const { core, caller } = context;
  server.registerTool(spec.name, { description: spec.description, inputSchema: new ListedOnly(schema._def) }, (async (
    raw: unknown,
    extra: { requestId: RequestId },
  ) => {
    const admission = context.admissions?.get(extra.requestId) ?? null;
    try {
      const refusal = tierRefusal(core.config.plans, caller, spec.policy);
      if (refusal) throw refusal;
      const args = checkArguments(schema, raw);
      const result = await spec.run(args as never, context);
      if (result instanceof ToolImage) {
        return { content: [{ type: 'image', data: result.png.toString('base64'), mimeType: 'image/png' }, ...text(result.details).content] };
      }
      return text(result);
    } catch (error) {
      await settle(error, admission);
      if (error instanceof AppError) return text({ error: true, code: error.code, message: error.message }, true);
      // A database's or a library's own words never reach a client: the log keeps them, the caller gets REST's 500.
      context.log?.error({ err: error, tool: spec.name }, 'tool call failed');
      const internal = errors.internalError();
      return text({ error: true, code: internal.code, message: internal.message }, true);
    }
  }) as never);
}

/** Shared argument shapes, described for the model reading them. */
export const args = {
  shortPath: z.string().min(1).describe('The short link: its 6-character code, or prefix/slug for a namespaced link'),
  limit: z.number().int().min(1).max(100).optional().describe('Page size, 1-100 (default 20)'),
  offset: z.number().int().min(0).optional().describe('Items to skip (default 0)'),
  dateTime: (what: string) => z.string().describe(`${what}, ISO 8601 date-time (e.g. 2026-12-31T23:59:59Z)`),
};
