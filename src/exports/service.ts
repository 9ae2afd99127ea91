import type { Caller } from '../caller.js';
import type { SocialPreview } from '../links/input.js';
import type { Rule, Variant } from '../links/routing.js';
import { PERIODS, type AnalyticsService, type Breakdowns, type Period } from '../analytics/service.js';
import type { Clock } from '../clock.js';
import { errors } from '../errors.js';
import { toLink, type Link } from '../links/link.js';
import type { LinkPresenter } from '../links/presenters.js';
import { breathe } from '../runtime/breathe.js';
import { toCsv, type CsvCell } from './csv.js';
import { checkExportFilters, type LinkExportFilters } from './filters.js';
import type { ExportFilter, ExportsRepository, LinkCursor } from './repository.js';

/** The formats of the API's exports (REST, MCP). */
export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/**
 * The formats of a links file: the API's two, and for the operator CLI JSON lines (the same objects as the JSON
 * form's `links`, one per line, for files too large to read back as one document).
 */
export const LINK_FILE_FORMATS = ['csv', 'json', 'jsonl'] as const;
export type LinkFileFormat = (typeof LINK_FILE_FORMATS)[number];

/** Links read from the database per page while an export is written. */
export const EXPORT_PAGE = 100;
export const DEFAULT_EXPORT_FORMAT: ExportFormat = 'csv';
export const DEFAULT_STATS_PERIOD: Period = '30d';

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

/** An export as a file: what a surface sends (REST as an attachment, MCP as text). */
export interface ExportFile {
  contentType: string;
  /** Letters, digits, `.`, `-` and `_` only, so it needs no escaping in a Content-Disposition header. */
  filename: string;
  body: string;
}

/** A links file as the API sends it: its name and type up front, its text a page at a time as the client reads. */
export interface StreamedExportFile extends Omit<ExportFile, 'body'> {
  parts: AsyncIterable<string>;
}

/**
 * One link of an export; the CSV columns are these fields in this order. This is Snip's one links file, written by
 * the API and by the CLI's `links export`, and read back by `links import` (destination, fullPath's slug,
 * expiresAt, maxClicks, activeFrom and blockedCountries make the new link; the rest describes the old one).
 */
export interface ExportedLink {
  shortCode: string;
  shortUrl: string;
  fullPath: string | null;
  destination: string;
  clicks: number;
  createdAt: string;
  expiresAt: string | null;
  maxClicks: number | null;
  activeFrom: string | null;
  folderId: string | null;
  blockedCountries: string[];
  domain: string | null;
  /**
   * The link's routing, in JSON files only and only where the link has it (a CSV cell holds no object): `links import`
   * reads them back. A password cannot leave Snip (it is stored hashed); `passwordProtected` says one was set.
   */
  rules?: Rule[];
  variants?: Variant[];
  expiredUrl?: string;
  socialPreview?: SocialPreview;
  passwordProtected?: true;
}

export const LINK_COLUMNS = [
  'shortCode', 'shortUrl', 'fullPath', 'destination', 'clicks', 'createdAt', 'expiresAt', 'maxClicks', 'activeFrom',
  'folderId', 'blockedCountries', 'domain',
] as const satisfies readonly (keyof ExportedLink)[];

/** A link's statistics over a period: the aggregate of GET /api/stats/{code}/aggregate, with the link named. */
export type ExportedStats = { shortCode: string; fullPath: string | null; shortUrl: string; period: Period } & Breakdowns & { tierLimit: number };

export const STATS_COLUMNS = ['dimension', 'value', 'clicks'] as const;
type StatsRow = Record<(typeof STATS_COLUMNS)[number], CsvCell>;

function oneOf<F extends string>(formats: readonly F[], raw: unknown): F {
  if (raw === undefined || raw === null) return DEFAULT_EXPORT_FORMAT as F;
  if (typeof raw === 'string' && (formats as readonly string[]).includes(raw)) return raw as F;
  throw errors.invalidFormat(formats);
}

export const parseExportFormat = (raw: unknown): ExportFormat => oneOf(EXPORT_FORMATS, raw);
export const parseLinkFileFormat = (raw: unknown): LinkFileFormat => oneOf(LINK_FILE_FORMATS, raw);

/** A part of a links file: the text of one page of links, and how many links it holds. */
export interface LinkFileChunk {
  text: string;
  links: number;
}

