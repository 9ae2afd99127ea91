import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { fromSchemaIssues } from './issues.js';

/** Fastify's own Ajv options (@fastify/ajv-compiler), but for `coerceTypes`: JSON is typed strictly, text is coerced. */
export const ajvOf = (coerceTypes: boolean) => {
  const options: Options = { coerceTypes, useDefaults: true, removeAdditional: true, addUsedSchema: false, allErrors: false };
  const ajv = new Ajv(options);
  addFormats.default(ajv);
  // Destinations are checked by the link rules (which also refuse javascript: and friends), not by Ajv's stricter
  // RFC 3986 format, which would reject URLs that browsers accept.
  ajv.addFormat('uri', true);
  return ajv;
};

/** The strict Ajv every JSON input outside a route's body goes through: tool arguments, bulk items, import rows. */
const json = ajvOf(false);
const compiled = new WeakMap<object, ValidateFunction>();

/** The compiled check of a schema (a TypeBox schema or its portable JSON Schema), compiled once. */
export function validatorOf(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = json.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/**
 * A JSON value checked against an operation's input schema as a route checks its body: a copy (Ajv drops unknown
 * fields and fills defaults in what it checks) or the AppError REST answers for the first broken rule. Used where
 * one request carries many inputs that must fail one by one (bulk items, import rows), so each is held to the very
 * schema a single create is; `whole` names the input in a refusal of all of it ("The item").
 */
export function checkInput<T>(schema: object, raw: unknown, whole: string): T {
  const validate = validatorOf(schema);
  const value: unknown = structuredClone(raw);
  if (!validate(value)) throw fromSchemaIssues(validate.errors ?? [], whole);
  return value as T;
}
