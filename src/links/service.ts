import type { Plans } from '../accounts/plans.js';
import type { Caller } from '../accounts/service.js';
import type { Clock } from '../clock.js';
import { errors } from '../errors.js';
import type { EventBus } from '../events/bus.js';
import { folderErrors } from '../folders/errors.js';
import type { UsageService } from '../usage/service.js';
import { LinkCreator, type BulkOptions, type BulkOutcome, type LinkDomains } from './creator.js';
import type { CreateLinkInput } from './drafts.js';
import { toLink, type Link } from './link.js';
import type { LinkPatch, LinksRepository } from './repository.js';
import { checkBlockedCountries, checkDestination, checkMaxClicks, checkSchedule, parseShortPath } from './rules.js';

/** Only the fields present change; null clears expiresAt, maxClicks or activeFrom. */
export interface UpdateLinkInput {
  url?: unknown;
  expiresAt?: string | null;
  maxClicks?: number | null;
  activeFrom?: string | null;
  /** null or an empty list unblocks every country. */
  blockedCountries?: unknown;
}

/** The `folderId` filter value that lists the links in no folder; folder ids start with `fld_`, so it never names one. */
export const UNFILED = 'none';

export interface LinkPage {
  links: Link[];
  limit: number;
  offset: number;
  hasMore: boolean;
}

export class LinksService {
  constructor(
    private readonly repo: LinksRepository,
    private readonly bus: EventBus,
    private readonly clock: Clock,
    private readonly ownHostnames: ReadonlySet<string>,
    /** Clicks counted off the redirect path; reads of a count wait for them. */
    private readonly pendingClicks: { settle(): Promise<void> },
    usage: UsageService,
    plans: Plans,
    domains: LinkDomains,
  ) {
    this.creator = new LinkCreator(repo, bus, usage, clock, ownHostnames, plans, domains);
  }

  private readonly creator: LinkCreator;

  create(caller: Caller, input: CreateLinkInput): Promise<Link> {
    return this.creator.createOne(caller, input);
  }

  createMany(caller: Caller, urls: unknown, options: BulkOptions): Promise<BulkOutcome[]> {
    return this.creator.createMany(caller, urls, options);
  }

  /** The caller's own link by code or `<prefix>/<slug>`; someone else's link is refused, never shown. */
  async get(caller: Caller, shortPath: string): Promise<Link> {
    await this.pendingClicks.settle();
    const row = await this.repo.find(parseShortPath(shortPath));
    if (!row) throw errors.linkNotFound();
    if (row.account_id !== caller.accountId) throw errors.accessDenied();
    return toLink(row);
  }

  /** `folderId` lists one of the caller's folders, or with `none` the links in no folder. */
  async list(caller: Caller, page: { limit: number; offset: number; folderId?: string }): Promise<LinkPage> {
    const folder = page.folderId === UNFILED ? null : page.folderId;
    if (typeof folder === 'string' && !(await this.repo.hasFolder(caller.accountId, folder))) throw folderErrors.notFound();
    await this.pendingClicks.settle();
    const rows = await this.repo.listByAccount(caller.accountId, page.limit + 1, page.offset, folder);
    return {
      links: rows.slice(0, page.limit).map(toLink),
      limit: page.limit,
      offset: page.offset,
      hasMore: rows.length > page.limit,
    };
  }

  async update(caller: Caller, shortPath: string, input: UpdateLinkInput): Promise<Link> {
    const previous = await this.get(caller, shortPath);
    const patch: LinkPatch = {};
    if (input.url !== undefined) patch.url = checkDestination(input.url, this.ownHostnames);
    if (input.maxClicks !== undefined) patch.max_clicks = input.maxClicks === null ? null : checkMaxClicks(input.maxClicks);
    if (input.blockedCountries !== undefined) patch.blocked_countries = checkBlockedCountries(input.blockedCountries)?.join(',') ?? null;
    const changed = { expiresAt: input.expiresAt !== undefined, activeFrom: input.activeFrom !== undefined };
    if (changed.expiresAt || changed.activeFrom) {
      const schedule = checkSchedule(
        {
          expiresAt: changed.expiresAt ? (input.expiresAt ?? null) : previous.expiresAt,
          activeFrom: changed.activeFrom ? (input.activeFrom ?? null) : previous.activeFrom,
        },
        changed,
        this.clock.now(),
      );
      if (changed.expiresAt) {
        patch.expires_at = schedule.expiresAt;
        patch.expiry_notified = 0; // a new expiry time is announced again when it comes
      }
      if (changed.activeFrom) patch.active_from = schedule.activeFrom;
    }
    if (Object.keys(patch).length === 0) return previous;
    patch.updated_at = this.clock.now().toISOString();
    const row = await this.repo.update(previous.id, patch);
    if (!row) throw errors.linkNotFound();
    const link = toLink(row);
    this.bus.emit('link.updated', { link, previous });
    return link;
  }

  async delete(caller: Caller, shortPath: string): Promise<Link> {
    const link = await this.get(caller, shortPath);
    if (!(await this.repo.delete(link.id))) throw errors.linkNotFound();
    this.bus.emit('link.deleted', { link });
    return link;
  }
}
