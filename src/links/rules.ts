import { AppError, errors } from '../errors.js';
import { validationError } from '../schema/messages.js';
import type { LinkKey } from './link-key.js';
import { isOwnHost } from '../net/hostname.js';

export const MAX_URL_LENGTH = 4096;
export const CODE_PATTERN = /^[A-Za-z0-9]{6}$/;
/** The longest imported short path kept as it was (src/imports); longer ones get a Snip code. */
export const MAX_LEGACY_PATH = 200;

/**
 * A destination must be an absolute http(s) URL of sane length that does not point back at Snip's own short
 * host (that would loop). Returns the URL as the WHATWG parser normalises it.
 */
export function checkDestination(raw: unknown, ownHostnames: ReadonlySet<string>): string {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) throw errors.missingUrl();
  if (typeof raw !== 'string') throw errors.invalidUrl('must be a string');
  const text = raw.trim();
  if (text.length > MAX_URL_LENGTH) throw errors.invalidUrl(`longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw errors.invalidUrl('not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw errors.invalidUrl('only http and https URLs can be shortened');
  if (!url.hostname) throw errors.invalidUrl('the URL has no host');
  // `SNIP.test.` or, on a loopback BASE_URL, `127.0.0.1` and `[::1]` name this service too: no loop gets past.
  if (isOwnHost(url.hostname, ownHostnames)) throw errors.invalidUrl('a short link cannot point at this service');
  return url.toString();
}

/**
 * A URL a link sends some visitors to besides its destination (a rule's, a variant's, the expired fallback), held to
 * the destination rules; a refusal says where it is, with that field's code (`refusal`).
 */
export function checkOtherDestination(url: string, ownHostnames: ReadonlySet<string>, refusal: (why: string) => AppError): string {
  try {
    return checkDestination(url, ownHostnames);
  } catch (error) {
    if (error instanceof AppError) throw refusal(`is not a destination: ${error.message}`);
    throw error;
  }
}

/** Blocked countries as stored: upper case, each once, sorted; an empty list blocks nobody and is stored as none. */
export function normalisedCountries(codes: readonly string[] | null): string[] | null {
  if (codes === null) return null;
  const unique = [...new Set(codes.map((c) => c.toUpperCase()))].sort();
  return unique.length > 0 ? unique : null;
}

/**
 * A time the schema held to RFC 3339's date-time format (src/links/input.ts); one that format allows and JavaScript
 * cannot place (a leap second, 23:59:60) is refused in the schema's words.
 */
function parseInstant(value: string, field: 'expiresAt' | 'activeFrom'): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw validationError([field], { rule: 'format', format: 'date-time' });
  return ms;
}

/**
 * The schedule rules: neither time may lie in the past, and a link must expire after it becomes active.
 * Returns the times normalised to ISO UTC strings (null where cleared or absent).
 */
export function checkSchedule(
  times: { expiresAt: string | null; activeFrom: string | null },
  changed: { expiresAt: boolean; activeFrom: boolean },
  now: Date,
): { expiresAt: string | null; activeFrom: string | null } {
  const expires = times.expiresAt === null ? null : parseInstant(times.expiresAt, 'expiresAt');
  const active = times.activeFrom === null ? null : parseInstant(times.activeFrom, 'activeFrom');
  if (changed.expiresAt && expires !== null && expires <= now.getTime()) {
    throw errors.expiresAtInPast();
  }
  if (changed.activeFrom && active !== null && active < now.getTime()) {
    throw errors.activeFromInPast();
  }
  if (expires !== null && active !== null && expires <= active) {
    throw errors.expiresBeforeActive();
  }
  return {
    expiresAt: expires === null ? null : new Date(expires).toISOString(),
    activeFrom: active === null ? null : new Date(active).toISOString(),
  };
}

/** A short path is a 6-character code or `<prefix>/<slug>`; anything else names no link. */
export function parseShortPath(shortPath: string): LinkKey {
  const parts = shortPath.split('/');
  if (parts.length === 1 && CODE_PATTERN.test(parts[0]!)) return { code: parts[0]! };
  if (parts.length === 2 && parts[0] && parts[1]) return { namespace: parts[0].toLowerCase(), slug: parts[1] };
  throw errors.linkNotFound();
}
