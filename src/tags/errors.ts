import { errors } from '../errors.js';
import { MAX_TAGS_PER_LINK } from './rules.js';

export const tagErrors = {
  tooMany: () => errors.tooManyTags(MAX_TAGS_PER_LINK),
  notFound: errors.tagNotFound,
};
