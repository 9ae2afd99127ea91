type Schema = Record<string, unknown>;

const isNull = (s: unknown): boolean => typeof s === 'object' && s !== null && (s as Schema).type === 'null';

/**
 * A tool's input schema in the dialect every major model provider reads: one `type` per property. zod writes a
 * nullable field as `type: ["string", "null"]` or `anyOf: [{…}, {type: "null"}]`, which single-type dialects
 * (Gemini's function declarations) reject; here it becomes the one type with `nullable: true`, as OpenAPI 3.0
 * and Gemini say it. Tools accept null there all the same (their zod schemas do); descriptions say what it means.
 */
export function portableSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(portableSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Schema = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, portableSchema(v)]));
  if (Array.isArray(out.type) && out.type.includes('null')) {
    const types = out.type.filter((t) => t !== 'null');
    if (types.length === 1) return { ...out, type: types[0], nullable: true };
  }
  if (Array.isArray(out.anyOf) && out.anyOf.length === 2 && out.anyOf.some(isNull)) {
    const { anyOf, ...rest } = out;
    const other = (anyOf as Schema[]).find((s) => !isNull(s))!;
    return { ...other, ...rest, nullable: true };
  }
  return out;
}
