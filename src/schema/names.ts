import type { TSchema } from '@sinclair/typebox';

/**
 * The name a schema has in the OpenAPI document (`components.schemas`, src/http/openapi-components.ts), kept on the
 * schema under a symbol rather than as an `$id`: Ajv refuses a schema that holds the same `$id` twice (a body with two
 * links), and Ajv, the serializer, TypeBox and MCP's tools/list never see a symbol, so the schemas that run stay
 * exactly as they were and only the document gets `$ref`s.
 */
const SCHEMA_NAME = Symbol('snip.openapi.schemaName');

interface SchemaName {
  readonly name: string;
  /** The schema as it was named: a copy that differs from it (a `Nullable` of it, which spreads the symbol along) is not it. */
  readonly json: string;
}

/**
 * Names `schema` in the OpenAPI document, where every use of it becomes a `$ref` to `#/components/schemas/<name>`;
 * `description` says what it is (there, and as the description of a response that is this schema alone).
 */
export function named<T extends TSchema>(name: string, description: string, schema: T): T {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new Error(`A schema name is PascalCase letters and digits: ${name}`);
  schema.description = description;
  const mark: SchemaName = { name, json: JSON.stringify(schema) };
  return Object.assign(schema, { [SCHEMA_NAME]: mark });
}

/** The name of `node` when it is a named schema (or an equal copy of one, as TypeBox's `Optional` makes), else null. */
export function nameOf(node: unknown): { name: string; json: string } | null {
  if (typeof node !== 'object' || node === null) return null;
  const mark = (node as { [SCHEMA_NAME]?: SchemaName })[SCHEMA_NAME];
  if (!mark) return null;
  const json = JSON.stringify(node);
  return json === mark.json ? { name: mark.name, json } : null;
}
