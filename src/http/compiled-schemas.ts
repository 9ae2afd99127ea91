import type { ValidateFunction } from 'ajv';
import fastJsonStringify from 'fast-json-stringify';
import { ajvOf } from '../schema/check.js';

/**
 * Route schemas compiled once per process, whichever app asks. Snip's routes are declared from its operations'
 * schemas, so every app a process builds (the test suites build a few thousand; a process rebuilding its app)
 * registers the same few hundred schemas, and compiling them (Ajv checks and fast-json-stringify serializers)
 * was a third of what building an app cost. A compiled check or serializer holds no state of the app that asked
 * for it. Keyed by the schema's JSON, not its object, so a schema written out again per app (a plan's tier names in
 * an enum) is still found; different text is a different entry, so nothing is shared that would check differently.
 */
const checks = new Map<string, ValidateFunction>();
const serializers = new Map<string, (data: unknown) => string>();

/** Fastify's own Ajv options, with JSON bodies typed strictly and text (query, path, headers) coerced: src/http/validators.ts. */
const strict = ajvOf(false);
const coercing = ajvOf(true);

/** `wrap` is applied once to a compiled text check and kept with it: its one caller always passes the same one. */
export function compiledCheck(schema: object, httpPart: string | undefined, wrap: (check: ValidateFunction) => ValidateFunction): ValidateFunction {
  const body = httpPart === 'body';
  const key = `${body ? 'body' : 'text'}\u0000${JSON.stringify(schema)}`;
  let check = checks.get(key);
  if (check === undefined) {
    check = body ? strict.compile(schema) : wrap(coercing.compile(schema));
    checks.set(key, check);
  }
  return check;
}

/** What Fastify's default serializer compiler builds (fast-json-stringify; Snip adds no shared schemas), kept. */
export function compiledSerializer(schema: object): (data: unknown) => string {
  const key = JSON.stringify(schema);
  let serialize = serializers.get(key);
  if (serialize === undefined) {
    serialize = fastJsonStringify(schema) as (data: unknown) => string;
    serializers.set(key, serialize);
  }
  return serialize;
}
