import { AppError } from '../errors.js';
import { MAX_TAGS_PER_LINK } from './rules.js';

export const tagErrors = {
  tooMany: () => new AppError(400, 'TOO_MANY_TAGS', `A link carries at most ${MAX_TAGS_PER_LINK} tags; remove one first`),
  notFound: () => new AppError(404, 'TAG_NOT_FOUND', 'The link does not carry this tag'),
};
