/**
 * What an import reads from another link shortener (Shlink, Kutt, YOURLS, Bitly, Dub): each source adapter in
 * sources/ turns its service's documented API into these plain records, and knows nothing about Snip's rules. The
 * import service (service.ts) decides what each record becomes.
 */

export const SOURCE_NAMES = ['shlink', 'kutt', 'yourls', 'bitly', 'dub'] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];
export const isSourceName = (value: unknown): value is SourceName => (SOURCE_NAMES as readonly unknown[]).includes(value);

/** One visit as Shlink records it (the only source whose API gives visits one by one). */
export interface SourceVisit {
  /** ISO 8601 date-time. */
  at: string;
  referrer: string | null;
  userAgent: string;
  /** ISO 3166-1 alpha-2, upper case; null when unknown. */
  country: string | null;
}

/** One short link at the source. */
export interface SourceLink {
  /** The short URL as the source shows it, e.g. `https://s.example.com/abc12`. */
  shortUrl: string;
  /** The short URL's host name, lower case, without a port. */
  domain: string;
  /** The short URL's path without its leading slash, decoded (`abc12`, `my-campaign`). */
  code: string;
  /** The destination. */
  url: string;
  title: string | null;
  tags: string[];
  /** ISO 8601 date-time; null when the source does not say. */
  createdAt: string | null;
  expiresAt: string | null;
  /** The start of its validity (Shlink's validSince); null when none. */
  activeFrom: string | null;
  /** The source's visit limit (Shlink's maxVisits); null when none. */
  maxClicks: number | null;
  /** The source's click total; null when the listing does not carry it (Bitly: see `Source.clicksOf`). */
  clicks: number | null;
  /** Why the link no longer redirects at the source (Kutt's `banned`); null while it works there. */
  endedBecause?: string | null;
  /** It asks for a password at the source that the source's API does not give out (Kutt). */
  passwordProtected?: boolean;
  /** The password it asks for, where the source's API gives it (Dub): the link asks for it on Snip too. */
  password?: string | null;
}

export interface SourceOptions {
  /** Base URL of the source's API, without a trailing slash: `https://shlink.example.com`, `https://api-ssl.bitly.com`. */
  base: string;
  /** Its API key or token. */
  key: string;
  /** Does the HTTP: JSON GETs with waiting out 429s and mapping failures to Snip's error codes. */
  http: SourceHttp;
}

/** A page of links and the rest of the listing. */
export interface Source {
  /** Every link, a page at a time, in the source's own order. */
  pages(): AsyncIterable<SourceLink[]>;
  /** The link's click total where the listing lacks it (Bitly's clicks summary); one request per link. */
  clicksOf?(link: SourceLink): Promise<number>;
  /** The link's visits, a page at a time (Shlink only). */
  visitsOf?(link: SourceLink): AsyncIterable<SourceVisit[]>;
}

/**
 * JSON over HTTP for the adapters. `get` answers the parsed body of a 2xx answer. A 429 is waited out (Retry-After,
 * seconds or a date) and retried; a 401/403 throws SOURCE_AUTH_FAILED, another status or a body that is not JSON
 * throws SOURCE_ERROR (with the source's own message where its error shape carries one, passed through
 * `errorMessage`), and no answer throws SOURCE_UNREACHABLE. `url` is absolute.
 */
export interface SourceHttp {
  get(url: string, headers: Record<string, string>, errorMessage?: (body: unknown) => string | null): Promise<unknown>;
}

/** Builds an adapter. */
export type SourceFactory = (options: SourceOptions) => Source;
