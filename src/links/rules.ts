import { errors } from '../errors.js';
import { validationError } from '../http/validation-messages.js';
import type { LinkKey } from './repository.js';
import { isOwnHost } from '../net/hostname.js';

export const MAX_URL_LENGTH = 4096;
export const CODE_PATTERN = /^[A-Za-z0-9]{6}$/;
export const SLUG_PATTERN = /^[a-zA-Z0-9-]{3,50}$/;
export const MAX_CLICKS_CEILING = 2_147_483_647;

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
 * The rules below are the link schema's own (src/links/schemas.ts), checked again for inputs that reach the
 * service without passing that schema (bulk items, MCP tools, CLI imports); they answer in the schema's words, so
 * one rule reads the same on every surface.
 */
export function checkSlug(slug: string): string {
  if (slug.length < 3) throw validationError(['customSlug'], { rule: 'minLength', limit: 3 });
  if (slug.length > 50) throw validationError(['customSlug'], { rule: 'maxLength', limit: 50 });
  if (!SLUG_PATTERN.test(slug)) throw validationError(['customSlug'], { rule: 'pattern', pattern: '^[a-zA-Z0-9-]+$' });
  return slug;
}

/**
 * Countries whose visitors a link refuses (ISO 3166-1 alpha-2, any case); an empty list blocks nobody and is
 * stored as none.
 */
export function checkBlockedCountries(value: unknown): string[] | null {
  if (value === null) return null;
  if (!Array.isArray(value) || value.length > 250 || !value.every((c) => typeof c === 'string' && /^[A-Za-z]{2}$/.test(c))) {
    throw errors.invalidBlockedCountries();
  }
  const codes = [...new Set(value.map((c: string) => c.toUpperCase()))].sort();
  return codes.length > 0 ? codes : null;
}

export function checkMaxClicks(value: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw validationError(['maxClicks'], { rule: 'type', type: 'integer' });
  if (value < 1) throw validationError(['maxClicks'], { rule: 'atLeast', limit: 1 });
  if (value > MAX_CLICKS_CEILING) throw validationError(['maxClicks'], { rule: 'atMost', limit: MAX_CLICKS_CEILING });
  return value;
}

function parseInstant(value: string, field: 'expiresAt' | 'activeFrom'): number {
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(ms)) throw validationError([field], { rule: 'format', format: 'date-time' });
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
