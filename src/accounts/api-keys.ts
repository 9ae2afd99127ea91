import { randomBase62, secretHash } from '../ids.js';

export const API_KEY_PREFIX = 'snip_';
const KEY_BODY_LENGTH = 40;
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

/** Keys carry 238 random bits, so a fast hash is enough: nothing can be brute-forced from it. */
export const hashApiKey = (key: string): string => secretHash(key);

export function generateApiKey(): { key: string; hash: string; displayPrefix: string } {
  const key = API_KEY_PREFIX + randomBase62(KEY_BODY_LENGTH);
  return { key, hash: hashApiKey(key), displayPrefix: key.slice(0, DISPLAY_PREFIX_LENGTH) };
}

export const looksLikeApiKey = (value: string): boolean => /^snip_[A-Za-z0-9]{32,}$/.test(value);
