import type { Caller } from '../accounts/service.js';
import { tierAtLeast } from '../accounts/plans.js';
import type { Clock } from '../clock.js';
import { isUniqueViolation } from '../db/database.js';
import { AppError, errors } from '../errors.js';
import type { EventBus } from '../events/bus.js';
import { newId, randomBase62 } from '../ids.js';
import { toLink, type Link } from './link.js';
import type { LinkPatch, LinkRow, LinksRepository } from './repository.js';
import { checkDestination, checkMaxClicks, checkSchedule, checkSlug, parseShortPath } from './rules.js';

export interface CreateLinkInput {
  url: unknown;
  customSlug?: string;
  expiresAt?: string;
  maxClicks?: number;
  activeFrom?: string;
}

/** Only the fields present change; null clears expiresAt, maxClicks or activeFrom. */
export interface UpdateLinkInput {
  url?: unknown;
  expiresAt?: string | null;
  maxClicks?: number | null;
  activeFrom?: string | null;
}

export interface LinkPage {
  links: Link[];
  limit: number;
  offset: number;
  hasMore: boolean;
}

const CODE_ATTEMPTS = 8;

export class LinksService {
  constructor(
    private readonly repo: LinksRepository,
    private readonly bus: EventBus,
    private readonly clock: Clock,
    private readonly ownHostnames: ReadonlySet<string>,
    /** Clicks counted off the redirect path; reads of a count wait for them. */
    private readonly pendingClicks: { settle(): Promise<void> },
  ) {}

  async create(caller: Caller, input: CreateLinkInput): Promise<Link> {
    const url = checkDestination(input.url, this.ownHostnames);
    const slug = input.customSlug === undefined ? null : checkSlug(input.customSlug);
    if (slug !== null && !tierAtLeast(caller.tier, 'pro')) throw errors.premiumRequired();
    if (slug !== null && !caller.namespace) {
      throw new AppError(400, 'NAMESPACE_REQUIRED', 'Claim a namespace before creating custom slugs');
    }
    const maxClicks = input.maxClicks === undefined ? null : checkMaxClicks(input.maxClicks);
    const now = this.clock.now();
    const schedule = checkSchedule(
      { expiresAt: input.expiresAt ?? null, activeFrom: input.activeFrom ?? null },
      { expiresAt: true, activeFrom: true },
      now,
    );
    const namespace = slug === null ? null : caller.namespace;
    if (namespace && slug && (await this.repo.find({ namespace, slug }))) throw errors.slugTaken();

    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
      const row: LinkRow = {
        id: newId('lnk'),
        account_id: caller.accountId,
        code: randomBase62(6),
        namespace,
        slug,
        url,
        clicks: 0,
        max_clicks: maxClicks,
        expires_at: schedule.expiresAt,
        active_from: schedule.activeFrom,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      };
      try {
        await this.repo.insert(row);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (namespace && slug && (await this.repo.find({ namespace, slug }))) throw errors.slugTaken();
        continue; // the random code collided; draw another
      }
      const link = toLink(row);
      this.bus.emit('link.created', { link });
      return link;
    }
    throw new AppError(503, 'CODE_SPACE_BUSY', 'Could not allocate a short code; try again');
  }

  /** The caller's own link by code or `<prefix>/<slug>`; someone else's link is refused, never shown. */
  async get(caller: Caller, shortPath: string): Promise<Link> {
    await this.pendingClicks.settle();
    const row = await this.repo.find(parseShortPath(shortPath));
    if (!row) throw errors.linkNotFound();
    if (row.account_id !== caller.accountId) throw errors.accessDenied();
    return toLink(row);
  }

  async list(caller: Caller, page: { limit: number; offset: number }): Promise<LinkPage> {
    await this.pendingClicks.settle();
    const rows = await this.repo.listByAccount(caller.accountId, page.limit + 1, page.offset);
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
      if (changed.expiresAt) patch.expires_at = schedule.expiresAt;
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
