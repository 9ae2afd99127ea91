import { errors } from '../errors.js';

/** Folder name lengths: Description B allows 40 characters, A (and the MCP tools) 50. */
export const NAME_MAX_A = 50;
export const NAME_MAX_B = 40;

const COLOR_PATTERN = /^#[0-9A-Fa-f]{6}$/;

/** A folder's name follows the rules of every name (src/names.ts). */
export { checkName, invalidName } from '../names.js';

/** `#RRGGBB` in either case, kept upper case so one colour has one spelling; null means no colour. */
export function checkColor(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !COLOR_PATTERN.test(value)) throw errors.invalidColor();
  return value.toUpperCase();
}

/** An assignment's target: a folder id, or null for none (so a client must say which it means). */
export function checkFolderId(value: unknown): string | null {
  if (value === undefined) throw errors.missingFolderId();
  if (value !== null && typeof value !== 'string') throw errors.invalidFolderId();
  return value;
}

/** Names that differ only in case (or Unicode normalisation) are the same folder to a person. */
export const sameName = (a: string, b: string): boolean => a.normalize('NFC').toLowerCase() === b.normalize('NFC').toLowerCase();
