import { fromSchemaIssues, type SchemaIssue } from '../schema/issues.js';
import { validatorOf } from '../schema/check.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../http/json-limits.js';
import { InvalidParams } from './json-rpc.js';
import type { JsonSchema } from './json-schema.js';

/**
 * Tool arguments are checked as REST's JSON bodies are: by the same strict Ajv (no type coercion: a model sends JSON
 * values), against the schema tools/list shows (the tool's TypeBox schema in portable JSON Schema, src/mcp/json-schema.ts),
 * errors translated by the same code (src/schema/issues.ts). Arguments a tool does not take are dropped rather
 * than passed on (its schema says `additionalProperties: false`, src/mcp/tool.ts; nested objects are passed on whole,
 * as REST passes them).
 */
const NULL_BRANCH = /\/anyOf\/\d+\/type$/;

/**
 * A value that may be null (`anyOf: [X, {type: "null"}]`) and is neither null nor right is refused for what is wrong
 * with it as an X (`must be a date-time`), as REST's `nullable: true` field is, not with "matches no branch".
 */
function withoutNullBranches(issues: SchemaIssue[]): SchemaIssue[] {
  const nullBranches = issues.filter((i) => i.keyword === 'type' && i.params.type === 'null' && NULL_BRANCH.test(i.schemaPath));
  const unions = new Set(nullBranches.map((i) => i.schemaPath.replace(/\/\d+\/type$/, '')));
  const rest = issues.filter((i) => !nullBranches.includes(i) && !(i.keyword === 'anyOf' && unions.has(i.schemaPath)));
  return rest.length > 0 ? rest : issues;
}

/**
 * The arguments, checked (and defaulted) in place; a bad one throws the AppError REST gives for that field, arguments
 * nested past MAX_JSON_DEPTH an InvalidParams (a JSON-RPC error, not a tool error: nothing of them was read).
 */
export function checkArguments<T>(schema: JsonSchema, raw: unknown): T {
  const validate = validatorOf(schema);
  // Before anything walks them recursively (the copy, Ajv, a service): JSON-RPC's invalid params, with the call's id.
  if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) {
    throw new InvalidParams(`Invalid params: the arguments nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`, { code: 'INVALID_ARGUMENTS' });
  }
  // A copy, since Ajv drops unknown fields and fills defaults in the object it checks.
  const args: unknown = raw === undefined || raw === null ? {} : structuredClone(raw);
  if (!validate(args)) throw fromSchemaIssues(withoutNullBranches(validate.errors ?? []), 'The arguments');
  return args as T;
}
