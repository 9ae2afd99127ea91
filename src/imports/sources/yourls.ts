import { errors } from '../../errors.js';
import type { SourceFactory, SourceLink } from '../source.js';
import { count, expectObject, isObject, isoDate, items, shortUrlOf, sourceLink, sourceUrl, text, type JsonObject } from './shared.js';

/**
 * YOURLS's API (`yourls-api.php?action=stats&filter=last`, paged by `limit` and `start`, the key as a `signature`
 * token). Errors are `{ errorCode, message }`.
 */

const PER_PAGE = 100;

const errorMessage = (body: unknown): string | null => (isObject(body) ? text(body.message) : null);

/** YOURLS gives `2024-01-02 03:04:05`, its server's local time with no zone; read as UTC. */
function yourlsTime(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})$/.exec(value.trim());
  return isoDate(match ? `${match[1]}T${match[2]}Z` : value);
}

/** The page's links in their order: `{ link_1: {...}, link_2: {...} }`, absent or empty (`{}`, or PHP's `[]`) when none. */
function pageLinks(body: JsonObject): JsonObject[] {
  const { links } = body;
  if (links === undefined || links === null) return [];
  if (Array.isArray(links)) return items(links, 'each of "links" to be an object');
  const list = expectObject(links, '"links" to be an object of link_1, link_2, ...');
  const ordered = Object.entries(list).sort(([a], [b]) => position(a) - position(b));
  return items(ordered.map(([, item]) => item), 'each of "links" to be an object');
}

const position = (name: string): number => Number(/(\d+)$/.exec(name)?.[1] ?? 0);

export const yourlsSource: SourceFactory = ({ base, key, http }) => {
  const toLink = (item: JsonObject): SourceLink =>
    sourceLink({
      shortUrl: shortUrlOf(item.shorturl, null, null),
      url: text(item.url) ?? '',
      title: text(item.title),
      createdAt: yourlsTime(item.timestamp),
      clicks: count(item.clicks),
    });

  return {
    async *pages() {
      for (let start = 0; ; ) {
        const url = sourceUrl(base, '/yourls-api.php', { action: 'stats', filter: 'last', limit: PER_PAGE, start, format: 'json', signature: key });
        const body = expectObject(await http.get(url, {}, errorMessage), 'a JSON object with "links" and "stats"');
        if (!('links' in body) && !isObject(body.stats)) throw errors.sourceError('expected a stats answer: { links: { link_1: {...} }, stats: { total_links } }');
        const links = pageLinks(body);
        const total = isObject(body.stats) ? count(body.stats.total_links) : null;
        if (links.length > 0) yield links.map(toLink);
        start += links.length;
        if (links.length === 0 || (total !== null ? start >= total : links.length < PER_PAGE)) return;
      }
    },
  };
};
