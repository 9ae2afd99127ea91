import type { ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors, type AppError } from '../errors.js';
import { nulError } from '../schema/issues.js';
import { compiledCheck, compiledSerializer } from './compiled-schemas.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route answers a NUL (`%00`) in its URL itself: the redirect routes, whose answer to it is the 404 page of
     * any unknown link (src/redirects/routes.ts), not a JSON 400.
     */
    nulInUrl?: 'own';
  }
}

/**
 * Ajv coerces the text "Infinity" to the number Infinity and then skips the numeric keywords (`maximum` among them)
 * for it, as for no number at all: `?offset=Infinity` would pass. A query or path starts as text, so a number in it
 * that is not finite came from that coercion, and is refused as the integer it is not.
 */
const finite = (validate: ValidateFunction): ValidateFunction => {
  const checked = ((data: unknown) => {
    if (!validate(data)) {
      checked.errors = validate.errors;
      return false;
    }
    const field = Object.entries((data ?? {}) as Record<string, unknown>).find(([, v]) => typeof v === 'number' && !Number.isFinite(v))?.[0];
    checked.errors = field === undefined ? null : [{ keyword: 'type', instancePath: `/${field}`, schemaPath: '#/type', params: { type: 'integer' } }];
    return field === undefined;
  }) as ValidateFunction;
  return checked;
};

/** The properties a route's query or path schema names, so a refusal names a field only where the schema has it. */
const namesOf = (schema: unknown): ReadonlySet<string> => new Set(Object.keys((schema as { properties?: object } | undefined)?.properties ?? {}));

const firstNul = (values: unknown): string | undefined => {
  for (const [name, value] of Object.entries((values ?? {}) as Record<string, unknown>)) {
    if ([value].flat().some((v) => typeof v === 'string' && v.includes('\u0000'))) return name;
  }
  return undefined;
};

/**
 * How Snip checks its inputs, for every route:
 *
 * - JSON bodies are typed strictly: `"5"` is not the integer 5, `true` not 1. Queries and paths are text, so their
 *   values are still coerced (`?limit=5`), as Fastify's single Ajv did for every part. Both Ajv instances keep
 *   Fastify's options otherwise, and `coerceTypes: true` rather than Fastify's `'array'`, which would wrap a lone
 *   value into a list (`"GB"` passing as `["GB"]`).
 * - A NUL (`%00`) in the path or the query is a 400 naming the field (`INVALID_<FIELD>`, else BAD_REQUEST), after the
 *   key check (so 401 still comes first) and before any handler: no database stores it in text. Requests without
 *   `%00` in their URL pay one substring search. A NUL in a JSON body is refused by the body parser
 *   (src/http/error-handler.ts).
 *
 * Checks and serializers are compiled once per process (src/http/compiled-schemas.ts). Call before any route is
 * registered (it sets the validator and serializer compilers and an onRoute hook).
 */
export function registerValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => compiledCheck(schema, httpPart, finite));
  app.setSerializerCompiler(({ schema }) => compiledSerializer(schema));

  app.addHook('onRoute', (route) => {
    if (route.config?.nulInUrl === 'own') return;
    const params = namesOf(route.schema?.params);
    const query = namesOf(route.schema?.querystring);
    const refuseNul = async (request: FastifyRequest) => {
      if (!request.url.includes('%00')) return;
      throw nulInUrl(request, params, query);
    };
    // Appended: the key check (src/http/access.ts) is put first, whichever onRoute hook runs first.
    route.onRequest = [...[route.onRequest ?? []].flat(), refuseNul];
  });
}

function nulInUrl(request: FastifyRequest, params: ReadonlySet<string>, query: ReadonlySet<string>): AppError {
  const param = firstNul(request.params);
  if (param !== undefined) return params.has(param) ? nulError([param], 'The path') : errors.badRequest('The path must not contain a NUL character (%00)');
  const field = firstNul(request.query);
  if (field !== undefined && query.has(field)) return nulError([field], 'The query');
  return errors.badRequest('The URL must not contain a NUL character (%00)');
}

/**
 * For a route whose body is optional (every field of it is): a request without one is read as `{}`, so a client
 * that sends nothing is not refused for the schema's object type.
 */
export const optionalBody = async (request: { body: unknown }): Promise<void> => {
  request.body ??= {};
};
