import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { onlyRefuses } from './methods.js';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { isErrorCode, statusOf, type ErrorCode } from '../errors.js';
import { ErrorBody, errorResponses, RateLimitBodyB } from '../schema/shapes.js';
import { SchemaComponents } from './openapi-components.js';
import { OPENAPI_TAGS } from './openapi-tags.js';
import { validationCodes } from '../schema/messages.js';

/**
 * Generates /openapi.yaml from the route schemas. Routes that need a key get the bearer scheme and the
 * 401/403 bodies added here, once, rather than in every route file, and public ones an empty `security`; every
 * operation gets `x-error-codes`, the codes it may answer with by status (see `errorCodesOf`). Named schemas
 * (src/schema/names.ts) are written once, in `components.schemas`, and referred to.
 */
declare module 'fastify' {
  interface FastifyInstance {
    /** Every operation the document lists, as `METHOD /path` (no HEAD twins, nothing `isOperation` leaves out); the OpenAPI test checks them all. */
    registeredRoutes: string[];
  }
  interface FastifyContextConfig {
    /** The catalogue codes the route's service may refuse with; access, schema and framework codes are added. */
    errors?: readonly ErrorCode[];
  }
}

/** What the framework answers for any JSON body: not JSON, another media type, too large, or another 4xx of its own. */
const BODY_CODES: ErrorCode[] = ['INVALID_JSON', 'UNSUPPORTED_MEDIA_TYPE', 'BODY_TOO_LARGE', 'BAD_REQUEST'];

/**
 * The codes an operation may answer with: those its route declares (`config.errors`, the service's refusals),
 * those of its access (a key, the plan, the rate limits), the field codes of its body, query and path schemas
 * (`validationCodes`), the framework's body codes and INTERNAL_ERROR.
 */
export function errorCodesOf(route: Pick<RouteOptions, 'config' | 'schema' | 'method' | 'url'>): ErrorCode[] {
  const codes = new Set<ErrorCode>(route.config?.errors ?? []);
  const access = route.config?.access;
  // What answers without a key is limited per client address (src/http/address-limits.ts).
  if (access && access.auth === 'none') codes.add('RATE_LIMITED');
  if (access && access.auth !== 'none') {
    codes.add('INVALID_API_KEY');
    // Required, or an Authorization header that names the scheme and no key (optional routes read it too).
    codes.add('API_KEY_REQUIRED');
    // A key or grant of an account the operator disabled (src/accounts/service.ts).
    codes.add('ACCOUNT_DISABLED');
    if (access.auth === 'required' && access.operator) codes.add('OPERATOR_REQUIRED');
    // A route that carries calls of its own (MCP) admits and charges each call, and answers its refusals inside.
    if (access.auth === 'optional' || access.charged !== false) {
      codes.add('RATE_LIMITED');
      // The dashboard's session cookie works wherever a key does, but on MCP (src/http/access.ts).
      codes.add('SESSION_REQUIRED');
      codes.add('CSRF_TOKEN_INVALID');
    }
    if (access.auth === 'required' && access.charged !== false && access.minTier !== 'any') {
      const tierCode = access.tierCode ?? 'TIER_REQUIRED';
      if (isErrorCode(tierCode)) codes.add(tierCode);
    }
  }
  const schema = route.schema as { body?: unknown; querystring?: unknown; params?: unknown } | undefined;
  if (schema?.body) for (const code of [...validationCodes(schema.body, true), ...BODY_CODES]) codes.add(code);
  for (const part of [schema?.querystring, schema?.params]) if (part) for (const code of validationCodes(part, false)) codes.add(code);
  // A host the route does not answer on (src/http/hosts.ts); only the health checks answer on every host.
  if (route.config?.hosts !== 'any') codes.add('MISDIRECTED_REQUEST');
  // Any request sent too slowly (src/http/server.ts).
  codes.add('REQUEST_TIMEOUT');
  codes.add('INTERNAL_ERROR');
  return [...codes].sort();
}

/** `{ '400': [...], '404': [...] }`: the codes by the status the catalogue gives them. */
function byStatus(codes: ErrorCode[]): Record<string, ErrorCode[]> {
  const grouped: Record<string, ErrorCode[]> = {};
  for (const code of codes) (grouped[String(statusOf(code))] ??= []).push(code);
  return grouped;
}

type ComponentSchema = NonNullable<NonNullable<NonNullable<FastifyDynamicSwaggerOptions['openapi']>['components']>['schemas']>[string];
type ComponentSchemas = Record<string, Exclude<ComponentSchema, { $ref: string }>>;

