import type { LinkSummary } from '../links/events.js';
import type { DomainEvents } from '../events/bus.js';
import { fullPathOf, type Link } from '../links/link.js';
import type { WebhookEvent } from './events.js';

/** The short URL of a link: the one thing payloads need from the link presenter. */
export type ShortUrlOf = (link: Pick<Link, 'code' | 'namespace' | 'slug'>) => string;

type LinkLike = Pick<Link, 'id' | 'code' | 'namespace' | 'slug' | 'url'>;

/** The fields every link event carries: spec 6.2's `shortCode`, `url` (the short URL) and `destination`. */
const linkFields = (link: LinkLike, shortUrl: ShortUrlOf) => ({
  linkId: link.id,
  shortCode: link.code,
  fullPath: fullPathOf(link),
  url: shortUrl(link),
  destination: link.url,
});

const settings = (link: Link) => ({
  createdAt: link.createdAt,
  expiresAt: link.expiresAt,
  activeFrom: link.activeFrom,
  maxClicks: link.maxClicks,
  clicks: link.clicks,
  blockedCountries: link.blockedCountries,
});

/**
 * The `data` of each event's delivery body. `link.click` carries exactly the seven strings of spec 6.2
 * (an unknown country or referrer is an empty string); the others carry the link and what the event is about.
 */
export function eventData<E extends Exclude<WebhookEvent, 'link.click'>>(event: E, payload: DomainEvents[E], shortUrl: ShortUrlOf): Record<string, unknown> {
  switch (event) {
    case 'link.created':
    case 'link.deleted':
    case 'link.expired': {
      const { link } = payload as DomainEvents['link.created'];
      return { ...linkFields(link, shortUrl), ...settings(link) };
    }
    case 'link.updated': {
      const { link, previous } = payload as DomainEvents['link.updated'];
      return { ...linkFields(link, shortUrl), ...settings(link), previous: { destination: previous.url, ...settings(previous) } };
    }
    case 'link.limit_reached': {
      const { link } = payload as DomainEvents['link.limit_reached'];
      return linkFields(link, shortUrl);
    }
    case 'link.geo_blocked': {
      const { link, country } = payload as DomainEvents['link.geo_blocked'];
      return { ...linkFields(link, shortUrl), country };
    }
  }
  throw new Error(`no payload for ${String(event)}`);
}

export function clickData(click: DomainEvents['link.click'], link: LinkSummary, shortUrl: ShortUrlOf): Record<string, string> {
  return {
    shortCode: link.code,
    url: shortUrl(link),
    destination: link.url,
    country: click.country ?? '',
    device: click.device,
    referrer: click.referrer ?? '',
    userAgent: click.userAgent,
  };
}

/** The body every delivery sends, serialised once: retries send the same bytes and the same signature. */
export const deliveryBody = (event: string, timestamp: string, data: Record<string, unknown>): string => JSON.stringify({ event, timestamp, data });
