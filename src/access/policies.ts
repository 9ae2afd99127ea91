import type { Policy } from './policy.js';

/**
 * The policies operations share, named once: an MCP tool takes the one its REST twin has (REST routes state the
 * same in their `access` config, which `policyOf` reads as one of these).
 */
export const POLICIES = {
  /** Links, folders, tags, templates, views, QR settings, webhooks, exports, namespaces: the plan's API access. */
  apiAccess: { minTier: 'api' },
  /** The caller's own profile, usage and statistics, and public data: every plan. */
  ownAccount: { minTier: 'any' },
  /** Public data (the trust score): no key needed over REST; over MCP charged as an `ownAccount` call. */
  public: { minTier: 'any', public: true },
  /** Custom domains (Description B): Pro and above, refused with B's upgrade code. */
  customDomains: { minTier: 'pro', tierCode: 'TIER_UPGRADE_REQUIRED' },
  /** Description A's bulk creation (and the MCP bulk tool): Builder and above, charged as a bulk request. */
  bulkA: { minTier: 'builder', bulk: true },
  /** The operator's admin area (accounts, sign-ups, invites, abuse, status, audit log): operators only, uncharged. */
  operator: { minTier: 'any', operator: true },
  /** Description B's bulk creation: Pro and above, charged as a bulk request. */
  bulkB: { minTier: 'pro', bulk: true },
} as const satisfies Record<string, Policy>;
