import type { Plans } from '../plans.js';
import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';
import { errors, requireChange } from '../errors.js';
import type { EventBus } from '../events/bus.js';
import { folderErrors } from '../folders/errors.js';
import { checkTag } from '../tags/rules.js';
import { checkDomainFilter, checkSearch, type ViewFilters } from '../views/filters.js';
import type { UsageService } from '../usage/service.js';
import { BulkCreator, type BulkOptions, type BulkOutcome } from './bulk-creator.js';
import { draftFor, LinkCreator, type CreationDeps, type LinkDomains, type LinkUtmTemplates } from './creator.js';
import { LinkWriter } from './link-writer.js';
import { checkAppLinksFor, routingOf, type CreateLinkInput, type LinkDraft } from './drafts.js';
import { hashPassword } from '../sessions/passwords.js';
import { toLink, type Link, type LinkSource } from './link.js';
import type { LinkPatch, LinksRepository } from './repository.js';
import { checkDestination, checkSchedule, normalisedCountries, parseShortPath } from './rules.js';
import type { LinkChanges } from './input.js';
import { resolveVisit, type ResolveQuery, type Resolved } from './resolve.js';

/** A change as the services take it: the link changes (src/links/input.ts), B's Base64 destination decoded. */
export type UpdateLinkInput = Omit<LinkChanges, 'url'> & { url?: string };

/** The `folderId` filter value that lists the links in no folder; folder ids start with `fld_`, so it never names one. */
export const UNFILED = 'none';

/** What a list asks for: a page, and filters that all apply; `view` names a saved view whose filters apply too. */
export interface LinkListQuery extends ViewFilters {
  limit: number;
  offset: number;
  /** One of the caller's saved views; a filter given alongside replaces the view's of the same name. */
  view?: string;
  /** Only the links made through this surface (agent links list `mcp`). */
  source?: LinkSource;
}

/** What links use of tags (src/tags), saved views (src/views) and UTM templates (src/utm), wired in core.ts. */
export interface LinkPorts {
  tags: { tagsOf(linkIds: readonly string[]): Promise<Map<string, string[]>> };
  views: { filtersOf(caller: Caller, viewId: string): Promise<ViewFilters> };
  utmTemplates: LinkUtmTemplates;
}

