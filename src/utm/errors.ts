import { AppError } from '../errors.js';

export const utmErrors = {
  notFound: () => new AppError(404, 'TEMPLATE_NOT_FOUND', 'UTM template not found'),
  exists: () => new AppError(409, 'TEMPLATE_EXISTS', 'A UTM template with this name already exists'),
};
