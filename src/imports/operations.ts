import { operation } from '../access/operation.js';
import { POLICIES } from '../access/policies.js';
import type { ErrorCode } from '../errors.js';

/** Refusals of the whole import; a row's own outcome (PATH_TAKEN, ALREADY_IMPORTED, ...) is in the answer's rows. */
const IMPORT_ERRORS = [
  'INVALID_SOURCE',
  'MISSING_SOURCE',
  'MISSING_SOURCE_KEY',
  'INVALID_FROM',
  'INVALID_DRY_RUN',
  'INVALID_WITH_CLICKS',
  'INVALID_DOMAIN',
  'DOMAIN_NOT_FOUND',
  'DOMAIN_NOT_ACTIVE',
] as const satisfies ErrorCode[];

/**
 * Imports from another shortener (src/imports/service.ts), bound like bulk creation, which an import is: Description
 * A's at /api/v1/imports (Builder and above), B's at /api/imports (Pro and above). The CLI's `links import --from`
 * runs the same service as the operator.
 */
export const IMPORT_OPERATIONS = {
  importA: operation({ id: 'importLinksFromSource', policy: POLICIES.bulkA, errors: IMPORT_ERRORS }),
  importB: operation({ id: 'importLinksFromSource', policy: POLICIES.bulkB, errors: IMPORT_ERRORS }),
};
