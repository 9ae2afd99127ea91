import { operation } from '../access/operation.js';
import { POLICIES } from '../access/policies.js';
import { LINK_LOOKUP_ERRORS } from '../links/operations.js';

/** The statistics operations (src/access/operation.ts), bound by src/analytics/routes.ts and the MCP tools. */
export const ANALYTICS_OPERATIONS = {
  /** A link's total and its most recent clicks (A's GET /api/v1/links/:shortPath/stats, MCP get_recent_clicks). */
  linkStats: operation({ id: 'getLinkStats', policy: POLICIES.apiAccess, errors: LINK_LOOKUP_ERRORS }),
};
