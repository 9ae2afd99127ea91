import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { ErrorBody, errorResponses, RateLimitBodyB } from './schemas.js';

/**
 * Generates /openapi.yaml from the route schemas. Routes that need a key get the bearer scheme and the
 * 401/403 bodies added here, once, rather than in every route file.
 */
declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, as `METHOD /path` (HEAD twins excluded); the OpenAPI test checks them all. */
    registeredRoutes: string[];
  }
}

export async function registerOpenApi(app: FastifyInstance, baseUrl: string): Promise<void> {
  app.decorate('registeredRoutes', [] as string[]);
  app.addHook('onRoute', (route: RouteOptions) => {
    // The API reference's own pages and scripts (/docs/*) are not part of the API.
    if ((route.schema as { hide?: boolean } | undefined)?.hide) return;
    for (const method of [route.method].flat()) if (method !== 'HEAD') app.registeredRoutes.push(`${method} ${route.url}`);
    const access = route.config?.access;
    if (!access || access.auth === 'none') return;
    const schema = (route.schema ??= {});
    const typed = schema as { security?: unknown; response?: Record<string, unknown> };
    typed.security = access.auth === 'required' ? [{ bearerAuth: [] }] : [{ bearerAuth: [] }, {}];
    const rateLimited = { 429: route.config?.surface === 'B' ? RateLimitBodyB : ErrorBody };
    typed.response = { ...errorResponses(401, ...(access.auth === 'required' ? [403] : [])), ...rateLimited, ...typed.response };
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Snip',
        version: '1.0.0',
        description: 'Self-hostable link shortener. Description A routes live under /api/v1 and /api; Description B routes under /api.',
      },
      servers: [{ url: baseUrl }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: snip_...' } } },
    },
  });

  // The interactive reference at /docs, served from the package itself (no CDN).
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });

  app.get(
    '/openapi.yaml',
    {
      schema: {
        summary: 'This OpenAPI document',
        tags: ['meta'],
        response: { 200: { description: 'OpenAPI 3.0 document', content: { 'application/yaml': { schema: { type: 'string' } } } } },
      },
    },
    async (_request, reply) => reply.type('application/yaml').send(app.swagger({ yaml: true })),
  );
}