function parsePeriod(raw: unknown): Period {
  if (raw === undefined || raw === null) return DEFAULT_STATS_PERIOD;
  if (typeof raw === 'string' && (PERIODS as readonly string[]).includes(raw)) return raw as Period;
  throw errors.invalidPeriod(PERIODS);
}

/** A name part safe in a file name and a header: anything but letters, digits and hyphens becomes `_`. */
const safe = (text: string) => text.replace(/[^A-Za-z0-9-]/g, '_');

/** Most clicks first, then by value, so files are stable. */
const sortedEntries = (counts: Record<string, number>) =>
  Object.entries(counts).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));

/**
 * Exports of an account's data as files (spec 4.3 `export_links`, `export_link_stats`), for REST and MCP. Access
 * (Pro and up) is the surfaces' business, as for every service; the plan's history limit is the analytics rules'.
 */
export class ExportsService {
  constructor(
    private readonly repo: ExportsRepository,
    private readonly analytics: Pick<AnalyticsService, 'ownedLink' | 'aggregate'>,
    private readonly present: LinkPresenter,
    /** Clicks still on their way to the database; an export waits for them, so its counts are current. */
    private readonly pendingClicks: { settle(): Promise<void> },
    private readonly clock: Clock,
  ) {}

  /**
   * Every link of the caller (or those the checked `filter` keeps), newest first, `pageSize` at a time (keyset
   * paging: never more than one page in memory). The first page is yielded even when empty; the operator CLI's
   * `links export` reads through this too.
   */
  async *linkPages(caller: Caller, pageSize = EXPORT_PAGE, filter: ExportFilter = {}): AsyncGenerator<Link[]> {
    await this.pendingClicks.settle();
    let cursor: LinkCursor | null = null;
    for (;;) {
      await breathe();
      const rows = await this.repo.linksPage(caller.accountId, pageSize, cursor, filter);
      yield rows.map(toLink);
      const last = rows.at(-1);
      if (rows.length < pageSize || !last) return;
      cursor = { createdAt: last.created_at, id: last.id };
    }
  }

  /**
   * A link as the links file shows it. `activeFrom` is given while it lies ahead and null once it has passed (the
   * link is simply active), so the file imports again: a new link cannot start in the past.
   */
  exportedLink(link: Link, nowMs = this.clock.now().getTime()): ExportedLink {
    return {
      shortCode: link.code,
      shortUrl: this.present.shortUrl(link),
      fullPath: this.present.fullPath(link),
      destination: link.url,
      clicks: link.clicks,
      createdAt: link.createdAt,
      expiresAt: link.expiresAt,
      maxClicks: link.maxClicks,
      activeFrom: link.activeFrom !== null && Date.parse(link.activeFrom) > nowMs ? link.activeFrom : null,
      folderId: link.folderId,
      blockedCountries: link.blockedCountries,
      domain: link.domain,
      ...(link.rules === null ? {} : { rules: link.rules }),
      ...(link.variants === null ? {} : { variants: link.variants }),
      ...(link.expiredUrl === null ? {} : { expiredUrl: link.expiredUrl }),
      ...(link.socialPreview === null ? {} : { socialPreview: link.socialPreview }),
      ...(link.passwordHash === null ? {} : { passwordProtected: true as const }),
    };
  }

  /**
   * Every link of the caller as a links file, a page at a time: CSV (header row, RFC 4180 quoting, formula guard,
   * blockedCountries comma-joined), JSON `{"links":[...]}` or JSON lines (one link object per line). The API joins
   * the parts into one answer; the CLI writes them to a file as they come, so no more than a page is in memory.
   */
  async *linkFile(caller: Caller, format: LinkFileFormat, filter: ExportFilter = {}): AsyncGenerator<LinkFileChunk> {
    let count = 0;
    for await (const page of this.linkPages(caller, EXPORT_PAGE, filter)) {
      const nowMs = this.clock.now().getTime();
      const links = page.map((link) => this.exportedLink(link, nowMs));
      let text: string;
      if (format === 'csv') {
        const records = links.map((l) => ({ ...l, blockedCountries: l.blockedCountries.join(',') }));
        text = toCsv(records, LINK_COLUMNS, { header: count === 0, protectFormulas: true });
      } else if (format === 'jsonl') {
        text = links.map((l) => `${JSON.stringify(l)}\n`).join('');
      } else {
        text = `${count === 0 ? '{"links":[' : ''}${links.map((l, i) => `${count + i === 0 ? '' : ','}${JSON.stringify(l)}`).join('')}`;
      }
      count += links.length;
      yield { text, links: links.length };
    }
    if (format === 'json') yield { text: ']}', links: 0 };
  }

