import { operation } from '../access/operation.js';
import { POLICIES } from '../access/policies.js';
import type { ErrorCode } from '../errors.js';

/** A folder's name and colour as the service checks them (the name's maximum is each surface's, the codes the same). */
const FOLDER_FIELD_ERRORS = ['INVALID_NAME', 'INVALID_COLOR'] as const satisfies ErrorCode[];

/** The folder operations (src/access/operation.ts): REST A and B (routes.ts) and the MCP folder tools bind them. */
export const FOLDER_OPERATIONS = {
  list: operation({ id: 'listFolders', policy: POLICIES.apiAccess, errors: [] }),
  create: operation({ id: 'createFolder', policy: POLICIES.apiAccess, errors: ['MISSING_NAME', ...FOLDER_FIELD_ERRORS, 'FOLDER_EXISTS', 'FOLDER_LIMIT_REACHED'] }),
  update: operation({ id: 'updateFolder', policy: POLICIES.apiAccess, errors: [...FOLDER_FIELD_ERRORS, 'INVALID_BODY', 'FOLDER_NOT_FOUND', 'FOLDER_EXISTS'] }),
  delete: operation({ id: 'deleteFolder', policy: POLICIES.apiAccess, errors: ['FOLDER_NOT_FOUND'] }),
  /** Filing a link: another account's link or folder is FOLDER_ACCESS_DENIED, not the link routes' ACCESS_DENIED. */
  assign: operation({ id: 'setLinkFolder', policy: POLICIES.apiAccess, errors: ['MISSING_FOLDER_ID', 'INVALID_FOLDER_ID', 'NOT_FOUND', 'FOLDER_NOT_FOUND', 'FOLDER_ACCESS_DENIED'] }),
};
