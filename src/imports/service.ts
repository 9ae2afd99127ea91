import { createHash } from 'node:crypto';
import type { Caller } from '../caller.js';
import type { ClicksRepository } from '../clicks/repository.js';
import type { Clock } from '../clock.js';
import { controlCharactersEncoded, withoutControlCharacters } from '../control-characters.js';
import { AppError, errors } from '../errors.js';
import { MAX_INTEGER } from '../schema/shapes.js';
import type { EventBus } from '../events/bus.js';
import type { LinkDomains } from '../links/creator.js';
import { toLink } from '../links/link.js';
import type { LinkRow } from '../links/link-row.js';
import type { LinkWriter } from '../links/link-writer.js';
import type { LinkPresenter } from '../links/presenters.js';
import type { LinksRepository } from '../links/repository.js';
import type { LinksService } from '../links/service.js';
import { randomBase62 } from '../ids.js';
import type { TagsService } from '../tags/service.js';
import type { UsageService } from '../usage/service.js';
import { breathe } from '../runtime/breathe.js';
import { sourceHttp } from './http.js';
import { Placements, type Placement } from './placement.js';
import { DEFAULT_SOURCE_BASES, SOURCES } from './sources/index.js';
import { isSourceName, SOURCE_NAMES, type Source, type SourceLink, type SourceName } from './source.js';
import { recordImportedVisits } from './visits.js';

export interface SourceImportRequest {
  from: SourceName;
  /** The source's API base URL; Bitly's and Dub's public APIs when left out. */
  source?: string;
  sourceKey: string;
  /** Where links that cannot keep their domain go (one of the account's active domains); the account's default otherwise. */
  domain?: string;
  withClicks?: boolean;
  dryRun?: boolean;
  onProgress?: (progress: { rows: number; failed: number }) => void;
}

export type RowOutcome = 'imported' | 'skipped' | 'failed';

/** What became of one source link. */
export interface SourceImportRow {
  /** The short URL at the source. */
  source: string;
  /** Where it answers on Snip; null when it was not made. */
  shortUrl: string | null;
  outcome: RowOutcome;
  /** Why it was skipped or failed, or why an imported link has a new path. */
  code?: string;
  message?: string;
}

export interface SourceImportSummary {
  from: SourceName;
  dryRun: boolean;
  imported: number;
  skipped: number;
  failed: number;
  /** Clicks brought over: visits recorded as Snip clicks plus source totals kept as imported clicks. */
  clicks: number;
  rows: SourceImportRow[];
  /** The source failed part-way: the links before it are imported, and running the import again continues. */
  error?: { code: string; message: string };
}

/** Who runs the import: the operator at the CLI, or a caller over the API (the dashboard included). */
export type ImportSurface = 'cli' | 'api';

/** How an import is run, by its surface (see `modeOf`). */
interface ImportMode {
  charge: boolean;
  allowPrivate: boolean;
  /**
   * Whether links on BASE_URL's host keep their exact paths there. Only the operator's: on a shared host a member
   * could otherwise claim top-level paths (`/login`, `/paypal`) by naming them in a source of their own making.
   */
  keepOwnHostPaths: boolean;
  /** The most links one run reads (an API import answers when it is done); unlimited when absent. */
  maxLinks?: number;
  /** When a run stops reading (ms from its start); it answers what it made, and a re-run continues. */
  deadlineMs?: number;
}

/** An import over the API answers when done: bounded in links and time (the CLI is not), and a re-run continues. */
const API_RUN = { maxLinks: 100_000, deadlineMs: 15 * 60_000 };

/**
 * The operator's CLI imports for anyone without plan limits, may reach private networks and keeps paths on BASE_URL's
 * host; over the API an import is charged, reaches private networks only with IMPORT_ALLOW_PRIVATE, keeps own-host
 * paths only for an operator, and is bounded.
 */
function modeOf(surface: ImportSurface, caller: Caller, allowPrivate: boolean): ImportMode {
  if (surface === 'cli') return { charge: false, allowPrivate: true, keepOwnHostPaths: true };
  return { charge: true, allowPrivate, keepOwnHostPaths: caller.role === 'operator', ...API_RUN };
}

interface Deps {
  links: LinksService;
  repo: LinksRepository;
  writer: LinkWriter;
  domains: LinkDomains;
  tags: TagsService;
  clicks: ClicksRepository;
  usage: UsageService;
  bus: EventBus;
  clock: Clock;
  present: LinkPresenter;
  ownHostnames: ReadonlySet<string>;
  /** IMPORT_ALLOW_PRIVATE: imports over the API may read a source on a private network. */
  allowPrivate: boolean;
  /** Waits between a source's 429 and the retry (tests shorten it). */
  sleep?: (ms: number) => Promise<void>;
}

