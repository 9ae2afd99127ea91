import { errors } from '../../errors.js';
import type { SourceLink } from '../source.js';

/**
 * What the five adapters share: building their request URLs, and reading the loosely typed JSON of another service
 * into `SourceLink` fields. A body whose structure is not the documented one is a SOURCE_ERROR saying what was
 * expected; a single odd field inside a well-formed item is read as absent, and the import service judges the link.
 */

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{base}{path}?{query}`: `path` starts with a slash and is already encoded; absent query values are left out. */
export function sourceUrl(base: string, path: string, query: Record<string, string | number | undefined> = {}): string {
  let url: URL;
  try {
    url = new URL(base.replace(/\/+$/, '') + path);
  } catch {
    throw errors.sourceError(`${base} is not a URL`);
  }
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
  return url.toString();
}

/** A path segment, encoded. */
export const segment = (value: string): string => encodeURIComponent(value);

export function expectObject(value: unknown, expected: string): JsonObject {
  if (!isObject(value)) throw errors.sourceError(`expected ${expected}`);
  return value;
}

export function expectArray(value: unknown, expected: string): unknown[] {
  if (!Array.isArray(value)) throw errors.sourceError(`expected ${expected}`);
  return value;
}

/** Each element of a listing, which must be an object. */
export function items(list: unknown[], expected: string): JsonObject[] {
  return list.map((item) => expectObject(item, expected));
}

/** A non-empty string, or null. */
export const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** A count given as a number or as a string of digits (YOURLS sends its numbers as strings); null otherwise. */
export function count(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : null;
}

/** An ISO 8601 date-time when the value is a date the runtime can read, else null. */
export function isoDate(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const at = new Date(value);
  // Years past 9999 (or before 1970) write as +275760-... and sort before every real date as text.
  const year = at.getUTCFullYear();
  return Number.isNaN(at.getTime()) || year < 1970 || year > 9999 ? null : at.toISOString();
}

/** Tag names from a list of strings or of `{ name }` objects (Dub); anything else in the list is skipped. */
export function tagNames(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const names = value.map((tag) => (typeof tag === 'string' ? tag : isObject(tag) ? tag.name : null));
  return names.filter((name): name is string => typeof name === 'string' && name.trim() !== '');
}

/**
 * The host (lower case, no port) and the decoded path (no leading slash) of a short URL. A short URL without a scheme
 * (`bit.ly/abc`) is read as https; one that is no URL at all gives empty strings, for the import service to refuse.
 */
export function shortUrlParts(shortUrl: string): { domain: string; code: string } {
  if (shortUrl === '') return { domain: '', code: '' };
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(shortUrl) ? shortUrl : `https://${shortUrl}`);
  } catch {
    return { domain: '', code: '' };
  }
  const path = url.pathname.replace(/^\//, '');
  let code = path;
  try {
    code = decodeURIComponent(path);
  } catch {
    // A stray % that is not an escape: the path as written is the best account of it.
  }
  return { domain: url.hostname.toLowerCase(), code };
}

/** The short URL a service shows, or one built from its parts when it leaves it out. */
export function shortUrlOf(given: unknown, host: string | null, code: string | null): string {
  const url = text(given);
  if (url) return url;
  return host && code !== null ? `https://${host}/${encodeURI(code)}` : '';
}

/** The host of the API base, which self-hosted services (Shlink, Kutt) usually also serve their default domain on. */
export function baseHost(base: string): string | null {
  try {
    return new URL(base).host;
  } catch {
    return null;
  }
}

/** A SourceLink with its short URL split into domain and code, and every field the source left out as null. */
export function sourceLink(fields: Partial<SourceLink> & { shortUrl: string }): SourceLink {
  return {
    ...shortUrlParts(fields.shortUrl),
    shortUrl: fields.shortUrl,
    url: fields.url ?? '',
    title: fields.title ?? null,
    tags: fields.tags ?? [],
    createdAt: fields.createdAt ?? null,
    expiresAt: fields.expiresAt ?? null,
    activeFrom: fields.activeFrom ?? null,
    maxClicks: fields.maxClicks ?? null,
    clicks: fields.clicks ?? null,
    endedBecause: fields.endedBecause ?? null,
    passwordProtected: fields.passwordProtected ?? false,
    password: fields.password ?? null,
  };
}
