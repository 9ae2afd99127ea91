import { operation } from '../access/operation.js';
import { POLICIES } from '../access/policies.js';
import { LINK_LOOKUP_ERRORS } from '../links/operations.js';

/** The export operations (src/access/operation.ts): A's /api/v1/export, B's /api/export (routes.ts) and MCP bind them. */
export const EXPORT_OPERATIONS = {
  /** The link list's filters narrow it, with the list's own refusals (src/exports/filters.ts). */
  links: operation({ id: 'exportLinks', policy: POLICIES.apiAccess, errors: ['INVALID_FORMAT', 'FOLDER_NOT_FOUND', 'INVALID_TAG', 'INVALID_DOMAIN', 'INVALID_SEARCH'] }),
  /** A period beyond the plan's analytics history is refused (PERIOD_EXCEEDS_PLAN), not cut short. */
  linkStats: operation({ id: 'exportLinkStats', policy: POLICIES.apiAccess, errors: ['INVALID_FORMAT', 'INVALID_PERIOD', 'PERIOD_EXCEEDS_PLAN', ...LINK_LOOKUP_ERRORS] }),
};