const FRESH_CODE_ATTEMPTS = 8;
/** Visits of one link recorded as clicks; the rest of a longer listing stays in its imported total. */
const MAX_VISITS_PER_LINK = 1_000_000;

/** A source's count as a column holds it: whole, and at most the largest integer PostgreSQL's `integer` takes. */
const bounded = (n: number): number => (Number.isFinite(n) ? Math.min(Math.max(0, Math.floor(n)), MAX_INTEGER) : MAX_INTEGER);


const fieldError = (code: 'INVALID_SOURCE' | 'MISSING_SOURCE' | 'MISSING_SOURCE_KEY', message: string) => new AppError(code, message);

/** A source link's fingerprint for the account: the same link found again by any later run, never made twice. */
const importKeyOf = (accountId: string, from: SourceName, link: SourceLink) =>
  createHash('sha256').update(`${accountId}\nsource:${from}\n${link.domain}/${link.code}`).digest('hex');

function checkBase(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw fieldError('INVALID_SOURCE', 'source must be the absolute http(s) address of the source\u2019s API');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw fieldError('INVALID_SOURCE', 'source must be an http or https address');
  if (url.username || url.password) throw fieldError('INVALID_SOURCE', 'source must not carry a user name or password; give the key as the source key');
  return url.toString().replace(/\/+$/, '');
}

/**
 * Imports every link of another shortener for one account (issue 31): links come page by page, each page is judged,
 * written in one batch and tagged; Shlink's visits follow as clicks. A run that stops (the source failed, the daily
 * limit) keeps what it made, and a later run skips those links by their fingerprint.
 */
export class ImportService {
  constructor(private readonly deps: Deps) {}

  async fromSource(caller: Caller, request: SourceImportRequest, surface: ImportSurface): Promise<SourceImportSummary> {
    const mode = modeOf(surface, caller, this.deps.allowPrivate);
    if (!isSourceName(request.from)) throw fieldError('INVALID_SOURCE', `from must be one of ${SOURCE_NAMES.join(', ')}`);
    const rawBase = request.source ?? DEFAULT_SOURCE_BASES[request.from];
    if (!rawBase) throw fieldError('MISSING_SOURCE', `source is required for ${request.from}: the address of its API`);
    if (typeof request.sourceKey !== 'string' || request.sourceKey.trim() === '') throw fieldError('MISSING_SOURCE_KEY', 'sourceKey is required: the source\u2019s API key or token');
    const base = checkBase(rawBase);
    if (request.domain !== undefined) await this.deps.domains.domainFor(caller.accountId, request.domain);
    const http = sourceHttp({ allowPrivate: mode.allowPrivate, ...(this.deps.sleep ? { sleep: this.deps.sleep } : {}) });
    const source = SOURCES[request.from]({ base, key: request.sourceKey.trim(), http });
    const ownHosts = mode.keepOwnHostPaths ? this.deps.ownHostnames : new Set<string>();
    const run = new SourceImportRun(this.deps, caller, request, mode, source, new Placements(caller, ownHosts, this.deps.domains, request.domain));
    const stopAt = mode.deadlineMs === undefined ? Infinity : Date.now() + mode.deadlineMs;
    try {
      for await (const page of source.pages()) {
        await run.page(page);
        if (Date.now() > stopAt) throw errors.sourceError(`the import ran out of time after ${run.summary.rows.length} links; run it again to continue`);
      }
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      run.summary.error = { code: error.code, message: error.message };
    }
    return run.summary;
  }
}

interface Planned {
  link: SourceLink;
  row: LinkRow;
  tags: string[];
  placement: Extract<Placement, { kind: 'kept' | 'new' }>;
  /** Visits to record once the link is made (Shlink with clicks). */
  visits: boolean;
}

class SourceImportRun {
  readonly summary: SourceImportSummary;

  constructor(
    private readonly deps: Deps,
    private readonly caller: Caller,
    private readonly request: SourceImportRequest,
    private readonly mode: ImportMode,
    private readonly source: Source,
    private readonly placements: Placements,
  ) {
    this.summary = { from: request.from, dryRun: request.dryRun === true, imported: 0, skipped: 0, failed: 0, clicks: 0, rows: [] };
  }

  private add(row: SourceImportRow): void {
    this.summary.rows.push(row);
    this.summary[row.outcome] += 1;
    this.request.onProgress?.({ rows: this.summary.rows.length, failed: this.summary.failed });
  }

  private fail(link: SourceLink, outcome: 'skipped' | 'failed', error: AppError): void {
    this.add({ source: link.shortUrl, shortUrl: null, outcome, code: error.code, message: error.message });
  }

