import { AppError } from '../errors.js';

export const viewErrors = {
  notFound: () => new AppError(404, 'VIEW_NOT_FOUND', 'Saved view not found'),
  exists: () => new AppError(409, 'VIEW_EXISTS', 'A saved view with this name already exists'),
};
