import { operation } from '../access/operation.js';
import { POLICIES } from '../access/policies.js';

/** The saved view operations (src/access/operation.ts): REST A and B (routes.ts) and the MCP saved view tools bind them. */
export const VIEW_OPERATIONS = {
  list: operation({ id: 'listViews', policy: POLICIES.apiAccess, errors: [] }),
  create: operation({ id: 'createView', policy: POLICIES.apiAccess, errors: ['MISSING_NAME', 'INVALID_NAME', 'MISSING_FILTERS', 'INVALID_FILTERS', 'FOLDER_NOT_FOUND', 'VIEW_EXISTS'] }),
  /** A change naming nothing is INVALID_BODY on every surface: REST's schema and the MCP tool refuse it before the service. */
  update: operation({ id: 'updateView', policy: POLICIES.apiAccess, errors: ['INVALID_NAME', 'INVALID_FILTERS', 'INVALID_BODY', 'FOLDER_NOT_FOUND', 'VIEW_NOT_FOUND', 'VIEW_EXISTS'] }),
  delete: operation({ id: 'deleteView', policy: POLICIES.apiAccess, errors: ['VIEW_NOT_FOUND'] }),
};
