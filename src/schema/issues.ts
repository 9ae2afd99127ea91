import type { ErrorObject } from 'ajv';
import { AppError } from '../errors.js';
import { validationError, type BrokenRule, type FieldPath } from './messages.js';

/**
 * Ajv's errors as the API's: REST (Fastify's Ajv) and MCP tool arguments (src/mcp/arguments.ts) are checked by
 * Ajv against the same kind of TypeBox schema, and translated here, so one broken rule reads the same everywhere.
 */

/** One Ajv error, as Fastify passes it on and as the MCP argument check gets it. */
export type SchemaIssue = Pick<ErrorObject, 'keyword' | 'params' | 'instancePath' | 'schemaPath'>;

/** `/links/0/url` as ['links', 0, 'url'] (JSON Pointer, with its ~1 and ~0 escapes). */
const pathOf = (pointer: string): FieldPath =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s.replace(/~1/g, '/').replace(/~0/g, '~')));

/** Ajv's keyword and params as the rule broken; keywords the API's schemas do not use read "is invalid". */
function ruleOf({ keyword, params }: SchemaIssue): BrokenRule {
  const limit = Number(params.limit);
  switch (keyword) {
    case 'required':
      return { rule: 'required' };
    case 'enum':
      return { rule: 'choice', values: params.allowedValues as unknown[] };
    case 'const':
      return { rule: 'choice', values: [params.allowedValue] };
    case 'minimum':
      return { rule: 'atLeast', limit };
    case 'maximum':
      return { rule: 'atMost', limit };
    case 'exclusiveMinimum':
      return { rule: 'above', limit };
    case 'exclusiveMaximum':
      return { rule: 'below', limit };
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
      return { rule: keyword, limit };
    case 'minProperties':
      return { rule: 'minFields', limit };
    case 'type':
      return { rule: 'type', type: String(params.type) };
    case 'format':
      return { rule: 'format', format: String(params.format) };
    case 'pattern':
      return { rule: 'pattern', pattern: String(params.pattern) };
    case 'additionalProperties':
      return { rule: 'unknownField', name: String(params.additionalProperty) };
    default:
      return { rule: 'invalid' };
  }
}

/**
 * A failed union (TypeBox's Union of Literals is an anyOf of consts) comes as one error per branch, then its own;
 * when every branch is a constant, the constants are the values allowed.
 */
function unionRule(union: SchemaIssue, issues: SchemaIssue[]): BrokenRule {
  const branches = issues.filter((i) => i.schemaPath.startsWith(`${union.schemaPath}/`));
  return branches.every((b) => b.keyword === 'const') ? { rule: 'choice', values: branches.map((b) => b.params.allowedValue) } : { rule: 'invalid' };
}

/**
 * Schema failures become `MISSING_<FIELD>` or `INVALID_<FIELD>` with a sentence naming the field (see
 * validation-messages); `whole` names the input when the rule is about all of it ("The body", "The arguments").
 */
export function fromSchemaIssues(issues: SchemaIssue[], whole: string | undefined): AppError {
  const first = issues[0]!;
  const union = issues.find((i) => (i.keyword === 'anyOf' || i.keyword === 'oneOf') && first.schemaPath.startsWith(`${i.schemaPath}/`));
  const issue = union ?? first;
  // Ajv reports a missing property at its parent; the field is the one missing.
  const missing = issue.keyword === 'required' ? [String(issue.params.missingProperty)] : [];
  return validationError([...pathOf(issue.instancePath), ...missing], union ? unionRule(union, issues) : ruleOf(issue), whole);
}


/**
 * Where a NUL character (U+0000) is in a JSON value or a parsed query: the path of the first string (or property
 * name) holding one, or null. No database Snip runs on stores it in text (PostgreSQL refuses it outright), so no
 * input may carry one.
 */
export function nulPath(value: unknown, path: FieldPath = []): FieldPath | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = nulPath(value[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return path;
    const found = nulPath(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

/** The 400 for a NUL at `path` of an input (`whole` names the input): `INVALID_<FIELD>`, or INVALID_BODY for the input itself. */
export function nulError(path: FieldPath, whole: string): AppError {
  const { code, message } = validationError(path, { rule: 'invalid' }, whole);
  return new AppError(code, message.replace(/ is invalid$/, ' must not contain a NUL character (U+0000)'));
}
