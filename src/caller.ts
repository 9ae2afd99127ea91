import type { Tier } from './plans.js';

/**
 * What an account is on this server, beside its plan: `operator` runs it (no plan limits, the admin operations).
 * Roles are data (accounts.role), so more can be added without touching the callers.
 */
export const ROLES = ['member', 'operator'] as const;
export type Role = (typeof ROLES)[number];
export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/**
 * Who is calling: an API key, a dashboard session, an OAuth access token or the operator, resolved afresh on every
 * request (so a tier change applies at once). Every surface hands a `Caller` to the services, so it lives in the
 * kernel, not in the accounts feature that resolves most of them.
 */
export interface Caller {
  accountId: string;
  email: string;
  tier: Tier;
  namespace: string | null;
  keyId: string;
  /**
   * `session`: a signed-in browser (the dashboard), which the plan's API-access gate does not apply to; `mcp`: a
   * key used on the MCP endpoint.
   */
  via?: 'session' | 'mcp';
  /** The MCP client this key last introduced itself as (initialize's clientInfo.name); null when none. */
  clientName?: string | null;
  /**
   * What an application connected by OAuth was granted (src/oauth/scopes.ts); undefined for a key, a session or the
   * operator, who may call everything their plan allows.
   */
  scopes?: ReadonlySet<string>;
  /** The account's role; undefined is a member. */
  role?: Role;
  /** Over an API key: the extra scopes it was made with (`admin`); undefined for every other way of calling. */
  keyScopes?: ReadonlySet<string>;
}

/** Whether the caller may run the operator's admin operations: an operator in the dashboard, or over a key made with the admin scope. */
export const actsAsOperator = (caller: Caller): boolean =>
  caller.role === 'operator' && caller.scopes === undefined && caller.via !== 'mcp' && (caller.via === 'session' || caller.keyScopes?.has('admin') === true);
