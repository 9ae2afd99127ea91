import type { SourceFactory, SourceLink, SourceVisit } from '../source.js';
import { baseHost, count, expectArray, expectObject, isObject, isoDate, items, shortUrlOf, sourceLink, sourceUrl, segment, tagNames, text, type JsonObject } from './shared.js';

/**
 * Shlink's REST API v3 (`/rest/v3/short-urls`, paged by `page` and `itemsPerPage`, key in `X-Api-Key`), the one
 * source that lists visits one by one. Errors are RFC 7807 problem documents.
 */

const LINKS_PER_PAGE = 100;
const VISITS_PER_PAGE = 500;

const problemMessage = (body: unknown): string | null => (isObject(body) ? (text(body.detail) ?? text(body.title)) : null);

/** Shlink names a short URL by its code and its domain (null for the default domain): the visits request needs both. */
interface ShlinkIdentity {
  shortCode: string;
  domain: string | null;
}

interface ShlinkPage {
  data: JsonObject[];
  pagesCount: number | null;
}

export const shlinkSource: SourceFactory = ({ base, key, http }) => {
  const headers = { 'X-Api-Key': key };
  const identities = new Map<string, ShlinkIdentity>();

  const page = async (path: string, query: Record<string, string | number | undefined>, field: 'shortUrls' | 'visits'): Promise<ShlinkPage> => {
    const body = expectObject(await http.get(sourceUrl(base, path, query), headers, problemMessage), `a JSON object with "${field}"`);
    const list = expectObject(body[field], `"${field}": { data: [...], pagination: {...} }`);
    const data = items(expectArray(list.data, `"${field}.data" to be a list`), `each of "${field}.data" to be an object`);
    const pagination = isObject(list.pagination) ? list.pagination : {};
    return { data, pagesCount: count(pagination.pagesCount) };
  };

  /** Asks page after page until Shlink's own page count is reached (or, without one, until a page comes back short). */
  async function* paged<T>(path: string, query: Record<string, string | undefined>, field: 'shortUrls' | 'visits', perPage: number, read: (item: JsonObject) => T | null): AsyncGenerator<T[]> {
    for (let n = 1; ; n++) {
      const { data, pagesCount } = await page(path, { ...query, page: n, itemsPerPage: perPage }, field);
      const kept = data.map(read).filter((item): item is T => item !== null);
      if (kept.length > 0) yield kept;
      if (data.length === 0 || (pagesCount !== null ? n >= pagesCount : data.length < perPage)) return;
    }
  }

  const toLink = (item: JsonObject): SourceLink => {
    const shortCode = text(item.shortCode);
    const domain = text(item.domain);
    const shortUrl = shortUrlOf(item.shortUrl, domain ?? baseHost(base), shortCode);
    if (shortCode) identities.set(shortUrl, { shortCode, domain });
    const meta = isObject(item.meta) ? item.meta : {};
    const summary = isObject(item.visitsSummary) ? item.visitsSummary : {};
    return sourceLink({
      shortUrl,
      url: text(item.longUrl) ?? '',
      title: text(item.title),
      tags: tagNames(item.tags),
      createdAt: isoDate(item.dateCreated),
      expiresAt: isoDate(meta.validUntil),
      activeFrom: isoDate(meta.validSince),
      maxClicks: count(meta.maxVisits),
      clicks: count(summary.total) ?? count(item.visitsCount),
    });
  };

  const toVisit = (item: JsonObject): SourceVisit | null => {
    const at = isoDate(item.date);
    if (!at) return null; // a visit with no date cannot be placed in the statistics
    const location = isObject(item.visitLocation) ? item.visitLocation : {};
    const country = typeof location.countryCode === 'string' && /^[a-z]{2}$/i.test(location.countryCode) ? location.countryCode.toUpperCase() : null;
    return { at, referrer: text(item.referer), userAgent: typeof item.userAgent === 'string' ? item.userAgent : '', country };
  };

  return {
    pages: () =>
      // Oldest first, so links created while the import runs join the end of the listing instead of shifting its pages.
      paged('/rest/v3/short-urls', { orderBy: 'dateCreated-ASC' }, 'shortUrls', LINKS_PER_PAGE, toLink),
    visitsOf: (link) => {
      // A link this adapter did not list is taken to be on the default domain.
      const identity = identities.get(link.shortUrl) ?? { shortCode: link.code, domain: null };
      return paged(`/rest/v3/short-urls/${segment(identity.shortCode)}/visits`, { domain: identity.domain ?? undefined }, 'visits', VISITS_PER_PAGE, toVisit);
    },
  };
};