/**
 * What a client calls: a CORS preflight (a browser sends it, no client calls it) and a method a path only refuses
 * (405, as every path does for a method it does not serve) are no operations, and the document leaves them out.
 */
function isOperation(route: RouteOptions): boolean {
  const methods = [route.method].flat();
  if (methods.every((method) => method === 'OPTIONS')) return false;
  return !onlyRefuses(route);
}

/** `scopes` are the OAuth scopes the bearer scheme's authorization flow offers (src/oauth/scopes.ts, handed in by src/app.ts). */
export async function registerOpenApi(app: FastifyInstance, baseUrl: string, scopes: Readonly<Record<string, string>>): Promise<void> {
  app.decorate('registeredRoutes', [] as string[]);
  const components = new SchemaComponents();
  app.addHook('onRoute', (route: RouteOptions) => {
    // The API reference's own pages and scripts (/docs/*) are not part of the API.
    if ((route.schema as { hide?: boolean } | undefined)?.hide) return;
    if (!isOperation(route)) {
      route.schema = { ...route.schema, hide: true };
      return;
    }
    for (const method of [route.method].flat()) if (method !== 'HEAD') app.registeredRoutes.push(`${method} ${route.url}`);
    const schema = (route.schema ??= {});
    const typed = schema as { operationId?: string; security?: unknown; response?: Record<string, unknown>; 'x-error-codes'?: Record<string, ErrorCode[]> };
    // A route bound to an operation (`bind`) takes its operationId from it.
    typed.operationId ??= route.config?.operationId;
    const codes = byStatus(errorCodesOf(route));
    typed['x-error-codes'] = codes;
    // A request sent too slowly is answered by the server itself, before any route, in A's body (src/http/server.ts).
    typed.response = { 408: ErrorBody, ...typed.response };
    const access = route.config?.access;
    const rateLimited = { 429: route.config?.surface === 'B' ? RateLimitBodyB : ErrorBody };
    if (access?.auth === 'none') typed.response = { ...rateLimited, ...typed.response };
    if (!access || access.auth === 'none') {
      // Public: no credential is asked for (an empty requirement, rather than none stated).
      typed.security = [];
    } else {
      typed.security = access.auth === 'required' ? [{ bearerAuth: [] }, ...(access.oauth ? [{ oauth: [] }] : [])] : [{ bearerAuth: [] }, {}];
      typed.response = { ...errorResponses(401, ...(access.auth === 'required' ? [403] : [])), ...rateLimited, ...typed.response };
    }
    components.collect(typed);
  });

  await app.register(swagger, {
    // Each route as the document writes it: its named schemas as `$ref`s to `components.schemas`.
    transform: ({ schema, url }) => ({ schema: components.refer(schema as Parameters<SchemaComponents['refer']>[0]) as typeof schema, url }),
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject;
      components.shareResponses(document.openapiObject);
      return document.openapiObject;
    },
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Snip',
        version: '1.0.0',
        description: 'Self-hostable link shortener. Description A routes live under /api/v1 and /api; Description B routes under /api.',
        // Whoever runs this instance answers for it; the software is MIT-licensed (package.json).
        contact: { name: 'The operator of this Snip instance', url: baseUrl },
        license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
      },
      servers: [{ url: baseUrl }],
      tags: [...OPENAPI_TAGS],
      components: {
        // Route schemas as @fastify/swagger takes them (it converts them to OpenAPI 3.0 as it does a route's).
        schemas: components.schemas as ComponentSchemas,
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: snip_...' },
          oauth: {
            type: 'oauth2',
            description: 'OAuth 2.1 with PKCE (S256), for the MCP endpoint only; clients register at /oauth/register (RFC 7591)',
            flows: {
              authorizationCode: {
                authorizationUrl: `${baseUrl}/oauth/authorize`,
                tokenUrl: `${baseUrl}/oauth/token`,
                refreshUrl: `${baseUrl}/oauth/token`,
                scopes,
              },
            },
          },
        },
      },
    },
  });

  // The interactive reference at /docs, served from the package itself (no CDN).
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });

  app.get(
    '/openapi.yaml',
    {
      schema: {
        operationId: 'getOpenApi',
        summary: 'This OpenAPI document',
        description: 'The OpenAPI 3.0 description of the HTTP API, generated from the routes themselves; the reference at /docs reads it, and client generators can.',
        tags: ['meta'],
        response: { 200: { description: 'OpenAPI 3.0 document', content: { 'application/yaml': { schema: { type: 'string' } } } } },
      },
    },
    async (_request, reply) => reply.type('application/yaml').send(app.swagger({ yaml: true })),
  );
}
