import { operation } from '../access/operation.js';
import { POLICIES } from '../access/policies.js';

/** The agent-link operations: REST A and B (routes.ts) and the MCP agentlink tools bind them. */
export const AGENTLINK_OPERATIONS = {
  list: operation({ id: 'listAgentLinks', policy: POLICIES.apiAccess, errors: [] }),
  linkStats: operation({ id: 'getAgentLinkStats', policy: POLICIES.apiAccess, errors: ['NOT_FOUND', 'ACCESS_DENIED'] }),
  accountStats: operation({ id: 'getAgentLinkAccountStats', policy: POLICIES.apiAccess, errors: [] }),
};
