import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../caller.js';
import type { Plans, Tier } from '../plans.js';
import type { Operation } from '../access/operation.js';
import { admissionHeaders, admit, type Policy, type RequestCharges } from '../access/policy.js';
import { AppError, errors, type ErrorCode } from '../errors.js';
import type { AddressLimits } from '../access/address-limits.js';

/**
 * Who may call a route. `required` routes need a valid key and, unless `minTier` says otherwise, a plan with
 * API access (Pro and above); `tierCode` names the 403 code a route family uses for "upgrade needed".
 */
export type Access =
  | {
      auth: 'required';
      minTier?: Tier | 'any';
      tierCode?: string;
      bulk?: boolean;
      /** The operator's admin operations (src/access/policy.ts). */
      operator?: true;
      /** False for an endpoint that carries calls of its own (MCP): each call is admitted and charged instead. */
      charged?: false;
      /**
       * The protected-resource metadata URL (RFC 9728) of a route that also takes OAuth access tokens (MCP): a 401
       * names it in WWW-Authenticate, so that a client can find where to get a token.
       */
      oauth?: string;
    }
  | { auth: 'optional' }
  | { auth: 'none' };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Which description a route belongs to; B routes answer a 429 in B's `{error, code}` body. */
    surface?: 'A' | 'B';
    /** The route's operationId, from its operation (`bind`); src/http/openapi.ts puts it in the schema. */
    operationId?: string;
  }
  interface FastifyRequest {
    caller: Caller | null;
    /** Gives back this request's rate-limit charge; called when the request ends refused by a 429. */
    refundUsage: (() => Promise<void>) | null;
  }
}

/**
 * The key of `Authorization: Bearer <key>` (RFC 6750; the scheme in any case); undefined without the header or with
 * an empty token. Any other scheme, a bare key included, is refused as no credentials at all: 401 API_KEY_REQUIRED
 * (answered with `WWW-Authenticate: Bearer`, src/http/error-handler.ts), never read as a key.
 */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer(?:\s+(\S*))?\s*$/i.exec(header);
  if (!match) throw errors.apiKeyRequired();
  return match[1] || undefined;
}

/** The caller of a route whose access is `required`; the onRequest hook has already resolved it. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw errors.apiKeyRequired();
  return request.caller;
}

/**
 * A REST route's binding of an operation (src/access/operation.ts): its description, the access and error codes of
 * the operation, and its operationId (`<id>A` or `<id>B`). `errors` adds the codes of the route's own input form
 * (B's Base64 `long`); `operationId` names a route that offers the operation under another name (B's createShort).
 */
export function bind(op: Operation, surface: 'A' | 'B', options: { errors?: readonly ErrorCode[]; operationId?: string } = {}) {
  const { minTier, tierCode, bulk, operator } = op.policy;
  const access: Access = op.policy.public
    ? { auth: 'none' }
    : { auth: 'required', ...(minTier === 'api' ? {} : { minTier }), ...(tierCode ? { tierCode } : {}), ...(bulk ? { bulk } : {}), ...(operator ? { operator } : {}) };
  return { surface, access, errors: [...op.errors, ...(options.errors ?? [])], operationId: options.operationId ?? `${op.id}${surface}` };
}

/** A route's access as the policy every surface shares; no `minTier` means the plan's API access. */
export function policyOf(access: Access): Policy {
  if (access.auth !== 'required') return { minTier: 'any' };
  return { minTier: access.minTier ?? 'api', bulk: access.bulk, tierCode: access.tierCode, ...(access.operator ? { operator: access.operator } : {}) };
}

/**
 * Attaches the key check to exactly the routes that declare `access`, as a route-level onRequest hook, so
 * routes without it (the redirect above all) pay nothing. onRequest runs before the body is parsed, so a
 * missing key is reported before a bad body. The plan check and the charge are `admit`'s, as for MCP tools.
 */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Who calls: the key of `Authorization: Bearer` when the header is there (it always wins), else the dashboard's
 * session cookie where the route takes one, else nobody (null; a `required` route then answers 401). A session
 * may change nothing without its CSRF token in X-CSRF-Token: SameSite=Strict already keeps other sites' pages from
 * sending the cookie, the token covers browsers and proxies that do not honour it.
 */
