import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { TObject } from '@sinclair/typebox';
import { fromSchemaIssues } from '../http/schema-issues.js';

/**
 * Tool arguments are checked as REST bodies are: Ajv against a TypeBox schema, errors translated by the same code
 * (src/http/schema-issues.ts). Two differences, both because arguments are JSON values a model wrote: no type
 * coercion (REST coerces query strings), and arguments a tool does not take are dropped rather than passed on (its schema
 * says `additionalProperties: false`, src/mcp/tool.ts; nested objects are passed on whole, as REST passes them).
 */
const ajv = new Ajv({ coerceTypes: false, useDefaults: true, removeAdditional: true, allErrors: false, strict: false });
addFormats.default(ajv);
// As on REST: destinations are judged by the link rules, which accept what browsers accept.
ajv.addFormat('uri', true);

const compiled = new WeakMap<TObject, ValidateFunction>();

/** The arguments, checked (and defaulted) in place; a bad one throws the AppError REST gives for that field. */
export function checkArguments<T>(schema: TObject, raw: unknown): T {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  // A copy, since Ajv drops unknown fields and fills defaults in the object it checks.
  const args: unknown = raw === undefined || raw === null ? {} : structuredClone(raw);
  if (!validate(args)) throw fromSchemaIssues(validate.errors ?? [], 'The arguments');
  return args as T;
}
