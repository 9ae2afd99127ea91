import { errors } from '../../errors.js';
import type { SourceFactory, SourceLink } from '../source.js';
import { count, expectArray, expectObject, isObject, isoDate, items, sourceLink, sourceUrl, segment, tagNames, text, type JsonObject } from './shared.js';

/**
 * Bitly's API v4 (Bearer token): the user's default group (`/v4/user`), its bitlinks (`/v4/groups/{guid}/bitlinks`,
 * paged by following `pagination.next`), and each link's click total (`/v4/bitlinks/{bitlink}/clicks/summary`),
 * which the listing does not carry. Errors are `{ message, description, resource }`.
 */

const PER_PAGE = 100;

const errorMessage = (body: unknown): string | null => (isObject(body) ? (text(body.description) ?? text(body.message)) : null);

/**
 * The next page's URL. Bitly writes it out in full; one on another origin than the source's is asked of the source
 * itself (its path and query only), so the token never goes to a host the person importing did not name.
 */
export function nextPageUrl(next: string, base: string): string {
  const origin = new URL(base).origin;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    throw errors.sourceError(`expected "pagination.next" to be a URL, not ${JSON.stringify(next.slice(0, 100))}`);
  }
  // Only a web address is followed: any other scheme has an opaque path that would splice into base as a host.
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw errors.sourceError(`expected "pagination.next" to be an http(s) URL, not ${JSON.stringify(next.slice(0, 100))}`);
  return url.origin === origin ? url.toString() : base.replace(/\/+$/, '') + url.pathname + url.search;
}

export const bitlySource: SourceFactory = ({ base, key, http }) => {
  const headers = { Authorization: `Bearer ${key}` };
  /** The Bitly id (`bit.ly/abc`) of each short URL emitted, which a branded one does not spell. */
  const ids = new Map<string, string>();

  const toLink = (item: JsonObject): SourceLink => {
    const branded = Array.isArray(item.custom_bitlinks) ? item.custom_bitlinks.map(text).find((url) => url !== null) : undefined;
    const id = text(item.id);
    // A branded domain is what can move to Snip; bit.ly itself cannot, so the branded URL stands for the link.
    const shortUrl = branded ?? text(item.link) ?? (id ? `https://${id}` : '');
    if (id) ids.set(shortUrl, id);
    return sourceLink({
      shortUrl,
      url: text(item.long_url) ?? '',
      title: text(item.title),
      tags: tagNames(item.tags),
      createdAt: isoDate(item.created_at),
      expiresAt: isoDate(item.expiration_at),
    });
  };

  return {
    async *pages() {
      const user = expectObject(await http.get(sourceUrl(base, '/v4/user'), headers, errorMessage), 'a JSON object for the user');
      const group = text(user.default_group_guid);
      if (!group) throw errors.sourceError('expected the user to have a "default_group_guid"');
      // Hidden (archived) bitlinks still redirect, so they come across too.
      let url = sourceUrl(base, `/v4/groups/${segment(group)}/bitlinks`, { size: PER_PAGE, archived: 'both' });
      const asked = new Set<string>([url]);
      for (;;) {
        const body = expectObject(await http.get(url, headers, errorMessage), 'a JSON object with "links" and "pagination"');
        const links = items(expectArray(body.links, '"links" to be a list of bitlinks'), 'each of "links" to be an object');
        if (links.length > 0) yield links.map(toLink);
        const next = isObject(body.pagination) ? text(body.pagination.next) : null;
        if (links.length === 0 || !next) return;
        url = nextPageUrl(next, base);
        if (asked.has(url)) throw errors.sourceError('"pagination.next" points back at a page already read');
        asked.add(url);
      }
    },
    async clicksOf(link) {
      const id = ids.get(link.shortUrl) ?? `${link.domain}/${link.code}`;
      // The bitlink goes in the path as Bitly documents it, its slash kept: /v4/bitlinks/bit.ly/abc/clicks/summary
      const path = `/v4/bitlinks/${id.split('/').map(segment).join('/')}/clicks/summary`;
      const body = expectObject(await http.get(sourceUrl(base, path, { unit: 'day', units: -1 }), headers, errorMessage), 'a JSON object with "total_clicks"');
      const total = count(body.total_clicks);
      if (total === null) throw errors.sourceError(`expected "total_clicks" to be a number for ${id}`);
      return total;
    },
  };
};
