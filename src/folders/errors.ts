import { AppError } from '../errors.js';

export const folderErrors = {
  notFound: () => new AppError(404, 'FOLDER_NOT_FOUND', 'Folder not found'),
  /** Spec §7 answers a folder or link of another account with 404 "Access denied" when assigning. */
  accessDenied: () => new AppError(404, 'ACCESS_DENIED', 'Access denied'),
  exists: () => new AppError(409, 'FOLDER_EXISTS', 'A folder with this name already exists'),
  limitReached: (limit: number) =>
    new AppError(403, 'FOLDER_LIMIT_REACHED', `Your plan allows ${limit} folder${limit === 1 ? '' : 's'}; delete one or upgrade for more`),
};
