import { createHash, randomFillSync } from 'node:crypto';

/** The SHA-256 (hex) a secret is stored as: API keys, web2app session ids. */
export const secretHash = (secret: string): string => createHash('sha256').update(secret).digest('hex');

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * CSPRNG bytes drawn a page at a time and handed out once each, as node:crypto's randomUUID does: a call of
 * randomBytes costs microseconds, and a 1,000-link bulk create asks for thousands of ids and codes.
 */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;
function randomByte(): number {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++]!;
}

/** Uniformly random base62 text from the system CSPRNG (rejection sampling keeps it unbiased). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

let lastMs = 0;
let sequence = 0;

/**
 * `<kind>_` + time (ms, base36, fixed width) + a per-process sequence + randomness: ids sort in creation order,
 * even within one millisecond, and stay unguessable.
 */
export function newId(kind: string): string {
  const ms = Date.now();
  sequence = ms === lastMs ? sequence + 1 : 0;
  lastMs = ms;
  return `${kind}_${ms.toString(36).padStart(9, '0')}${sequence.toString(36).padStart(3, '0')}${randomBase62(10)}`;
}
