import type { Tier } from './plans.js';

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
}
