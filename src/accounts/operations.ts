import { operation } from '../access/operation.js';
import { POLICIES } from '../access/policies.js';

/**
 * The account operations (src/access/operation.ts): Description B's /api/user and /api/keys (routes-b.ts) and the
 * MCP tools bind them. Every plan manages its own profile and keys; namespaces belong to the API proper, which needs Pro (docs/decisions.md).
 */
export const ACCOUNT_OPERATIONS = {
  getUser: operation({ id: 'getUser', policy: POLICIES.ownAccount, errors: ['ACCOUNT_NOT_FOUND'] }),
  claimNamespace: operation({ id: 'claimNamespace', policy: POLICIES.apiAccess, errors: ['INVALID_NAMESPACE', 'RESERVED_NAMESPACE', 'NAMESPACE_TAKEN', 'NAMESPACE_HAS_LINKS'] }),
  listNamespaces: operation({ id: 'listNamespaces', policy: POLICIES.apiAccess, errors: ['ACCOUNT_NOT_FOUND'] }),
  releaseNamespace: operation({ id: 'releaseNamespace', policy: POLICIES.apiAccess, errors: ['NAMESPACE_NOT_FOUND', 'NAMESPACE_IN_USE', 'NAMESPACE_HAS_LINKS', 'NAMESPACE_BUSY'] }),
  listKeys: operation({ id: 'listKeys', policy: POLICIES.ownAccount, errors: [] }),
  createKey: operation({ id: 'createKey', policy: POLICIES.ownAccount, errors: ['INVALID_KEY_NAME'] }),
  revokeKey: operation({ id: 'revokeKey', policy: POLICIES.ownAccount, errors: ['KEY_NOT_FOUND'] }),
};
