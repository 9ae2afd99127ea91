import { domainToASCII } from 'node:url';
import { AppError, errors } from '../errors.js';
import { checkTag } from '../tags/rules.js';
import { normalHostname } from '../net/hostname.js';

/**
 * A link-list filter, as a saved view keeps it and as the link list applies it. Every key is optional; given keys
 * all apply (AND).
 */
export interface ViewFilters {
  /** One of the account's folders, or `none` for the links in no folder. */
  folderId?: string;
  /** Links carrying this tag, in any case. */
  tag?: string;
  /** Links whose short URL is on this custom domain. */
  domain?: string;
  /** Text the destination, the code or the custom slug contains, ignoring case. */
  search?: string;
}

export const FILTER_KEYS = ['folderId', 'tag', 'domain', 'search'] as const;
export const SEARCH_MAX = 200;

/** A search as given: trimmed; empty is no search; longer than 200 characters is refused. */
export function checkSearch(value: string): string | undefined {
  const text = value.trim();
  if ([...text].length > SEARCH_MAX) throw errors.invalidSearch(SEARCH_MAX);
  return text === '' ? undefined : text;
}

/** A domain filter in the stored spelling of domains (lower case, ASCII, no trailing dot). */
export function checkDomainFilter(value: string): string {
  const ascii = domainToASCII(normalHostname(value));
  if (ascii === '' || ascii.length > 253) throw new AppError('INVALID_DOMAIN', 'domain must be a hostname such as links.example.com');
  return ascii;
}

const invalid = errors.invalidFilters;

/**
 * A view's filters, strictly: an object of the keys above only, each a string that passes its rule (a folder id
 * or `none`, a valid tag, a hostname, a search of 1-200 characters). Returned in their stored spelling.
 */
export function checkFilters(raw: unknown): ViewFilters {
  if (raw === undefined) throw errors.missingFilters();
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalid('filters must be an object');
  const given = raw as Record<string, unknown>;
  const unknown = Object.keys(given).filter((key) => !(FILTER_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) throw invalid(`unknown key ${unknown.map((k) => `"${k}"`).join(', ')}; known: ${FILTER_KEYS.join(', ')}`);
  for (const key of FILTER_KEYS) {
    if (given[key] !== undefined && typeof given[key] !== 'string') throw invalid(`${key} must be a string`);
  }
  const { folderId, tag, domain, search } = given as ViewFilters;
  const filters: ViewFilters = {};
  if (folderId !== undefined) {
    if (folderId.trim() === '') throw invalid('folderId must be a folder id or "none"');
    filters.folderId = folderId.trim();
  }
  if (tag !== undefined) filters.tag = rethrow(() => checkTag(tag).tag);
  if (domain !== undefined) filters.domain = rethrow(() => checkDomainFilter(domain));
  if (search !== undefined) {
    const text = rethrow(() => checkSearch(search));
    if (text === undefined) throw invalid('search must not be empty');
    filters.search = text;
  }
  return filters;
}

/** A rule's own 400 (INVALID_TAG, ...) becomes INVALID_FILTERS, naming what was wrong. */
function rethrow<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof AppError && error.status === 400) throw invalid(error.message);
    throw error;
  }
}
