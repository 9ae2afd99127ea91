import { operation } from '../access/operation.js';
import { POLICIES } from '../access/policies.js';
import type { ErrorCode } from '../errors.js';

/** A link named by the caller: unknown, or another account's. */
export const LINK_LOOKUP_ERRORS = ['NOT_FOUND', 'ACCESS_DENIED'] as const satisfies ErrorCode[];

/** The link rules a create or change may break beyond its schema (src/links/rules.ts, drafts.ts, creator.ts). */
export const LINK_RULE_ERRORS = [
  'INVALID_URL', 'INVALID_SLUG', 'EXPIRES_AT_IN_PAST', 'ACTIVE_FROM_IN_PAST', 'EXPIRES_BEFORE_ACTIVE',
  // App targets (web2app) are Pro and above, whatever plan the rest of the operation needs.
  'INVALID_APP_LINKS', 'TIER_REQUIRED',
] as const satisfies ErrorCode[];

/** What creating a link may answer beyond its schema and its access. */
export const LINK_CREATE_ERRORS = [
  ...LINK_RULE_ERRORS,
  'MISSING_URL',
  'PREMIUM_REQUIRED',
  'NAMESPACE_REQUIRED',
  'SLUG_TAKEN',
  'INVALID_UTM_TEMPLATE_ID',
  'TEMPLATE_NOT_FOUND',
  'CODE_SPACE_BUSY',
  // The daily link limit, charged by the links service itself (its 429 over MCP is a tool error, not the POST's).
  'RATE_LIMITED',
  // A custom domain named on create: unknown or another account's, or not yet active.
  'DOMAIN_NOT_FOUND',
  'DOMAIN_NOT_ACTIVE',
] as const satisfies ErrorCode[];

/** The request's own refusals of a bulk creation; each item's are answered in its result, not as the status. */
const BULK_ERRORS = ['MISSING_URLS', 'INVALID_URLS', 'TOO_MANY_URLS', 'INVALID_ITEM', 'INVALID_BASE64', ...LINK_CREATE_ERRORS] as const satisfies ErrorCode[];

/** The link operations (src/access/operation.ts): REST A and B (routes-a.ts, routes-b.ts, crud-routes.ts, bulk-routes.ts) and MCP bind them. */
export const LINK_OPERATIONS = {
  create: operation({ id: 'createLink', policy: POLICIES.apiAccess, errors: LINK_CREATE_ERRORS }),
  list: operation({ id: 'listLinks', policy: POLICIES.apiAccess, errors: ['VIEW_NOT_FOUND', 'FOLDER_NOT_FOUND', 'BAD_REQUEST'] }),
  get: operation({ id: 'getLink', policy: POLICIES.apiAccess, errors: LINK_LOOKUP_ERRORS }),
  update: operation({ id: 'updateLink', policy: POLICIES.apiAccess, errors: [...LINK_LOOKUP_ERRORS, 'LINK_DISABLED', ...LINK_RULE_ERRORS, 'MISSING_URL', 'PARTNER_LINK_DESTINATION'] }),
  resolve: operation({ id: 'resolveLink', policy: POLICIES.apiAccess, errors: LINK_LOOKUP_ERRORS }),
  delete: operation({ id: 'deleteLink', policy: POLICIES.apiAccess, errors: [...LINK_LOOKUP_ERRORS, 'LINK_DISABLED'] }),
  /** Description A's bulk (and the MCP bulk tool): Builder and above. */
  bulkCreateA: operation({ id: 'bulkCreateLinks', policy: POLICIES.bulkA, errors: BULK_ERRORS }),
  /** Description B's bulk: Pro and above. */
  bulkCreateB: operation({ id: 'bulkCreateLinks', policy: POLICIES.bulkB, errors: BULK_ERRORS }),
};
