import { operation } from '../access/operation.js';
import { POLICIES } from '../access/policies.js';
import type { ErrorCode } from '../errors.js';

/** The caller's link, as the tag service looks it up: unknown, or another account's (as on the link routes). */
const TAGGED_LINK_ERRORS = ['NOT_FOUND', 'ACCESS_DENIED'] as const satisfies ErrorCode[];

/** The tag operations (src/access/operation.ts): REST A and B (routes.ts) and the MCP tag tools bind them. */
export const TAG_OPERATIONS = {
  add: operation({ id: 'addLinkTags', policy: POLICIES.apiAccess, errors: ['MISSING_TAG', 'INVALID_TAG', 'TOO_MANY_TAGS', ...TAGGED_LINK_ERRORS] }),
  remove: operation({ id: 'removeLinkTag', policy: POLICIES.apiAccess, errors: ['INVALID_TAG', 'TAG_NOT_FOUND', ...TAGGED_LINK_ERRORS] }),
  list: operation({ id: 'listTags', policy: POLICIES.apiAccess, errors: [] }),
  /** A tag renamed on every link of the account that carries it. */
  rename: operation({ id: 'renameTag', policy: POLICIES.apiAccess, errors: ['INVALID_TAG', 'MISSING_NAME', 'INVALID_NAME', 'TAG_NOT_FOUND', 'TAG_EXISTS'] }),
  /** A tag taken off every link of the account; the links stay. */
  delete: operation({ id: 'deleteTag', policy: POLICIES.apiAccess, errors: ['INVALID_TAG', 'TAG_NOT_FOUND'] }),
};
