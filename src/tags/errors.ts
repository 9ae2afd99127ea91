import { AppError, catalogue, errors } from '../errors.js';
import { MAX_TAGS_PER_LINK, TAG_MAX_LENGTH } from './rules.js';

export const tagErrors = {
  tooMany: () => errors.tooManyTags(MAX_TAGS_PER_LINK),
  notFound: errors.tagNotFound,
  /** A tag as such (rename, delete): none of the account's links carries it. */
  unknown: (tag: string) => new AppError('TAG_NOT_FOUND', `None of your links carries the tag "${tag}"`),
  /** A new name that breaks the tag rule: the `name` field's code, with the tag rule's one sentence. */
  invalidName: () => new AppError('INVALID_NAME', catalogue.INVALID_TAG.message(TAG_MAX_LENGTH)),
  exists: errors.tagExists,
};
