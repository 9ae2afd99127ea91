import type { Plans } from '../accounts/plans.js';
import type { Caller } from '../accounts/service.js';
import type { Clock } from '../clock.js';
import { isUniqueViolation } from '../db/database.js';
import { AppError, errors } from '../errors.js';
import type { EventBus } from '../events/bus.js';
import { newId, randomBase62 } from '../ids.js';
import type { UsageService } from '../usage/service.js';
import { decodeBase64Destination } from './base64-destination.js';
import { bulkItemInput, draftLink, type CreateLinkInput, type LinkDraft } from './drafts.js';
import { toLink, type Link } from './link.js';
import type { LinkRow, LinksRepository } from './repository.js';
import { checkDestination } from './rules.js';

const CODE_ATTEMPTS = 8;

/** Which custom domain a new link's short URL uses (src/domains). */
export interface LinkDomains {
  /** The requested domain when it is the account's active one (else an error), or the account's default. */
  domainFor(accountId: string, requested: unknown): Promise<string | null>;
}

/** The caller's UTM templates (src/utm), applied to a new link's destination. */
export interface LinkUtmTemplates {
  /** `url` with the template's utm_* parameters set; an unknown or foreign template is refused. */
  apply(caller: Caller, templateId: string, url: string): Promise<string>;
}

export interface BulkOptions {
  /** The most items one request may carry on this surface (A 100, B 1,000, MCP 50). */
  maxItems: number;
  /** Charge the daily link limit (operator imports do not). */
  chargeQuota?: boolean;
  /** One fingerprint per item: an item whose fingerprint already made a link is answered with that link. */
  importKeys?: string[];
}

/** One bulk item's outcome, in input order. `existing` marks an import row that had already been imported. */
export type BulkOutcome =
  | { index: number; url: string; link: Link; existing: boolean }
  | { index: number; url: string; error: AppError };

/** The destination an item named, as text: its url, or its Base64 `long` decoded where that is possible. */
const echoUrl = (raw: unknown): string => {
  const item = (typeof raw === 'object' && raw !== null ? raw : {}) as { url?: unknown; long?: unknown };
  if (typeof item.url === 'string') return item.url;
  if (typeof item.long !== 'string') return '';
  try {
    return decodeBase64Destination(item.long);
  } catch {
    return item.long;
  }
};

/** Makes new links, one or many; every rule comes from `draftLink`, so single and bulk creation agree. */
export class LinkCreator {
  constructor(
    private readonly repo: LinksRepository,
    private readonly bus: EventBus,
    private readonly usage: UsageService,
    private readonly clock: Clock,
    private readonly ownHostnames: ReadonlySet<string>,
    private readonly plans: Plans,
    private readonly domains: LinkDomains,
    private readonly utmTemplates: LinkUtmTemplates,
  ) {}

  async createOne(caller: Caller, input: CreateLinkInput): Promise<Link> {
    const now = this.clock.now();
    const draft = draftLink(caller, input, now, this.ownHostnames, this.plans);
    draft.domain = await this.domains.domainFor(caller.accountId, input.domain);
    draft.url = await this.withUtm(caller, input.utmTemplateId, draft.url);
    if (draft.namespace && draft.slug && (await this.repo.find({ namespace: draft.namespace, slug: draft.slug }))) {
      throw errors.slugTaken();
    }
    const refund = await this.usage.chargeLinks(caller, 1);
    try {
      // The webhook event was committed with the link (LinksRepository.insert); the bus tells in-process caches.
      const link = await this.insertWithFreshCode(draft, now, null);
      this.bus.emit('link.created', { link });
      return link;
    } catch (error) {
      await refund();
      throw error;
    }
  }

