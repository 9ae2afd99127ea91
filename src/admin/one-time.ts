import { createHash, randomBytes } from 'node:crypto';

/** A one-time link's secret: 32 random bytes; only its SHA-256 is stored, so a copy of the table opens nothing. */
export function oneTimeToken(): { token: string; id: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, id: tokenId(token) };
}

export const tokenId = (token: string): string => createHash('sha256').update(token).digest('base64url');

/** A token as it arrives: the right length and alphabet, or not looked up at all. */
export const looksLikeToken = (token: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(token);
