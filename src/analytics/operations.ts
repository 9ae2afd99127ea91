import { operation } from '../access/operation.js';
import { POLICIES } from '../access/policies.js';
import type { ErrorCode } from '../errors.js';
import { LINK_LOOKUP_ERRORS } from '../links/operations.js';

/** A period reaching back further than the caller's plan keeps (the period itself is checked by each surface's schema). */
const PERIOD_ERRORS = ['PERIOD_EXCEEDS_PLAN'] as const satisfies ErrorCode[];

/**
 * The statistics and usage operations (src/access/operation.ts), bound by src/analytics/routes.ts and the MCP tools
 * (src/mcp/tools/analytics.ts, links.ts). The public statistics routes (A's /api/stats/:shortCode and
 * /api/ns/stats/...) answer anyone and are offered by no tool, so they bind none.
 */
export const ANALYTICS_OPERATIONS = {
  /** A link's total and its most recent clicks (A's GET /api/v1/links/:shortPath/stats, MCP get_recent_clicks). */
  linkStats: operation({ id: 'getLinkStats', policy: POLICIES.apiAccess, errors: LINK_LOOKUP_ERRORS }),
  /**
   * One link's statistics over a period: A names the link by code or by namespace, B by its short path, so the
   * namespaced and B routes keep their own operationIds. MCP get_link_stats and get_aggregate_stats offer it (the
   * latter also over the whole account, which needs nothing more).
   */
  aggregate: operation({ id: 'getAggregateStats', policy: POLICIES.apiAccess, errors: [...PERIOD_ERRORS, ...LINK_LOOKUP_ERRORS] }),
  /** The whole account's statistics over a period, with its top links (B). */
  linkTrends: operation({ id: 'getLinkTrends', policy: POLICIES.apiAccess, errors: [] }),
  accountAnalytics: operation({ id: 'getAccountAnalytics', policy: POLICIES.apiAccess, errors: PERIOD_ERRORS }),
  /** Usage is about the account's own plan, so every plan may read it (grace is a Free thing). */
  usage: operation({ id: 'getUsage', policy: POLICIES.ownAccount, errors: [] }),
  /** Every plan may call it, so that Free is told PLAN_NOT_ELIGIBLE rather than asked to upgrade for API access. */
  setOverageLimit: operation({ id: 'setOverageLimit', policy: POLICIES.ownAccount, errors: ['INVALID_LIMIT_CENTS', 'PLAN_NOT_ELIGIBLE'] }),
};