  /** Spec 2.6: each item stands alone; a bad item fails only itself. Over the daily link limit, nothing is made. */
  async createMany(caller: Caller, urls: unknown, options: BulkOptions): Promise<BulkOutcome[]> {
    if (urls === undefined || urls === null || (Array.isArray(urls) && urls.length === 0)) {
      throw errors.missingUrls();
    }
    if (!Array.isArray(urls)) throw errors.invalidUrls();
    if (urls.length > options.maxItems) {
      throw errors.tooManyUrls(options.maxItems);
    }
    const now = this.clock.now();
    const domain = await this.domains.domainFor(caller.accountId, undefined);
    const outcomes: BulkOutcome[] = [];
    const pending: { index: number; url: string; draft: LinkDraft; importKey: string | null }[] = [];
    const existing = await this.repo.byImportKeys(caller.accountId, options.importKeys ?? []);
    const slugsSeen = new Set<string>();
    urls.forEach((raw, index) => {
      const url = echoUrl(raw);
      const importKey = options.importKeys?.[index] ?? null;
      const already = importKey ? existing.get(importKey) : undefined;
      if (already) return outcomes.push({ index, url, link: toLink(already), existing: true });
      try {
        const draft = { ...draftLink(caller, bulkItemInput(raw), now, this.ownHostnames, this.plans), domain };
        if (draft.slug && slugsSeen.has(draft.slug)) throw errors.slugTaken();
        if (draft.slug) slugsSeen.add(draft.slug);
        pending.push({ index, url, draft, importKey });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        outcomes.push({ index, url, error });
      }
    });

    const namespace = caller.namespace;
    const taken = namespace ? await this.repo.takenSlugs(namespace, pending.flatMap((p) => (p.draft.slug ? [p.draft.slug] : []))) : new Set();
    const fresh = pending.filter((p) => {
      if (!p.draft.slug || !taken.has(p.draft.slug)) return true;
      outcomes.push({ index: p.index, url: p.url, error: errors.slugTaken() });
      return false;
    });

    const refund = options.chargeQuota === false ? async () => {} : await this.usage.chargeLinks(caller, fresh.length);
    const rows = fresh.map((p) => this.row(p.draft, now, p.importKey));
    let inserted: Set<string>;
    try {
      inserted = await this.repo.insertMany(rows);
    } catch (error) {
      await refund();
      throw error;
    }
    let failedAfterCharge = 0;
    for (const [i, p] of fresh.entries()) {
      const row = rows[i]!;
      if (inserted.has(row.id)) {
        outcomes.push({ index: p.index, url: p.url, link: toLink(row), existing: false });
        continue;
      }
      // Skipped by the batch insert: a random code collided, or a slug was taken in between. Retry alone.
      try {
        outcomes.push({ index: p.index, url: p.url, link: await this.insertWithFreshCode(p.draft, now, p.importKey), existing: false });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        outcomes.push({ index: p.index, url: p.url, error });
        failedAfterCharge += 1;
      }
    }
    if (failedAfterCharge > 0 && options.chargeQuota !== false) await this.usage.refundLinks(caller, failedAfterCharge);
    outcomes.sort((a, b) => a.index - b.index);
    for (const o of outcomes) if ('link' in o && !o.existing) this.bus.emit('link.created', { link: o.link });
    return outcomes;
  }

  /** The destination with the template's parameters, checked again (the parameters may make it too long). */
  private async withUtm(caller: Caller, templateId: unknown, url: string): Promise<string> {
    if (templateId === undefined || templateId === null) return url;
    if (typeof templateId !== 'string') throw errors.invalidUtmTemplateId();
    return checkDestination(await this.utmTemplates.apply(caller, templateId, url), this.ownHostnames);
  }

  private row(draft: LinkDraft, now: Date, importKey: string | null): LinkRow {
    return {
      id: newId('lnk'),
      account_id: draft.accountId,
      code: randomBase62(6),
      namespace: draft.namespace,
      slug: draft.slug,
      url: draft.url,
      clicks: 0,
      max_clicks: draft.maxClicks,
      expires_at: draft.expiresAt,
      active_from: draft.activeFrom,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      import_key: importKey,
      expiry_notified: 0,
      blocked_countries: draft.blockedCountries?.join(',') ?? null,
      folder_id: null,
      domain: draft.domain,
    };
  }

  private async insertWithFreshCode(draft: LinkDraft, now: Date, importKey: string | null): Promise<Link> {
    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
      const row = this.row(draft, now, importKey);
      try {
        await this.repo.insert(row);
        return toLink(row);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (draft.namespace && draft.slug && (await this.repo.find({ namespace: draft.namespace, slug: draft.slug }))) {
          throw errors.slugTaken();
        }
      }
    }
    throw errors.codeSpaceBusy();
  }
}
