import type { Link } from './link.js';

/** What the redirect knows of a link when it announces something. */
export type LinkSummary = Pick<Link, 'id' | 'accountId' | 'code' | 'namespace' | 'slug' | 'url' | 'domain'>;

// The link lifecycle's events (spec section 6), registered with the bus, which knows no feature.
declare module '../events/bus.js' {
  interface DomainEvents {
    'link.created': { link: Link };
    'link.updated': { link: Link; previous: Link };
    'link.deleted': { link: Link };
    'link.limit_reached': { link: LinkSummary };
    /** A visitor from a country the link blocks was shown the 451 page (bots and HEAD requests are not announced). */
    'link.geo_blocked': { link: LinkSummary; country: string };
    'link.expired': { link: Link };
    /** A link's destination was scanned; the redirect drops what it cached of the link. */
    'link.scanned': { link: Pick<Link, 'id' | 'code' | 'namespace' | 'slug' | 'legacyPath'>; status: 'safe' | 'warning' | 'unsafe' };
    /** A recorded click (bots and HEAD requests never make one). */
    'link.click': {
      linkId: string;
      accountId: string;
      at: string;
      country: string | null;
      device: string;
      referrer: string | null;
      userAgent: string;
    };
  }
}