  /** Where a made row answers: its kept path, else its code on its domain. */
  private shortUrlOf(row: Pick<LinkRow, 'code' | 'namespace' | 'slug' | 'domain' | 'legacy_path'>): string {
    if (row.legacy_path !== null) {
      const slash = row.legacy_path.indexOf('/');
      return this.deps.present.urlOnHost(row.legacy_path.slice(0, slash) || null, row.legacy_path.slice(slash + 1));
    }
    return this.deps.present.shortUrl(row);
  }

  private get withVisits(): boolean {
    return this.request.withClicks === true && this.source.visitsOf !== undefined;
  }

  /** Every link of this run by its key: a source that lists the same links again is stopped, not followed forever. */
  private readonly seen = new Set<string>();

  async page(all: SourceLink[]): Promise<void> {
    const { deps, caller } = this;
    const fresh = all.filter((link) => !this.seen.has(importKeyOf(caller.accountId, this.request.from, link)));
    if (all.length > 0 && fresh.length === 0) throw errors.sourceError('it listed the same links again; the import stopped there');
    const room = (this.mode.maxLinks ?? Infinity) - this.seen.size;
    const links = fresh.slice(0, Math.max(0, room));
    const keys = links.map((link) => importKeyOf(caller.accountId, this.request.from, link));
    for (const key of keys) this.seen.add(key);
    const existing = await deps.repo.byImportKeys(caller.accountId, keys);
    const now = deps.clock.now();
    const planned: Planned[] = [];
    const claimed = new Set<string>();
    for (const [i, link] of links.entries()) {
      if (i % 10 === 9) await breathe();
      const before = existing.get(keys[i]!);
      if (before) {
        this.add({ source: link.shortUrl, shortUrl: this.shortUrlOf(before), outcome: 'skipped', code: 'ALREADY_IMPORTED', message: errors.alreadyImported().message });
        // The visits of a link made by a run that stopped before recording them come now (recorded visits would have
        // given it clicks; they and the settled total are written together).
        if (this.withVisits && !this.summary.dryRun && Number(before.imported_clicks) > 0 && Number(before.clicks) === 0) {
          await this.visitsOf(link, before.id, Number(before.imported_clicks));
        }
        continue;
      }
      try {
        const item = await this.plan(link, keys[i]!, now);
        if (item === null) continue;
        const claim = item.row.legacy_path ?? (item.placement.kind === 'kept' ? item.row.code : null);
        if (claim !== null && claimed.has(claim)) throw errors.pathTaken(link.shortUrl);
        if (claim !== null) claimed.add(claim);
        planned.push(item);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        this.fail(link, 'failed', error);
      }
    }
    if (this.summary.dryRun) await this.check(planned);
    else await this.write(planned);
    if (links.length < fresh.length) throw errors.sourceError(`it has more than ${this.mode.maxLinks} links, the most one import over the API reads; the operator's CLI imports any number`);
  }

  /** The row a source link becomes, or null when it is skipped (it no longer redirects at the source). */
  private async plan(link: SourceLink, importKey: string, now: Date): Promise<Planned | null> {
    const { deps } = this;
    // Links are told apart by their short URL: without one a link could not be found again by a re-run.
    if (link.domain === '' || link.code === '') throw errors.sourceError('it gave this link no short URL');
    if (link.endedBecause) {
      this.fail(link, 'skipped', errors.endedAtSource(link.endedBecause));
      return null;
    }
    // Made public on Snip it would open what its owner had closed: refused, so a password can be chosen for it first.
    if (link.passwordProtected) throw errors.protectedAtSource();
    if (link.expiresAt !== null && Date.parse(link.expiresAt) <= now.getTime()) {
      this.fail(link, 'skipped', errors.endedAtSource(`it expired at ${link.expiresAt}`));
      return null;
    }
    const sourceClicks = bounded(link.clicks ?? (this.request.withClicks && this.source.clicksOf ? await this.source.clicksOf(link) : 0));
    const cap = link.maxClicks === null ? null : bounded(link.maxClicks);
    if (cap !== null && sourceClicks >= cap) {
      this.fail(link, 'skipped', errors.endedAtSource(`its ${cap} visits are used up`));
      return null;
    }
    const placement = await this.placements.of(link);
    if (placement.kind === 'refused') throw placement.error;
    const visits = this.withVisits;
    // Visits recorded as clicks count towards the cap as they did at the source; a total kept apart leaves what remains.
    const maxClicks = cap === null ? undefined : visits ? cap : cap - sourceClicks;
    const draft = await deps.links.draft(this.caller, {
      url: link.url,
      ...(maxClicks === undefined ? {} : { maxClicks }),
      ...(link.activeFrom !== null && Date.parse(link.activeFrom) > now.getTime() ? { activeFrom: link.activeFrom } : {}),
      ...(link.expiresAt === null ? {} : { expiresAt: link.expiresAt }),
      ...(placement.domain ? { domain: placement.domain } : {}),
      ...(link.password ? { password: link.password } : {}),
    });
    const row = deps.writer.row(draft, now, importKey);
    if (placement.kind === 'kept') {
      row.domain = placement.domain;
      if (placement.code !== null) row.code = placement.code;
      row.legacy_path = placement.legacyPath;
    }
    row.imported_from = controlCharactersEncoded(link.shortUrl).slice(0, 2048);
    row.imported_clicks = sourceClicks;
    row.title = link.title === null ? null : withoutControlCharacters(link.title).trim().slice(0, 500) || null;
    const created = link.createdAt === null ? NaN : Date.parse(link.createdAt);
    if (!Number.isNaN(created) && created <= now.getTime()) row.created_at = new Date(created).toISOString();
    return { link, row, tags: link.tags, placement, visits };
  }

