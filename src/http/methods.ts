import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { errors, type AppError } from '../errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * For a route whose pattern also matches paths it does not serve (the redirect's `/:code` answers Snip's own
     * reserved names 404): whether it serves the path these params were matched from. The 405 check asks it.
     */
    servesPath?: (params: Readonly<Record<string, string | undefined>>) => boolean;
  }
}

/** The methods Snip's routes answer, in the order `Allow` lists them. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

type Params = Readonly<Record<string, string | undefined>>;

/** A route that does not serve every path its pattern matches, by method. */
interface Narrowed {
  segments: readonly string[];
  serves: (params: Params) => boolean;
}

const decode = (segment: string): string | null => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
};

/** The params `path` gives `segments` (`['', ':code']`), or null when the pattern does not match it. */
function paramsOf(segments: readonly string[], path: string): Record<string, string> | null {
  const parts = path.split('/');
  if (parts.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (const [i, segment] of segments.entries()) {
    const part = decode(parts[i]!);
    if (part === null) return null;
    if (segment.startsWith(':')) params[segment.slice(1)] = part;
    else if (segment !== part) return null;
  }
  return params;
}

const sameParams = (a: Params, b: Params): boolean => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
};

/**
 * A route that documents 405 as its only answer (GET and DELETE /mcp, which the MCP transport lets a stateless server
 * refuse) refuses its method rather than serving it: `Allow` does not name it.
 */
export const onlyRefuses = (route: RouteOptions): boolean => {
  const statuses = Object.keys((route.schema as { response?: object } | undefined)?.response ?? {});
  return statuses.length > 0 && statuses.every((status) => status === '405');
};

/** A surface's own refusal body, by the exact path it answers on (src/app.ts hands in MCP's JSON-RPC one). */
export type RefusalBodies = Readonly<Record<string, (error: AppError) => unknown>>;

/**
 * The body of a refusal on the surface a path belongs to, as its other refusals are: a path with a body of its own
 * (MCP answers in JSON-RPC, src/mcp/json-rpc.ts), the OAuth endpoints in RFC 6749's error shape, every other path in
 * Snip's `{error, message, code}` (Description A's, which B shares for every status but 429).
 */
function bodyFor(path: string, error: AppError, own: RefusalBodies): unknown {
  if (Object.hasOwn(own, path)) return own[path]!(error);
  if (path.startsWith('/oauth/')) return { error: 'invalid_request', error_description: error.message, code: error.code };
  return { error: true, message: error.message, code: error.code };
}

/**
 * 405 with `Allow` for a path that other methods serve, rather than the 404 of a path no route has. Fastify's router
 * finds a route by method and path; the methods a path serves are found by asking it once per method, in the
 * not-found handler, so only requests that match no route pay for it. Registered before the routes (its onRoute hook
 * notes the routes that do not serve every path they match); answers the reply, or null when the path is unknown.
 */
export function methodRefusals(app: FastifyInstance, own: RefusalBodies): (request: FastifyRequest, reply: FastifyReply) => FastifyReply | null {
  const narrowed = new Map<string, Narrowed[]>();
  app.addHook('onRoute', (route) => {
    const serves = onlyRefuses(route) ? () => false : route.config?.servesPath;
    if (!serves) return;
    const entry = { segments: route.url.split('/'), serves };
    for (const method of [route.method].flat()) narrowed.set(method, [...(narrowed.get(method) ?? []), entry]);
  });

  const serves = (method: (typeof METHODS)[number], path: string): boolean => {
    const found = app.findRoute({ method, url: path });
    if (!found) return false;
    // The route found is the narrowed one when its pattern gives the path exactly the params the router found.
    const own = (narrowed.get(method) ?? []).find((route) => {
      const params = paramsOf(route.segments, path);
      return params !== null && sameParams(params, found.params as Params);
    });
    return own ? own.serves(found.params as Params) : true;
  };

  return (request, reply) => {
    const path = request.url.split('?')[0]!;
    // A route of this very method answered "not found" itself (a missing static file): the path is unknown, not refused.
    if ((METHODS as readonly string[]).includes(request.method) && serves(request.method as (typeof METHODS)[number], path)) return null;
    const allowed = METHODS.filter((method) => method !== request.method && serves(method, path));
    if (allowed.length === 0) return null;
    const error = errors.methodNotAllowed(request.method, allowed);
    return reply.status(405).header('allow', allowed.join(', ')).send(bodyFor(path, error, own));
  };
}
