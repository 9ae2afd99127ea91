import { operation } from '../access/operation.js';
import { POLICIES } from '../access/policies.js';
import type { ErrorCode } from '../errors.js';

const PROGRAM_FIELD_ERRORS = ['MISSING_NAME', 'INVALID_NAME', 'MISSING_URL', 'INVALID_URL', 'MISSING_COMMISSION_TYPE', 'INVALID_COMMISSION_TYPE', 'MISSING_COMMISSION_CENTS', 'INVALID_COMMISSION_CENTS', 'INVALID_PUBLIC'] as const satisfies ErrorCode[];

/** The affiliate operations (src/access/operation.ts): REST A and B (routes.ts) and the MCP affiliate tools bind them. */
export const AFFILIATE_OPERATIONS = {
  /** Running a program is Builder and above. */
  create: operation({ id: 'createAffiliateProgram', policy: { minTier: 'builder' }, errors: PROGRAM_FIELD_ERRORS }),
  update: operation({ id: 'updateAffiliateProgram', policy: { minTier: 'builder' }, errors: ['INVALID_NAME', 'INVALID_PUBLIC', 'INVALID_STATUS', 'INVALID_BODY', 'AFFILIATE_PROGRAM_NOT_FOUND'] }),
  list: operation({ id: 'listAffiliatePrograms', policy: POLICIES.apiAccess, errors: [] }),
  discover: operation({ id: 'discoverAffiliatePrograms', policy: POLICIES.apiAccess, errors: [] }),
  /**
   * Joining is any paying plan. It makes the partner link, which counts against the daily link limit (RATE_LIMITED
   * from the service, inside an MCP tool call too, where the POST's own rate limits are checked before any call).
   */
  join: operation({
    id: 'joinAffiliateProgram',
    policy: { minTier: 'pro' },
    errors: ['AFFILIATE_PROGRAM_NOT_FOUND', 'OWN_PROGRAM', 'PROGRAM_CLOSED', 'PROGRAM_PRIVATE', 'ALREADY_JOINED', 'CODE_SPACE_BUSY', 'RATE_LIMITED'],
  }),
  partners: operation({ id: 'listAffiliatePartners', policy: POLICIES.apiAccess, errors: ['AFFILIATE_PROGRAM_NOT_FOUND'] }),
  partnerships: operation({ id: 'listAffiliatePartnerships', policy: POLICIES.apiAccess, errors: [] }),
  stats: operation({ id: 'getAffiliateStats', policy: POLICIES.apiAccess, errors: ['AFFILIATE_PROGRAM_NOT_FOUND'] }),
  convert: operation({ id: 'reportAffiliateConversion', policy: POLICIES.apiAccess, errors: ['MISSING_CLICK_ID', 'INVALID_CLICK_ID', 'INVALID_AMOUNT_CENTS', 'CLICK_NOT_FOUND', 'ALREADY_CONVERTED'] }),
};