  /**
   * A dry run: what would clash with a link already on Snip, and where the day's link limit would stop the run (a
   * real run charges each page whole before writing it); nothing is written or charged.
   */
  private async check(planned: Planned[]): Promise<void> {
    // In a dry run only this method counts links as imported: those are the ones its earlier pages would have made.
    if (this.mode.charge) await this.deps.usage.checkLinks(this.caller, this.summary.imported, planned.length);
    for (const item of planned) {
      const { row, placement } = item;
      const key = row.legacy_path !== null ? { legacyPath: row.legacy_path } : placement.kind === 'kept' ? { code: row.code } : null;
      if (key && (await this.deps.repo.find(key))) {
        this.fail(item.link, 'failed', errors.pathTaken(this.shortUrlOf(row)));
        continue;
      }
      this.imported(item, row);
      this.summary.clicks += Number(row.imported_clicks);
    }
  }

  private imported(item: Planned, row: LinkRow): void {
    const why = item.placement.kind === 'new' ? item.placement.why : null;
    this.add({
      source: item.link.shortUrl,
      shortUrl: this.shortUrlOf(row),
      outcome: 'imported',
      ...(why ? { code: 'NEW_PATH', message: `A new short path, because ${why}` } : {}),
    });
  }

  private async write(planned: Planned[]): Promise<void> {
    const { deps, caller } = this;
    if (planned.length === 0) return;
    const refund = this.mode.charge ? await deps.usage.chargeLinks(caller, planned.length) : async () => {};
    let pending = planned;
    const made: Planned[] = [];
    try {
      for (let attempt = 0; pending.length > 0 && attempt < FRESH_CODE_ATTEMPTS; attempt++) {
        const inserted = await deps.repo.insertMany(pending.map((p) => p.row));
        const missed = pending.filter((p) => !inserted.has(p.row.id));
        made.push(...pending.filter((p) => inserted.has(p.row.id)));
        pending = [];
        // A row the batch skipped: another run made it meanwhile, its path is taken, or a drawn code collided.
        const meanwhile = await deps.repo.byImportKeys(caller.accountId, missed.map((p) => p.row.import_key!));
        for (const p of missed) {
          const other = meanwhile.get(p.row.import_key!);
          if (other) this.add({ source: p.link.shortUrl, shortUrl: this.shortUrlOf(other), outcome: 'skipped', code: 'ALREADY_IMPORTED', message: errors.alreadyImported().message });
          else if (p.placement.kind === 'kept') this.fail(p.link, 'failed', errors.pathTaken(this.shortUrlOf(p.row)));
          else pending.push({ ...p, row: { ...p.row, code: randomBase62(6) } });
        }
      }
      for (const p of pending) this.fail(p.link, 'failed', errors.codeSpaceBusy());
    } catch (error) {
      await refund();
      throw error;
    }
    if (this.mode.charge && made.length < planned.length) await deps.usage.refundLinks(caller, planned.length - made.length);
    await deps.tags.tagImported(caller.accountId, made.filter((p) => p.tags.length > 0).map((p) => ({ linkId: p.row.id, tags: p.tags })));
    for (const p of made) {
      this.imported(p, p.row);
      deps.bus.emit('link.created', { link: toLink(p.row) });
    }
    for (const p of made) {
      if (p.visits) await this.visitsOf(p.link, p.row.id, Number(p.row.imported_clicks));
      else this.summary.clicks += Number(p.row.imported_clicks);
    }
  }

  /** Records a link's source visits as its clicks, settling its imported total in the same transaction. */
  private async visitsOf(link: SourceLink, linkId: string, importedClicks: number): Promise<void> {
    const all = [];
    for await (const page of this.source.visitsOf!(link)) {
      all.push(...page);
      // A listing longer than this stays partly a total: what was not recorded remains shown apart.
      if (all.length >= MAX_VISITS_PER_LINK) break;
    }
    const visits = all.slice(0, MAX_VISITS_PER_LINK);
    this.summary.clicks += await recordImportedVisits(this.deps.clicks, { id: linkId, accountId: this.caller.accountId, importedClicks }, visits);
  }
}
