import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AccountsService, Caller } from '../accounts/service.js';
import { tierAtLeast, tierLabel, type Tier } from '../accounts/plans.js';
import { errors } from '../errors.js';

/**
 * Who may call a route. `required` routes need a valid key and, unless `minTier` says otherwise, a plan with
 * API access (Pro and above); `tierCode` names the 403 code a route family uses for "upgrade needed".
 */
export type Access =
  | { auth: 'required'; minTier?: Tier | 'any'; tierCode?: string }
  | { auth: 'optional' }
  | { auth: 'none' };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    caller: Caller | null;
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

export const accessPlugin = fp(async (app: FastifyInstance, opts: { accounts: AccountsService }) => {
  app.decorateRequest('caller', null);
  // onRequest runs before the body is parsed or validated, so a missing key is reported before a bad body.
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (!access || access.auth === 'none') return;
    const token = bearerToken(request);
    if (access.auth === 'optional') {
      if (token) request.caller = await opts.accounts.authenticate(token);
      return;
    }
    const caller = await opts.accounts.authenticate(token);
    const needed = access.minTier ?? 'pro';
    if (needed === 'any') {
      request.caller = caller;
      return;
    }
    if (!tierAtLeast(caller.tier, needed)) {
      throw errors.tierRequired(tierLabel(needed), access.tierCode);
    }
    request.caller = caller;
  });
});
