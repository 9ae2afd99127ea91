import { errors } from '../errors.js';

export const folderErrors = {
  notFound: errors.folderNotFound,
  /** Spec §7 answers a folder or link of another account with 404 "Access denied" when assigning. */
  accessDenied: errors.folderAccessDenied,
  exists: errors.folderExists,
  limitReached: errors.folderLimitReached,
};
