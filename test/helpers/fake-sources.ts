import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SourceName } from '../../src/imports/source.js';

/**
 * Local stand-ins for the five services an import reads (Shlink, Kutt, YOURLS, Bitly, Dub): real HTTP servers on
 * 127.0.0.1 answering as each one's public API documentation describes it (paths, key headers, pagination, item
 * shapes, error bodies), from a plain list of links. Failures are switched on by option: a 429 once, a server that
 * dies mid-way, a page of the wrong shape.
 */

/** One link at the source, in no service's shape: the fake renders it as each service would. */
export interface FakeLink {
  /** The short path (`abc12`, `my-campaign`). */
  code: string;
  /** The short URL's host; absent or null: the service's default domain (see `FakeSourceOptions.defaultDomain`). */
  domain?: string | null;
  url: string;
  title?: string | null;
  tags?: string[];
  /** ISO 8601; default 2024-01-01T00:00:00Z plus one minute per position in the list. */
  createdAt?: string;
  expiresAt?: string | null;
  /** Shlink's validSince. */
  activeFrom?: string | null;
  /** Shlink's maxVisits. */
  maxVisits?: number | null;
  /** The click total the service reports (Shlink's visitsSummary.total, Kutt's visit_count, ...); default 0. */
  clicks?: number;
  /** Bitly only: the branded short URLs of this bitlink (`https://brand.example/x`). */
  customBitlinks?: string[];
  /** Bitly and Dub: archived (hidden) links, listed only when the request asks for them as each API does. */
  archived?: boolean;
}

/** One visit, for Shlink's visits listing. */
export interface FakeVisit {
  /** ISO 8601. */
  at: string;
  referrer?: string | null;
  userAgent?: string;
  /** ISO 3166-1 alpha-2; null or absent: no location. */
  country?: string | null;
  bot?: boolean;
}

export interface FakeSourceOptions {
  /** The key the service accepts; any other gets its documented 401/403. */
  key: string;
  /**
   * The links, in the order every fake lists them (each service's own sort is not imitated). Read on every request,
   * so a test may change the list between runs.
   */
  links: FakeLink[];
  /** Shlink: each link's visits, by code (whatever its domain), in Shlink's order (newest first). */
  visits?: Record<string, FakeVisit[]>;
  /**
   * The most items the fake puts in one page whatever the client asks, a server-side cap (Kutt's is 50 and applies
   * anyway; Bitly's and Dub's 100). Shlink's visits are capped by it too. Default: only the service's own cap.
   */
  pageSize?: number;
  /** The default short domain: shlink.test, kutt.test, yourls.test, bit.ly, dub.sh unless told. */
  defaultDomain?: string;
  /** Answer the Nth request (counting every request, from 1) with a 429 carrying Retry-After: 1, once. */
  rateLimitAt?: number;
  /** After this many 2xx answers, destroy every later request's connection without an answer, until `revive()`. */
  dieAfter?: number;
  /** Answer the Nth request (counting every request, from 1) with a 200 whose body is not the documented structure. */
  malformedAt?: number;
  /** Bitly: the origin `pagination.next` is written on (default the fake's own), to check the adapter never goes there. */
  nextOrigin?: string;
}