export interface LinkPage {
  links: Link[];
  limit: number;
  offset: number;
  hasMore: boolean;
  /** How many links the filters keep, on every page together. */
  total: number;
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
    private readonly plans: Plans,
    domains: LinkDomains,
    private readonly ports: LinkPorts,
  ) {
    const creation = { repo, writer: new LinkWriter(repo), bus, usage, clock, ownHostnames, plans, domains, utmTemplates: ports.utmTemplates };
    this.creation = creation;
    this.creator = new LinkCreator(creation);
    this.bulk = new BulkCreator(creation);
  }

  private readonly creation: CreationDeps;

  /** A new link's draft by every rule, not yet written: imports (src/imports) amend it and write it themselves. */
  draft(caller: Caller, input: CreateLinkInput): Promise<LinkDraft> {
    return draftFor(this.creation, caller, input, this.clock.now());
  }

  private readonly creator: LinkCreator;
  private readonly bulk: BulkCreator;

  create(caller: Caller, input: CreateLinkInput): Promise<Link> {
    return this.creator.createOne(caller, input);
  }

  /** A partner link of an affiliate partnership (src/affiliate): a link of the partner's like any other. */
  createPartnerLink(caller: Caller, url: string, partnershipId: string): Promise<Link> {
    return this.creator.createOne(caller, { url }, partnershipId);
  }

  createMany(caller: Caller, urls: unknown, options: BulkOptions): Promise<BulkOutcome[]> {
    return this.bulk.createMany(caller, urls, options);
  }

  /** The caller's own link by code or `<prefix>/<slug>`; someone else's link is refused, never shown. */
  async get(caller: Caller, shortPath: string): Promise<Link> {
    await this.pendingClicks.settle();
    const row = await this.repo.find(parseShortPath(shortPath));
    if (!row) throw errors.linkNotFound();
    if (row.account_id !== caller.accountId) throw errors.accessDenied();
    return (await this.withTags([toLink(row)]))[0]!;
  }

  /**
   * `folderId` lists one of the caller's folders, or with `none` the links in no folder; `tag`, `domain` and
   * `search` narrow further; `view` applies a saved view's filters (those given here win).
   */
  async list(caller: Caller, page: LinkListQuery): Promise<LinkPage> {
    const { limit, offset, view } = page;
    const filters: ViewFilters = view === undefined ? {} : await this.ports.views.filtersOf(caller, view);
    for (const key of ['folderId', 'tag', 'domain', 'search'] as const) if (page[key] !== undefined) filters[key] = page[key];
    const folder = filters.folderId === UNFILED ? null : filters.folderId;
    const tagKey = filters.tag === undefined ? undefined : checkTag(filters.tag).key;
    const domain = filters.domain === undefined ? undefined : checkDomainFilter(filters.domain);
    const search = filters.search === undefined ? undefined : checkSearch(filters.search)?.toLowerCase();
    if (typeof folder === 'string' && !(await this.repo.hasFolder(caller.accountId, folder))) throw folderErrors.notFound();
    await this.pendingClicks.settle();
    const filter = { folderId: folder, tagKey, domain, search, source: page.source };
    const [rows, total] = await Promise.all([this.repo.listByAccount(caller.accountId, limit + 1, offset, filter), this.repo.countByAccount(caller.accountId, filter)]);
    return {
      links: await this.withTags(rows.slice(0, limit).map(toLink)),
      limit,
      offset,
      hasMore: rows.length > limit,
      total,
    };
  }

  /** The links with their tags, for presenting. */
  private async withTags(links: Link[]): Promise<Link[]> {
    const tags = await this.ports.tags.tagsOf(links.map((l) => l.id));
    return links.map((link) => ({ ...link, tags: tags.get(link.id) ?? [] }));
  }

  async update(caller: Caller, shortPath: string, input: UpdateLinkInput): Promise<Link> {
    requireChange(input);
    const previous = await this.get(caller, shortPath);
    // The operator's decision stands: the owner may delete a disabled link, not change or revive it.
    if (previous.disabledReason !== null) throw errors.linkDisabled(previous.disabledReason);
    const patch: LinkPatch = {};
    if (input.url !== undefined) patch.url = checkDestination(input.url, this.ownHostnames);
    if (input.maxClicks !== undefined) patch.max_clicks = input.maxClicks;
    if (input.blockedCountries !== undefined) patch.blocked_countries = normalisedCountries(input.blockedCountries)?.join(',') ?? null;
    if (input.appLinks !== undefined) {
      const appLinks = input.appLinks === null ? null : checkAppLinksFor(caller, input.appLinks, this.ownHostnames, this.plans);
      patch.app_links = appLinks === null ? null : JSON.stringify(appLinks);
    }
    const routing = routingOf(input, this.ownHostnames);
    if (input.rules !== undefined) patch.rules = routing.rules === null ? null : JSON.stringify(routing.rules);
    if (input.variants !== undefined) patch.variants = routing.variants === null ? null : JSON.stringify(routing.variants);
    if (input.expiredUrl !== undefined) patch.expired_url = routing.expiredUrl;
    if (input.socialPreview !== undefined) patch.social_preview = routing.socialPreview === null ? null : JSON.stringify(routing.socialPreview);
    if (input.password !== undefined) patch.password_hash = input.password === null ? null : await hashPassword(input.password);
    // A partner link pays for the program's destination: every surface changes links here, so here it stays on it.
    if (previous.partnershipId !== null && ((patch.url !== undefined && patch.url !== previous.url) || (patch.app_links !== undefined && patch.app_links !== null) || patch.rules || patch.variants)) {
      throw errors.partnerLinkDestination();
    }
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
    const row = await this.repo.update(previous, patch);
    if (!row) throw errors.linkNotFound();
    const link = (await this.withTags([toLink(row)]))[0]!;
    // The webhook event committed with the change (repository); the bus tells this process's caches.
    this.bus.emit('link.updated', { link, previous });
    return link;
  }

  /** Where a made-up visitor of the caller's link would go (src/links/resolve.ts); nothing is counted. */
  async resolve(caller: Caller, shortPath: string, visitor: ResolveQuery): Promise<Resolved> {
    return resolveVisit(await this.get(caller, shortPath), visitor, this.clock.now());
  }

  async delete(caller: Caller, shortPath: string): Promise<Link> {
    const link = await this.get(caller, shortPath);
    // Deleting would free its short path for a new link to the same place: the operator's decision holds it.
    if (link.disabledReason !== null) throw errors.linkDisabled(link.disabledReason);
    if (!(await this.repo.delete(link))) throw errors.linkNotFound();
    this.bus.emit('link.deleted', { link });
    return link;
  }
}
