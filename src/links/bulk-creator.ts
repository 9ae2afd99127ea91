import type { Caller } from '../caller.js';
import { AppError, errors } from '../errors.js';
import { breathe } from '../runtime/breathe.js';
import { decodeBase64Destination } from './base64-destination.js';
import { draftFor, type CreationDeps } from './creator.js';
import { linkItemInput, type CreateLinkInput, type LinkDraft } from './drafts.js';
import { toLink, type Link } from './link.js';

export interface BulkOptions {
  /** The most items one request may carry on this surface (A 100, B 1,000, MCP 50). */
  maxItems: number;
  /** Charge the daily link limit (operator imports do not). */
  chargeQuota?: boolean;
  /** One fingerprint per item: an item whose fingerprint already made a link is answered with that link. */
  importKeys?: string[];
  /**
   * How this surface's items read (default: Description B's item, `linkItemInput`): a binding that names fields
   * otherwise (MCP's `slug`) checks its own form of the same schema and renames back.
   */
  readItem?: (raw: unknown) => CreateLinkInput;
}

/** Items drafted between two looks at the event loop (see breathe): a 1,000-item request never holds it long. */
const BREATHE_EVERY = 10;
/** Rows written per transaction. */
const WRITE_CHUNK = 50;

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

/**
 * Makes many links in one request (REST A and B, MCP, the CLI's import): each item is drafted by the same rules as
 * a single link, the valid ones are written in one batch, and the few the batch skipped are retried one by one.
 */
export class BulkCreator {
  constructor(private readonly deps: CreationDeps) {}

  /** Spec 2.6: each item stands alone; a bad item fails only itself. Over the daily link limit, nothing is made. */
  async createMany(caller: Caller, urls: unknown, options: BulkOptions): Promise<BulkOutcome[]> {
    if (urls === undefined || urls === null || (Array.isArray(urls) && urls.length === 0)) {
      throw errors.missingUrls();
    }
    if (!Array.isArray(urls)) throw errors.invalidUrls();
    if (urls.length > options.maxItems) {
      throw errors.tooManyUrls(options.maxItems);
    }
    const now = this.deps.clock.now();
    const readItem = options.readItem ?? linkItemInput;
    // Most items name the same domain (or none): one lookup per domain named, not per item.
    const lookups = new Map<string, Promise<string | null>>();
    const domains = {
      domainFor: (accountId: string, requested: string | undefined) => {
        const key = requested ?? '';
        if (!lookups.has(key)) lookups.set(key, this.deps.domains.domainFor(accountId, requested));
        return lookups.get(key)!;
      },
    };
    const deps = { ...this.deps, domains };
    const outcomes: BulkOutcome[] = [];
    const pending: { index: number; url: string; draft: LinkDraft; importKey: string | null }[] = [];
    const existing = await this.deps.repo.byImportKeys(caller.accountId, options.importKeys ?? []);
    const slugsSeen = new Set<string>();
    for (const [index, raw] of urls.entries()) {
      if (index % BREATHE_EVERY === BREATHE_EVERY - 1) await breathe();
      const url = echoUrl(raw);
      const importKey = options.importKeys?.[index] ?? null;
      const already = importKey ? existing.get(importKey) : undefined;
      if (already) {
        outcomes.push({ index, url, link: toLink(already), existing: true });
        continue;
      }
      try {
        const draft = await draftFor(deps, caller, readItem(raw), now);
        if (draft.slug && slugsSeen.has(draft.slug)) throw errors.slugTaken();
        if (draft.slug) slugsSeen.add(draft.slug);
        pending.push({ index, url, draft, importKey });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        outcomes.push({ index, url, error });
      }
    }

    const namespace = caller.namespace;
    const taken = namespace ? await this.deps.repo.takenSlugs(namespace, pending.flatMap((p) => (p.draft.slug ? [p.draft.slug] : []))) : new Set();
    const fresh = pending.filter((p) => {
      if (!p.draft.slug || !taken.has(p.draft.slug)) return true;
      outcomes.push({ index: p.index, url: p.url, error: errors.slugTaken() });
      return false;
    });

    const refund = options.chargeQuota === false ? async () => {} : await this.deps.usage.chargeLinks(caller, fresh.length);
    const rows = fresh.map((p) => this.deps.writer.row(p.draft, now, p.importKey));
    // A transaction per chunk, the loop given back between them (never inside one: see breathe).
    const inserted = new Set<string>();
    try {
      for (let i = 0; i < rows.length; i += WRITE_CHUNK) {
        if (i > 0) await breathe();
        for (const id of await this.deps.repo.insertMany(rows.slice(i, i + WRITE_CHUNK))) inserted.add(id);
      }
    } catch (error) {
      if (inserted.size === 0) await refund();
      else if (options.chargeQuota !== false) await this.deps.usage.refundLinks(caller, rows.length - inserted.size);
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
        outcomes.push({ index: p.index, url: p.url, link: await this.deps.writer.insertWithFreshCode(p.draft, now, p.importKey), existing: false });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        outcomes.push({ index: p.index, url: p.url, error });
        failedAfterCharge += 1;
      }
    }
    if (failedAfterCharge > 0 && options.chargeQuota !== false) await this.deps.usage.refundLinks(caller, failedAfterCharge);
    outcomes.sort((a, b) => a.index - b.index);
    for (const o of outcomes) if ('link' in o && !o.existing) this.deps.bus.emit('link.created', { link: o.link });
    return outcomes;
  }
}