async function identify(
  request: FastifyRequest,
  keys: ApiKeys,
  sessions: Sessions | null,
  perAddress: AddressLimits | null,
  oauth: OAuthTokens | null,
): Promise<Caller | null> {
  if (request.headers.authorization !== undefined) {
    const token = bearerToken(request);
    // An access token is no key (keys start snip_): where a route takes tokens, that is what it is read as.
    if (oauth && token && !keys.looksLikeKey(token)) return (await oauth.authenticate(token)) ?? Promise.reject(REFUSED_TOKEN);
    return keys.authenticate(token);
  }
  const token = sessions ? sessions.tokenOf(request) : undefined;
  if (!sessions || !token) return null;
  const caller = await sessions.authenticate(token);
  if (!caller) throw errors.sessionRequired();
  if (!SAFE_METHODS.has(request.method) && !sessions.csrfMatches(token, request.headers['x-csrf-token'] as string | undefined)) {
    throw errors.csrfTokenInvalid();
  }
  // Not the plan's requests per minute (src/access/policy.ts): the per-address budget of PUBLIC_REQUESTS_PER_MINUTE.
  await perAddress?.admit(request.ip);
  return caller;
}

/**
 * A refused access token has the code of a refused key: clients of the key know that code, and OAuth clients read the
 * 401 and its WWW-Authenticate (error="invalid_token") instead.
 */
const REFUSED_TOKEN = new AppError('INVALID_API_KEY', 'The access token is unknown, expired or revoked: refresh it or connect the application again');

/** Who an OAuth access token stands for (src/oauth/service.ts); null for a token that is unknown, expired or revoked. */
export interface OAuthTokens {
  authenticate(token: string): Promise<Caller | null>;
}

/** Who an API key stands for (src/accounts): refuses a missing, unknown or revoked key with its 401. */
export interface ApiKeys {
  authenticate(token: string | undefined): Promise<Caller>;
  /** Whether a bearer token has a key's shape; anything else is read as an OAuth access token where a route takes one. */
  looksLikeKey(token: string): boolean;
}

/**
 * The dashboard's sessions (src/sessions): the token of the browser's cookie, who it stands for (null when it has
 * expired or was signed out) and whether a request's CSRF token is the session's. The plumbing here knows no
 * feature: src/app.ts hands it these.
 */
export interface Sessions {
  tokenOf(request: FastifyRequest): string | undefined;
  authenticate(token: string): Promise<Caller | null>;
  csrfMatches(token: string, given: string | undefined): boolean;
}

export function registerAccess(
  app: FastifyInstance,
  keys: ApiKeys,
  usage: RequestCharges,
  plans: Plans,
  sessions: { service: Sessions; perAddress: AddressLimits } | null = null,
  oauth: OAuthTokens | null = null,
): void {
  app.decorateRequest('caller', null);
  app.decorateRequest('refundUsage', null);
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    // An API call that needs a key is an operation, defined once and bound here (`bind`), never a route's own rule.
    if (access?.auth === 'required' && access.charged !== false && !route.config?.operationId) {
      throw new Error(`${[route.method].flat().join(',')} ${route.url} needs a key but is bound to no operation: use config: bind(op, surface)`);
    }
    if (!access || access.auth === 'none') return;
    const policy = policyOf(access);
    // MCP carries calls of its own for AI clients, which hold keys or tokens, never the dashboard's cookie.
    const sessionsHere = access.auth === 'required' && access.charged === false ? null : sessions;
    const resolveCaller = async (request: FastifyRequest, reply: FastifyReply) => {
      // A route open to anonymous callers still refuses a key it cannot read: sending one means "as me".
      const tokens = access.auth === 'required' && access.oauth ? oauth : null;
      const caller = await identify(request, keys, sessionsHere?.service ?? null, sessionsHere?.perAddress ?? null, tokens);
      if (!caller && access.auth === 'required') throw errors.apiKeyRequired();
      request.caller = caller;
      if (!caller || (access.auth === 'required' && access.charged === false)) return;
      const admission = await admit(plans, usage, caller, policy);
      request.refundUsage = admission.refund;
      reply.headers(admissionHeaders(admission));
    };
    route.onRequest = [resolveCaller, ...[route.onRequest ?? []].flat()];
  });
}
