import { errors } from '../errors.js';

export const utmErrors = {
  notFound: errors.templateNotFound,
  exists: errors.templateExists,
};
