import type { SourceFactory, SourceLink } from '../source.js';
import { count, expectArray, isObject, isoDate, items, shortUrlOf, sourceLink, sourceUrl, tagNames, text, type JsonObject } from './shared.js';

/**
 * Dub's API (`GET /links`, paged by `page` and `pageSize`, Bearer token): a plain JSON array per page, at most 100
 * links. Errors are `{ error: { code, message, doc_url } }`.
 */

const PER_PAGE = 100;

const errorMessage = (body: unknown): string | null => (isObject(body) && isObject(body.error) ? text(body.error.message) : null);

export const dubSource: SourceFactory = ({ base, key, http }) => {
  const headers = { Authorization: `Bearer ${key}` };

  // Older Dub answers carry only a `tagId`, an id with no name: nothing a tag on Snip could be made of.
  const toLink = (item: JsonObject): SourceLink =>
    sourceLink({
      shortUrl: shortUrlOf(item.shortLink, text(item.domain), text(item.key)),
      url: text(item.url) ?? '',
      title: text(item.title),
      tags: tagNames(item.tags),
      createdAt: isoDate(item.createdAt),
      expiresAt: isoDate(item.expiresAt),
      clicks: count(item.clicks),
      password: text(item.password),
    });

  return {
    async *pages() {
      for (let page = 1; ; page++) {
        // Oldest first, so links created during the import join the end instead of shifting the pages; archived
        // links still redirect on Dub, so they come across too.
        const query = { page, pageSize: PER_PAGE, sortBy: 'createdAt', sortOrder: 'asc', showArchived: 'true' };
        const body = await http.get(sourceUrl(base, '/links', query), headers, errorMessage);
        const links = items(expectArray(body, 'a JSON array of links'), 'each link to be an object');
        if (links.length > 0) yield links.map(toLink);
        if (links.length < PER_PAGE) return;
      }
    },
  };
};
