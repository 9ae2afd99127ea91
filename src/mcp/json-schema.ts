import type { TSchema } from '@sinclair/typebox';

/** A schema as tools/list sends it: plain JSON, no TypeBox symbols. */
export type JsonSchema = { [key: string]: unknown };

const isNode = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every schema node below `value` that names itself with `$id`, by that id. */
function namedNodes(value: unknown, found: Map<string, JsonSchema>): Map<string, JsonSchema> {
  if (Array.isArray(value)) for (const item of value) namedNodes(item, found);
  else if (isNode(value)) {
    if (typeof value.$id === 'string') found.set(value.$id, value);
    for (const item of Object.values(value)) namedNodes(item, found);
  }
  return found;
}

/**
 * One node in the dialect tools/list speaks. `nullable: true` (OpenAPI 3.0's word, which JSON Schema validators ignore)
 * becomes `anyOf: [the schema, {type: "null"}]`, with the description on the whole; a `$ref` is replaced by the schema
 * it names, and `$id`s are dropped, so each tool's schema stands alone.
 */
function convert(value: unknown, named: ReadonlyMap<string, JsonSchema>, seen: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => convert(item, named, seen));
  if (!isNode(value)) return value;
  const { $id: _id, $ref, nullable, ...rest } = value;
  if (typeof $ref === 'string') {
    const target = named.get($ref.replace(/^#\/components\/schemas\//, ''));
    // A dangling reference would reach every client as an unreadable schema: refuse to start instead.
    if (!target || seen.includes($ref)) throw new Error(`MCP schema: cannot inline $ref ${$ref}`);
    return convert({ ...target, ...rest, ...(nullable === undefined ? {} : { nullable }) }, named, [...seen, $ref]);
  }
  const node: JsonSchema = {};
  for (const [key, item] of Object.entries(rest)) node[key] = key === 'properties' || key === 'patternProperties' ? convertEach(item, named, seen) : convert(item, named, seen);
  if (nullable !== true) return node;
  const { description, ...shape } = node;
  return { ...(description === undefined ? {} : { description }), anyOf: [shape, { type: 'null' }] };
}

/** A map of names to schemas (`properties`): each value converted, the names kept as they are. */
const convertEach = (value: unknown, named: ReadonlyMap<string, JsonSchema>, seen: readonly string[]) =>
  isNode(value) ? Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, convert(schema, named, seen)])) : value;

/**
 * A TypeBox schema (the one REST's routes use) as self-contained JSON Schema that is valid in draft 2020-12 (the MCP
 * default dialect) and draft-07 alike, and that function-calling APIs read: no `nullable`, no type lists, no `$ref`.
 * `shared` holds schemas a `$ref` may name that are not inside this one.
 */
export function portableSchema(schema: TSchema, shared: readonly TSchema[] = []): JsonSchema {
  const json = JSON.parse(JSON.stringify(schema)) as JsonSchema;
  const named = namedNodes(JSON.parse(JSON.stringify(shared)) as unknown, namedNodes(json, new Map()));
  return convert(json, named, []) as JsonSchema;
}
