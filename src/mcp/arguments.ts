import type { ValidateFunction } from 'ajv';
import type { TObject } from '@sinclair/typebox';
import { fromSchemaIssues } from '../http/schema-issues.js';
import { ajvOf } from '../http/validators.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../http/json-limits.js';
import { InvalidParams } from './json-rpc.js';

/**
 * Tool arguments are checked as REST's JSON bodies are: by the same strict Ajv (no type coercion: a model sends JSON
 * values), against a TypeBox schema, errors translated by the same code (src/http/schema-issues.ts). Arguments a
 * tool does not take are dropped rather than passed on (its schema says `additionalProperties: false`,
 * src/mcp/tool.ts; nested objects are passed on whole, as REST passes them).
 */
const ajv = ajvOf(false);

const compiled = new WeakMap<TObject, ValidateFunction>();

/**
 * The arguments, checked (and defaulted) in place; a bad one throws the AppError REST gives for that field, arguments
 * nested past MAX_JSON_DEPTH an InvalidParams (a JSON-RPC error, not a tool error: nothing of them was read).
 */
export function checkArguments<T>(schema: TObject, raw: unknown): T {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  // Before anything walks them recursively (the copy, Ajv, a service): JSON-RPC's invalid params, with the call's id.
  if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) {
    throw new InvalidParams(`Invalid params: the arguments nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`, { code: 'INVALID_ARGUMENTS' });
  }
  // A copy, since Ajv drops unknown fields and fills defaults in the object it checks.
  const args: unknown = raw === undefined || raw === null ? {} : structuredClone(raw);
  if (!validate(args)) throw fromSchemaIssues(validate.errors ?? [], 'The arguments');
  return args as T;
}
