import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { errors } from '../errors.js';

/**
 * Dashboard passwords, hashed with scrypt (Node's own, memory-hard; OWASP's second choice after argon2id, with no
 * native add-on to build). The parameters are stored with each hash, so raising them later re-hashes nobody.
 */
const PARAMS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
// 128 * N * r bytes is 32 MiB at these parameters, exactly Node's default ceiling: give it room.
const MAX_MEMORY = 64 * 1024 * 1024;

export const PASSWORD_MIN_LENGTH = 8;
/** Long enough for any passphrase or manager; short enough that hashing one costs what hashing any costs. */
export const PASSWORD_MAX_LENGTH = 256;

function derive(password: string, salt: Buffer, options: ScryptOptions, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, length, { ...options, maxmem: MAX_MEMORY }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** Refuses a password the rules do not allow: 400 INVALID_PASSWORD. */
export function checkNewPassword(password: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) throw errors.invalidPassword(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH);
}

/** `scrypt$N$r$p$<salt>$<hash>`, base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS, KEY_LENGTH);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when `password` is the one `stored` was made from; a malformed hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) }, expected.length);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Hashed once at start: an unknown email costs a sign-in the same time as a wrong password, so timing tells nothing. */
let decoy: Promise<string> | null = null;
export const decoyHash = (): Promise<string> => (decoy ??= hashPassword(randomBytes(12).toString('base64url')));
