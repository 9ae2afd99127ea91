import { operation } from '../access/operation.js';
import { POLICIES } from '../access/policies.js';

/** The UTM template operations (src/access/operation.ts): REST A and B (routes.ts) and the MCP template tools bind them. */
export const UTM_OPERATIONS = {
  list: operation({ id: 'listUtmTemplates', policy: POLICIES.apiAccess, errors: [] }),
  create: operation({
    id: 'createUtmTemplate',
    policy: POLICIES.apiAccess,
    errors: ['MISSING_NAME', 'INVALID_NAME', 'MISSING_UTM_FIELDS', 'INVALID_UTM_SOURCE', 'INVALID_UTM_MEDIUM', 'INVALID_UTM_CAMPAIGN', 'INVALID_UTM_TERM', 'INVALID_UTM_CONTENT', 'TEMPLATE_EXISTS'],
  }),
  delete: operation({ id: 'deleteUtmTemplate', policy: POLICIES.apiAccess, errors: ['TEMPLATE_NOT_FOUND'] }),
};