export interface FakeSource {
  /** The API base to give as `--source`: http://127.0.0.1:<port> */
  base: string;
  /** Every request's path and query, in order of arrival (refused and dropped ones included). */
  requests: string[];
  /** Answers again after `dieAfter`, and no longer dies. */
  revive(): void;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

interface Request {
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
}

interface Service {
  /** null when the key is right; else the service's refusal. */
  refuse(request: Request): Answer | null;
  route(request: Request): Answer;
  error(status: number, message: string): Answer;
}

const DEFAULT_DOMAINS: Record<SourceName, string> = { shlink: 'shlink.test', kutt: 'kutt.test', yourls: 'yourls.test', bitly: 'bit.ly', dub: 'dub.sh' };
const FIRST_CREATED = Date.parse('2024-01-01T00:00:00Z');
const BITLY_GROUP = 'Bfake0group1';

export async function startFakeSource(kind: SourceName, options: FakeSourceOptions): Promise<FakeSource> {
  const requests: string[] = [];
  let served = 0;
  let dead = false;
  let revived = false;
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const service = SERVICES[kind](new Links(options, DEFAULT_DOMAINS[kind], origin));

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const target = req.url ?? '/';
    requests.push(target);
    const nth = requests.length;
    if (dead) {
      req.socket.destroy();
      return;
    }
    const url = new URL(target, origin);
    const request: Request = { path: url.pathname, query: url.searchParams, headers: req.headers };
    let answer: Answer;
    if (nth === options.rateLimitAt) answer = { ...service.error(429, 'Too many requests; slow down'), headers: { 'retry-after': '1' } };
    else if (nth === options.malformedAt) answer = { status: 200, body: { data: 'not what the documentation describes' } };
    else answer = service.refuse(request) ?? service.route(request);
    const body = JSON.stringify(answer.body);
    const type = kind === 'shlink' && answer.status >= 400 ? 'application/problem+json' : 'application/json';
    res.writeHead(answer.status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...answer.headers });
    res.end(body);
    if (answer.status >= 200 && answer.status < 300 && ++served >= (options.dieAfter ?? Infinity) && !revived) dead = true;
  });

  return {
    base: origin,
    requests,
    revive() {
      dead = false;
      revived = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The listing as the fake reads it on each request, with what every service needs from it. */
class Links {
  private byKey = new Map<string, FakeLink>();
  private indexed: FakeLink[] | null = null;
  private indexedLength = -1;

  constructor(
    readonly options: FakeSourceOptions,
    readonly defaultDomain: string,
    readonly origin: string,
  ) {}

  get all(): FakeLink[] {
    return this.options.links;
  }

  get defaultHost(): string {
    return this.options.defaultDomain ?? this.defaultDomain;
  }

  domainOf(link: FakeLink): string {
    return link.domain ?? this.defaultHost;
  }

  shortUrl(link: FakeLink): string {
    return `https://${this.domainOf(link)}/${encodeURI(link.code)}`;
  }

  createdAt(link: FakeLink, index: number): string {
    return link.createdAt ?? new Date(FIRST_CREATED + index * 60_000).toISOString();
  }

  /** The largest page: what the client asked, cut to the service's cap and to `pageSize`. */
  perPage(asked: string | null, fallback: number, cap = Infinity): number {
    const n = Number(asked);
    const wanted = asked !== null && Number.isInteger(n) && n > 0 ? n : fallback;
    return Math.min(wanted, cap, this.options.pageSize ?? Infinity);
  }

  /** A link by domain and code, through an index rebuilt when the list changes length (10,000 lookups stay quick). */
  find(domain: string, code: string): FakeLink | undefined {
    if (this.indexed !== this.options.links || this.indexedLength !== this.options.links.length) {
      this.byKey = new Map(this.options.links.map((link) => [`${this.domainOf(link)}/${link.code}`, link]));
      this.indexed = this.options.links;
      this.indexedLength = this.options.links.length;
    }
    return this.byKey.get(`${domain}/${code}`);
  }
}

const int = (value: string | null, fallback: number): number => {
  const n = Number(value);
  return value !== null && Number.isInteger(n) && n >= 0 ? n : fallback;
};

/** Shlink writes dates as ATOM: 2024-01-02T03:04:05+00:00 */
const atom = (iso: string | null | undefined): string | null => (iso ? new Date(iso).toISOString().replace(/\.\d{3}Z$/, '+00:00') : null);

const SERVICES: Record<SourceName, (links: Links) => Service> = {
  shlink: (links) => {
    const problem = (status: number, title: string, detail: string, type: string, extra: object = {}): Answer => ({
      status,
      body: { type: `https://shlink.io/api/error/${type}`, title, detail, status, ...extra },
    });
    const paginate = <T>(list: T[], query: URLSearchParams) => {
      const perPage = links.perPage(query.get('itemsPerPage'), 10);
      const page = Math.max(1, int(query.get('page'), 1));
      const data = list.slice((page - 1) * perPage, page * perPage);
      const pagination = { currentPage: page, pagesCount: Math.ceil(list.length / perPage), itemsPerPage: perPage, itemsInCurrentPage: data.length, totalItems: list.length };
      return { data, pagination };
    };
    return {
      refuse: (request) =>
        request.headers['x-api-key'] === links.options.key ? null : problem(401, 'Invalid API key', 'Provided API key does not exist or is invalid.', 'invalid-api-key'),
      error: (status, message) => problem(status, status === 429 ? 'Too Many Requests' : 'Error', message, status === 429 ? 'too-many-requests' : 'internal-server-error'),
      route: ({ path, query }) => {
        if (path === '/rest/v3/short-urls') {
          const { data, pagination } = paginate(links.all.map((link, index) => ({ link, index })), query);
          return { status: 200, body: { shortUrls: { data: data.map(({ link, index }) => shlinkShortUrl(links, link, index)), pagination } } };
        }
        const visits = /^\/rest\/v3\/short-urls\/(.+)\/visits$/.exec(path);
        if (visits) {
          const code = decodeURIComponent(visits[1]!);
          const asked = query.get('domain');
          // Shlink finds a short URL by its code and domain; no domain (or the default one) means the default domain.
          const link = links.find(asked || links.defaultHost, code);
          if (!link) {
            const detail = `No URL found with short code "${code}"${asked ? ` for domain "${asked}"` : ''}`;
            return problem(404, 'Short URL not found', detail, 'short-url-not-found', { shortCode: code, ...(asked ? { domain: asked } : {}) });
          }
          const { data, pagination } = paginate(links.options.visits?.[code] ?? [], query);
          return { status: 200, body: { visits: { data: data.map((visit) => shlinkVisit(links, link, visit)), pagination } } };
        }
        return problem(404, 'Not found', `Requested route ${path} does not exist.`, 'not-found');
      },
    };
  },

  kutt: (links) => {
    const error = (status: number, message: string): Answer => ({ status, body: { error: message } });
    return {
      // Kutt tries the API key, then a session token; with neither it answers the token's refusal.
      refuse: (request) => (request.headers['x-api-key'] === links.options.key ? null : error(401, 'Unauthorized.')),
      error,
      route: ({ path, query }) => {
        if (path !== '/api/v2/links') return error(404, 'Not found.');
        const limit = links.perPage(query.get('limit'), 10, 50);
        const skip = int(query.get('skip'), 0);
        const data = links.all.slice(skip, skip + limit).map((link, i) => kuttLink(links, link, skip + i));
        return { status: 200, body: { limit, skip, total: links.all.length, data } };
      },
    };
  },

  yourls: (links) => {
    const error = (status: number, message: string): Answer => ({ status, body: { errorCode: String(status), message } });
    return {
      refuse: ({ query }) => (query.get('signature') === links.options.key ? null : error(403, 'Please log in')),
      error,
      route: ({ path, query }) => {
        if (path !== '/yourls-api.php') return error(404, 'Page not found');
        if (query.get('action') !== 'stats') return error(400, 'Unknown or missing "action" parameter');
        if (query.get('filter') !== 'last') return error(400, 'This fake lists only filter=last');
        const limit = links.perPage(query.get('limit'), 10);
        const start = int(query.get('start'), 0);
        const page = links.all.slice(start, start + limit);
        const body: Record<string, unknown> = {};
        // YOURLS leaves `links` out of a page with none.
        if (page.length > 0) body.links = Object.fromEntries(page.map((link, i) => [`link_${i + 1}`, yourlsLink(links, link, start + i)]));
        const clicks = links.all.reduce((sum, link) => sum + (link.clicks ?? 0), 0);
        body.stats = { total_links: String(links.all.length), total_clicks: String(clicks) };
        return { status: 200, body: { ...body, statusCode: 200, message: 'success' } };
      },
    };
  },

  bitly: (links) => {
    const error = (status: number, message: string, description: string, resource = 'bitlinks'): Answer => ({ status, body: { message, description, resource } });
    return {
      refuse: (request) =>
        request.headers.authorization === `Bearer ${links.options.key}` ? null : error(403, 'FORBIDDEN', 'You are currently forbidden to access this resource.', 'user'),
      error: (status, message) => error(status, status === 429 ? 'RATE_LIMIT_EXCEEDED' : 'INTERNAL_ERROR', message),
      route: ({ path, query }) => {
        if (path === '/v4/user') {
          return { status: 200, body: { login: 'fake', name: 'Fake User', is_active: true, is_2fa_enabled: false, is_sso_user: false, emails: [], default_group_guid: BITLY_GROUP } };
        }
        if (path === `/v4/groups/${BITLY_GROUP}/bitlinks`) {
          const archived = query.get('archived') ?? 'off';
          const listed = links.all.map((link, index) => ({ link, index })).filter(({ link }) => archived === 'both' || (archived === 'on') === Boolean(link.archived));
          const size = links.perPage(query.get('size'), 50, 100);
          const from = int(decodeOffset(query.get('search_after')), 0);
          const page = listed.slice(from, from + size);
          const rest = from + size < listed.length;
          const next = rest ? `${links.options.nextOrigin ?? links.origin}${path}?${new URLSearchParams({ size: String(size), archived, search_after: encodeOffset(from + size) })}` : '';
          const body = { links: page.map(({ link, index }) => bitlink(links, link, index)), pagination: { prev: '', next, size, page: Math.floor(from / size) + 1, total: listed.length } };
          return { status: 200, body };
        }
        if (path.startsWith('/v4/groups/')) return error(403, 'FORBIDDEN', 'You are currently forbidden to access this resource.', 'groups');
        const summary = /^\/v4\/bitlinks\/([^/]+)\/(.+)\/clicks\/summary$/.exec(path);
        if (summary) {
          const link = links.find(decodeURIComponent(summary[1]!), decodeURIComponent(summary[2]!));
          if (!link) return error(404, 'NOT_FOUND', 'The requested resource was not found.');
          return { status: 200, body: { unit_reference: new Date().toISOString(), total_clicks: link.clicks ?? 0, units: Number(query.get('units') ?? -1), unit: query.get('unit') ?? 'day' } };
        }
        return error(404, 'NOT_FOUND', 'The requested resource was not found.');
      },
    };
  },

  dub: (links) => {
    const codes: Record<number, string> = { 401: 'unauthorized', 404: 'not_found', 422: 'unprocessable_entity', 429: 'rate_limit_exceeded', 500: 'internal_server_error' };
    const error = (status: number, message: string): Answer => {
      const code = codes[status] ?? 'internal_server_error';
      return { status, body: { error: { code, message, doc_url: `https://dub.co/docs/api-reference/errors#${code.replace(/_/g, '-')}` } } };
    };
    return {
      refuse: (request) => (request.headers.authorization === `Bearer ${links.options.key}` ? null : error(401, 'Unauthorized: Invalid API key.')),
      error,
      route: ({ path, query }) => {
        if (path !== '/links') return error(404, 'The requested resource was not found.');
        const asked = int(query.get('pageSize'), 100);
        if (asked > 100) return error(422, 'pageSize: Number must be less than or equal to 100');
        const pageSize = links.perPage(String(asked), 100, 100);
        const page = Math.max(1, int(query.get('page'), 1));
        const showArchived = query.get('showArchived') === 'true';
        const listed = links.all.map((link, index) => ({ link, index })).filter(({ link }) => showArchived || !link.archived);
        const data = listed.slice((page - 1) * pageSize, page * pageSize).map(({ link, index }) => dubLink(links, link, index));
        return { status: 200, body: data };
      },
    };
  },
};

const encodeOffset = (n: number): string => Buffer.from(`offset:${n}`).toString('base64url');
const decodeOffset = (token: string | null): string | null => (token ? Buffer.from(token, 'base64url').toString().replace(/^offset:/, '') : null);

function shlinkShortUrl(links: Links, link: FakeLink, index: number) {
  const clicks = link.clicks ?? 0;
  return {
    shortCode: link.code,
    shortUrl: links.shortUrl(link),
    longUrl: link.url,
    deviceLongUrls: { android: null, ios: null, desktop: null },
    dateCreated: atom(links.createdAt(link, index)),
    visitsSummary: { total: clicks, nonBots: clicks, bots: 0 },
    tags: link.tags ?? [],
    meta: { validSince: atom(link.activeFrom), validUntil: atom(link.expiresAt), maxVisits: link.maxVisits ?? null },
    domain: link.domain ?? null,
    title: link.title ?? null,
    crawlable: false,
    forwardQuery: true,
    hasRedirectRules: false,
  };
}

function shlinkVisit(links: Links, link: FakeLink, visit: FakeVisit) {
  const location = visit.country
    ? { countryCode: visit.country, countryName: visit.country, regionName: '', cityName: '', latitude: 0, longitude: 0, timezone: '', isEmpty: false }
    : null;
  return {
    referer: visit.referrer ?? '',
    date: atom(visit.at),
    userAgent: visit.userAgent ?? '',
    visitLocation: location,
    potentialBot: visit.bot ?? false,
    visitedUrl: links.shortUrl(link),
    type: 'valid_short_url',
    redirectUrl: link.url,
  };
}

function kuttLink(links: Links, link: FakeLink, index: number) {
  const created = links.createdAt(link, index);
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    address: link.code,
    banned: false,
    created_at: created,
    updated_at: created,
    password: false,
    description: link.title ?? null,
    expire_in: link.expiresAt ?? null,
    target: link.url,
    visit_count: link.clicks ?? 0,
    // Kutt sends null for its own default domain.
    domain: link.domain ?? null,
    link: links.shortUrl(link),
  };
}

function yourlsLink(links: Links, link: FakeLink, index: number) {
  const created = new Date(links.createdAt(link, index)).toISOString();
  return {
    shorturl: links.shortUrl(link),
    url: link.url,
    title: link.title ?? '',
    timestamp: `${created.slice(0, 10)} ${created.slice(11, 19)}`,
    ip: '127.0.0.1',
    clicks: String(link.clicks ?? 0),
  };
}

/** Bitly writes offsets without a colon: 2024-01-02T03:04:05+0000 */
const bitlyDate = (iso: string): string => new Date(iso).toISOString().replace(/\.\d{3}Z$/, '+0000');

function bitlink(links: Links, link: FakeLink, index: number) {
  const id = `${links.domainOf(link)}/${link.code}`;
  return {
    created_at: bitlyDate(links.createdAt(link, index)),
    id,
    link: links.shortUrl(link),
    custom_bitlinks: link.customBitlinks ?? [],
    long_url: link.url,
    title: link.title ?? null,
    archived: Boolean(link.archived),
    created_by: 'fake',
    client_id: 'fake-client',
    tags: link.tags ?? [],
    launchpad_ids: [],
    qr_code_ids: [],
    deeplinks: [],
    references: { group: `https://api-ssl.bitly.com/v4/groups/${BITLY_GROUP}` },
    ...(link.expiresAt ? { expiration_at: bitlyDate(link.expiresAt) } : {}),
  };
}

function dubLink(links: Links, link: FakeLink, index: number) {
  const created = new Date(links.createdAt(link, index)).toISOString();
  const tags = (link.tags ?? []).map((name) => ({ id: `tag_${name}`, name, color: 'blue' }));
  return {
    id: `link_${String(index).padStart(8, '0')}`,
    domain: links.domainOf(link),
    key: link.code,
    url: link.url,
    shortLink: links.shortUrl(link),
    archived: Boolean(link.archived),
    expiresAt: link.expiresAt ?? null,
    expiredUrl: null,
    password: null,
    proxy: false,
    title: link.title ?? null,
    description: null,
    image: null,
    rewrite: false,
    doIndex: false,
    ios: null,
    android: null,
    geo: null,
    publicStats: false,
    tagId: tags[0]?.id ?? null,
    tags,
    folderId: null,
    comments: null,
    userId: 'user_fake',
    workspaceId: 'ws_fake',
    clicks: link.clicks ?? 0,
    lastClicked: null,
    leads: 0,
    sales: 0,
    saleAmount: 0,
    createdAt: created,
    updatedAt: created,
  };
}
