import { nameOf } from '../schema/names.js';

/** The parts of a route schema the document writes as schemas (a query's properties become parameters). */
type RouteSchema = { body?: unknown; querystring?: unknown; response?: Record<string, unknown> };

const REF_PREFIX = '#/components/schemas/';

/** A copy of `node` in which every named schema (src/schema/names.ts) is a `$ref`; `node` itself stays unless `self`. */
function referTo(node: unknown, self: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => referTo(item, true));
  if (typeof node !== 'object' || node === null) return node;
  const named = self ? nameOf(node) : null;
  if (named) return { $ref: `${REF_PREFIX}${named.name}` };
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, referTo(value, true)]));
}

/**
 * A request schema as a client writes it: a property with a default is never missing (Ajv fills it in), so it is
 * not required to send, whatever the schema that runs says (`limit` and `offset` of a page are required there, so
 * that a handler reads numbers).
 */
function asSent(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(asSent);
  if (typeof node !== 'object' || node === null) return node;
  const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, asSent(value)])) as { required?: unknown; properties?: Record<string, object> };
  const { properties } = copy;
  if (Array.isArray(copy.required) && properties) {
    const required = copy.required.filter((name) => !(typeof name === 'string' && properties[name] && 'default' in properties[name]));
    if (required.length > 0) copy.required = required;
    else delete copy.required;
  }
  return copy;
}

/** Every object in `node`, depth first. */
function* objectsIn(node: unknown): Generator<object> {
  if (typeof node !== 'object' || node === null) return;
  if (!Array.isArray(node)) yield node;
  for (const value of Object.values(node)) yield* objectsIn(value);
}

/**
 * The document's named schemas. Routes keep their schemas whole (they validate and serialize with them); as each
 * route registers, the named schemas in its body and responses are collected here, and when the document is built
 * each use of one is written as a `$ref` to it, so a link or an error body is written once, and generated clients get
 * a type of that name.
 */
export class SchemaComponents {
  /**
   * `components.schemas` of the document, filled as routes register. @fastify/swagger reads this object (and
   * converts each schema to OpenAPI 3.0 as it does a route's) each time it builds the document, after start.
   */
  readonly schemas: Record<string, unknown> = {};
  private readonly written = new Map<string, string>();

  /** Collects the named schemas of a route's body and responses; two different schemas under one name stop the start. */
  collect(schema: RouteSchema): void {
    for (const node of objectsIn([schema.body, schema.response])) {
      const named = nameOf(node);
      if (!named) continue;
      const seen = this.written.get(named.name);
      if (seen !== undefined && seen !== named.json) throw new Error(`Two different schemas are named ${named.name} in the OpenAPI document`);
      if (seen !== undefined) continue;
      this.written.set(named.name, named.json);
      this.schemas[named.name] = referTo(node, false);
    }
  }

  /**
   * The route schema as the document writes it: named schemas as `$ref`s, and the request as a client sends it
   * (`asSent`). A response that is a named schema keeps its description beside the `$ref`, where @fastify/swagger
   * reads the response's description (and then drops it from the schema, as a `$ref` takes no siblings).
   */
  refer<S extends RouteSchema>(schema: S): S {
    const response = schema.response && Object.fromEntries(
      Object.entries(schema.response).map(([status, body]) => {
        const description = (body as { description?: unknown }).description;
        const written = referTo(body, true) as Record<string, unknown>;
        return [status, typeof description === 'string' && '$ref' in written ? { ...written, description } : written];
      }),
    );
    return {
      ...schema,
      ...(schema.body === undefined ? {} : { body: asSent(referTo(schema.body, true)) }),
      ...(schema.querystring === undefined ? {} : { querystring: asSent(schema.querystring) }),
      ...(response ? { response } : {}),
    };
  }

  /**
   * Writes once, in `components.responses`, each response that is only a named schema in JSON under that schema's
   * description (an error body above all, which nearly every operation answers for several statuses), and refers
   * to it from each operation. Takes the built document and changes it in place.
   */
  shareResponses(document: { paths?: object; components?: { responses?: Record<string, unknown> } }): void {
    const shared: Record<string, unknown> = {};
    for (const item of Object.values(document.paths ?? {}) as Record<string, { responses?: Record<string, unknown> }>[]) {
      for (const operation of Object.values(item)) {
        const responses = operation.responses ?? {};
        for (const [status, response] of Object.entries(responses)) {
          const name = namedResponse(response);
          if (name === null) continue;
          const json = JSON.stringify(response);
          const seen = shared[name];
          if (seen !== undefined && JSON.stringify(seen) !== json) continue;
          shared[name] = response;
          responses[status] = { $ref: `#/components/responses/${name}` };
        }
      }
    }
    if (Object.keys(shared).length > 0) document.components = { ...document.components, responses: { ...document.components?.responses, ...shared } };
  }
}

/** The schema name of a response that is `{ description, content: { 'application/json': { schema: { $ref } } } }`, else null. */
function namedResponse(response: unknown): string | null {
  const { description, content, ...rest } = response as { description?: unknown; content?: Record<string, unknown> };
  if (typeof description !== 'string' || Object.keys(rest).length > 0 || !content) return null;
  const media = Object.entries(content);
  if (media.length !== 1 || media[0]![0] !== 'application/json') return null;
  const { schema, ...other } = media[0]![1] as { schema?: { $ref?: unknown } };
  if (Object.keys(other).length > 0 || !schema || Object.keys(schema).length !== 1 || typeof schema.$ref !== 'string') return null;
  return schema.$ref.startsWith(REF_PREFIX) ? schema.$ref.slice(REF_PREFIX.length) : null;
}
