import { hasControlCharacters } from './control-characters.js';
import { errors } from './errors.js';

/**
 * A name a person gives something (a folder, an affiliate program): trimmed, then 1 to `max` characters (code
 * points, so an emoji counts as one), no control characters (a name is shown on one line in lists).
 */
export function checkName(value: unknown, max: number): string {
  if (value === undefined || value === null) throw errors.missingName();
  if (typeof value !== 'string') throw invalidName(max);
  const name = value.trim();
  const length = [...name].length;
  if (length < 1 || length > max || hasControlCharacters(name)) throw invalidName(max);
  return name;
}

export const invalidName = (max: number) => errors.invalidName(max);
