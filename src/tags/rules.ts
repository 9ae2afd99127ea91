import { errors } from '../errors.js';

/** A tag is 1-30 characters (code points) once trimmed. */
export const TAG_MAX_LENGTH = 30;
/** Tags one link may carry. */
export const MAX_TAGS_PER_LINK = 20;

// Letters and digits of any script (with their combining marks), space, hyphen and underscore.
const TAG_PATTERN = /^[\p{L}\p{M}\p{N} _-]+$/u;

/** A tag as written (NFC, trimmed, inner runs of spaces made one) and its key (lower case), one tag per key and link. */
export interface CheckedTag {
  tag: string;
  key: string;
}

export const invalidTag = () =>
  errors.invalidTag(TAG_MAX_LENGTH);

export function checkTag(value: unknown): CheckedTag {
  if (value === undefined || value === null) throw errors.missingTag();
  if (typeof value !== 'string') throw invalidTag();
  const tag = value.normalize('NFC').trim().replace(/ {2,}/g, ' ');
  const length = [...tag].length;
  if (length < 1 || length > TAG_MAX_LENGTH || !TAG_PATTERN.test(tag)) throw invalidTag();
  return { tag, key: tagKeyOf(tag) };
}

/** Another shortener's tag as a Snip tag (see TagsService.tagImported); null when nothing of it can be kept. */
export function importedTag(raw: string): CheckedTag | null {
  const cleaned = [...raw.normalize('NFC').replace(/[^\p{L}\p{M}\p{N} _-]+/gu, '-').trim().replace(/ {2,}/g, ' ')].slice(0, TAG_MAX_LENGTH).join('').trim();
  if (cleaned === '' || /^-+$/.test(cleaned)) return null;
  try {
    return checkTag(cleaned);
  } catch {
    return null;
  }
}

/** "Sale" and "sale" are one tag: the key is the lower-case spelling. */
export const tagKeyOf = (tag: string): string => tag.toLowerCase();

/** A link's tags in display order: by key, then as written (code-unit order, the same on every database). */
export const byTag = (a: { tag: string; key: string }, b: { tag: string; key: string }): number =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0;
