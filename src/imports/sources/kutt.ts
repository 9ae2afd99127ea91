import type { SourceFactory, SourceLink } from '../source.js';
import { baseHost, count, expectArray, expectObject, isObject, isoDate, items, shortUrlOf, sourceLink, sourceUrl, text, type JsonObject } from './shared.js';

/**
 * Kutt's API v2 (`/api/v2/links`, paged by `limit` and `skip`, key in `X-API-KEY`). Kutt serves at most 50 links a
 * page whatever is asked. Errors are `{ error: "message" }`.
 */

const PER_PAGE = 50;

const errorMessage = (body: unknown): string | null => (isObject(body) ? text(body.error) : null);

/** `link` is the full short URL (some Kutt versions send `{ link, url }`); without it, the domain and the address. */
function shortUrlOfKutt(item: JsonObject, base: string): string {
  const link = isObject(item.link) ? item.link.url : item.link;
  return shortUrlOf(link, text(item.domain) ?? baseHost(base), text(item.address));
}

export const kuttSource: SourceFactory = ({ base, key, http }) => {
  const headers = { 'X-API-KEY': key };

  const toLink = (item: JsonObject): SourceLink =>
    sourceLink({
      shortUrl: shortUrlOfKutt(item, base),
      url: text(item.target) ?? '',
      title: text(item.description),
      createdAt: isoDate(item.created_at),
      expiresAt: isoDate(item.expire_in),
      clicks: count(item.visit_count),
      endedBecause: item.banned === true ? 'Kutt banned it' : null,
      passwordProtected: item.password === true,
    });

  return {
    async *pages() {
      for (let skip = 0; ; ) {
        const body = expectObject(await http.get(sourceUrl(base, '/api/v2/links', { limit: PER_PAGE, skip }), headers, errorMessage), 'a JSON object with "data" and "total"');
        const data = items(expectArray(body.data, '"data" to be a list of links'), 'each of "data" to be an object');
        const total = count(body.total);
        if (data.length > 0) yield data.map(toLink);
        // Moves by what came back, not by what was asked: a server with a smaller cap still gets read to the end.
        skip += data.length;
        if (data.length === 0 || (total !== null ? skip >= total : data.length < PER_PAGE)) return;
      }
    },
  };
};
