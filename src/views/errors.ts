import { errors } from '../errors.js';

export const viewErrors = {
  notFound: errors.viewNotFound,
  exists: errors.viewExists,
};