  /**
   * The caller's links as a file of the API (see `linkFile`); CSV unless `format` is json. Given the link list's
   * filters (folderId, tag, domain, search), only the links that list shows: the dashboard's export of a filtered list.
   * The format and filters are checked before the first part, so a refusal is an answer of its own, never a cut file.
   */
  async linksFile(caller: Caller, options: { format?: string } & LinkExportFilters = {}): Promise<StreamedExportFile> {
    const { format: rawFormat, ...filters } = options;
    const format = parseExportFormat(rawFormat);
    const filter = await checkExportFilters(filters, (folderId) => this.repo.hasFolder(caller.accountId, folderId));
    const chunks = this.linkFile(caller, format, filter);
    const parts = (async function* () {
      for await (const chunk of chunks) yield chunk.text;
    })();
    return { contentType: CONTENT_TYPES[format], filename: `snip-links-${this.today()}.${format}`, parts };
  }

  /** `linksFile` in one string, for answers that cannot stream (an MCP tool's result). */
  async links(caller: Caller, options: { format?: string } & LinkExportFilters = {}): Promise<ExportFile> {
    const { parts, ...file } = await this.linksFile(caller, options);
    const texts: string[] = [];
    for await (const text of parts) texts.push(text);
    return { ...file, body: texts.join('') };
  }

  /**
   * One link's statistics over `period` (default 30d): 404 unknown, 403 someone else's link, 403
   * PERIOD_EXCEEDS_PLAN beyond the plan's history. JSON: `ExportedStats`; CSV: rows `dimension,value,clicks`.
   */
  async linkStats(caller: Caller, shortPath: string, options: { format?: string; period?: string } = {}): Promise<ExportFile> {
    const format = parseExportFormat(options.format);
    const period = parsePeriod(options.period);
    const link = await this.analytics.ownedLink(caller, shortPath);
    const aggregate = await this.analytics.aggregate(caller, { linkId: link.id }, period);
    const stats: ExportedStats = {
      shortCode: link.code,
      fullPath: this.present.fullPath(link),
      shortUrl: this.present.shortUrl(link),
      period,
      ...aggregate,
    };
    const body = format === 'json' ? JSON.stringify(stats) : toCsv(statsRows(stats), STATS_COLUMNS, { header: true, protectFormulas: true });
    return this.file(format, `snip-stats-${safe(this.present.slugOf(link))}-${period}-${this.today()}`, body);
  }

  private file(format: ExportFormat, name: string, body: string): ExportFile {
    return { contentType: CONTENT_TYPES[format], filename: `${name}.${format}`, body };
  }

  private today(): string {
    return this.clock.now().toISOString().slice(0, 10);
  }
}

/**
 * The statistics as rows: `total` and `unique_visitors` (no value), then `day` (every date of the period, oldest
 * first), `country`, `device` (mobile, desktop, tablet), `browser`, `os`, `referrer` (most clicks first) and `hour`
 * (0-23, UTC). The same numbers as the JSON form, so each breakdown sums to the total.
 */
export function statsRows(stats: Breakdowns): StatsRow[] {
  const rows: StatsRow[] = [
    { dimension: 'total', value: null, clicks: stats.totalClicks },
    { dimension: 'unique_visitors', value: null, clicks: stats.uniqueVisitors },
  ];
  const add = (dimension: string, entries: [string, number][]) => {
    for (const [value, clicks] of entries) rows.push({ dimension, value, clicks });
  };
  add('day', stats.clicksByDay.map((d) => [d.date, d.clicks]));
  add('country', sortedEntries(stats.countryBreakdown));
  add('device', Object.entries(stats.deviceBreakdown));
  add('browser', sortedEntries(stats.browserBreakdown));
  add('os', sortedEntries(stats.osBreakdown));
  add('referrer', sortedEntries(stats.referrerBreakdown));
  add('hour', Object.entries(stats.hourBreakdown).sort(([a], [b]) => Number(a) - Number(b)));
  return rows;
}
