import { operation } from '../access/operation.js';
import { POLICIES } from '../access/policies.js';

/**
 * The custom-domain operations (src/access/operation.ts): Description B's /api/user/domains (routes.ts) and the MCP
 * domain tools bind them. verify_domain also activates a domain it finds verified, which cannot then be refused as
 * unverified, so `verify` keeps its own codes and `activate` stays REST's alone.
 */
export const DOMAIN_OPERATIONS = {
  list: operation({ id: 'listDomains', policy: POLICIES.customDomains, errors: [] }),
  add: operation({
    id: 'addDomain',
    policy: POLICIES.customDomains,
    errors: ['MISSING_DOMAIN', 'INVALID_DOMAIN', 'RESERVED_DOMAIN', 'DOMAIN_EXISTS', 'DOMAIN_TAKEN', 'DOMAIN_LIMIT_REACHED'],
  }),
  verify: operation({ id: 'verifyDomain', policy: POLICIES.customDomains, errors: ['DOMAIN_NOT_FOUND', 'DOMAIN_TAKEN'] }),
  activate: operation({ id: 'activateDomain', policy: POLICIES.customDomains, errors: ['DOMAIN_NOT_FOUND', 'DOMAIN_NOT_VERIFIED'] }),
  update: operation({
    id: 'updateDomain',
    policy: POLICIES.customDomains,
    // The service judges the 404 page itself (INVALID_NOT_FOUND_PAGE and the codes of its parts) and an empty change.
    errors: ['DOMAIN_NOT_FOUND', 'DOMAIN_NOT_ACTIVE', 'INVALID_SET_DEFAULT', 'INVALID_NOT_FOUND_PAGE', 'MISSING_REDIRECT_URL', 'MISSING_HTML', 'HTML_TOO_LONG', 'INVALID_URL', 'INVALID_BODY'],
  }),
  delete: operation({ id: 'deleteDomain', policy: POLICIES.customDomains, errors: ['DOMAIN_NOT_FOUND'] }),
};
