import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountsService, Caller } from '../accounts/service.js';
import { tierAtLeast, tierLabel, type Plans, type Tier } from '../accounts/plans.js';
import { errors } from '../errors.js';
import { rateLimitHeaders, type UsageService } from '../usage/service.js';

/**
 * Who may call a route. `required` routes need a valid key and, unless `minTier` says otherwise, a plan with
 * API access (Pro and above); `tierCode` names the 403 code a route family uses for "upgrade needed".
 */
export type Access =
  | { auth: 'required'; minTier?: Tier | 'any'; tierCode?: string; bulk?: boolean }
  | { auth: 'optional' }
  | { auth: 'none' };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Which description a route belongs to; B routes answer a 429 in B's `{error, code}` body. */
    surface?: 'A' | 'B';
  }
  interface FastifyRequest {
    caller: Caller | null;
    /** Gives back this request's rate-limit charge; called when the request ends refused by a 429. */
    refundUsage: (() => Promise<void>) | null;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : header.trim() || undefined;
}

/** The caller of a route whose access is `required`; the onRequest hook has already resolved it. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw errors.apiKeyRequired();
  return request.caller;
}

/**
 * Attaches the key check to exactly the routes that declare `access`, as a route-level onRequest hook, so
 * routes without it (the redirect above all) pay nothing. onRequest runs before the body is parsed, so a
 * missing key is reported before a bad body.
 */
export function registerAccess(app: FastifyInstance, accounts: AccountsService, usage: UsageService, plans: Plans): void {
  app.decorateRequest('caller', null);
  app.decorateRequest('refundUsage', null);
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access || access.auth === 'none') return;
    const resolveCaller = async (request: FastifyRequest, reply: FastifyReply) => {
      const caller = await resolve(accounts, plans, access, bearerToken(request));
      request.caller = caller;
      if (!caller) return;
      const { state, refund } = await usage.chargeRequest(caller, {
        apiQuota: access.auth === 'required' && access.minTier !== 'any',
        bulk: access.auth === 'required' && access.bulk === true,
      });
      request.refundUsage = refund;
      if (state) reply.headers(rateLimitHeaders(state));
    };
    route.onRequest = [resolveCaller, ...[route.onRequest ?? []].flat()];
  });
}

async function resolve(accounts: AccountsService, plans: Plans, access: Access, token: string | undefined): Promise<Caller | null> {
  if (access.auth === 'optional') return token ? accounts.authenticate(token) : null;
  const caller = await accounts.authenticate(token);
  if (access.auth !== 'required') return caller;
  // Without an explicit minimum, a route needs API access, which the plans table grants (Pro and up by default).
  if (access.minTier === undefined) {
    if (!plans[caller.tier].apiAccess) throw errors.tierRequired('Pro', access.tierCode);
    return caller;
  }
  const needed = access.minTier;
  if (needed !== 'any' && !tierAtLeast(caller.tier, needed)) {
    throw errors.tierRequired(tierLabel(needed), access.auth === 'required' ? access.tierCode : undefined);
  }
  return caller;
}
