import { isUniqueViolation } from '../db/database.js';
import { errors } from '../errors.js';
import { newId, randomBase62 } from '../ids.js';
import type { LinkDraft } from './drafts.js';
import { toLink, type Link } from './link.js';
import type { LinkRow } from './link-row.js';
import type { LinksRepository } from './repository.js';

const CODE_ATTEMPTS = 8;

/**
 * Writes drafted links with fresh random codes. Codes are drawn, not reserved, so two creations can draw the same
 * one: the unique index decides, and the loser draws again (or learns its slug was taken meanwhile).
 */
export class LinkWriter {
  constructor(private readonly repo: LinksRepository) {}

  /** The row of a draft with a freshly drawn code: for a batch insert, which skips a row whose code is taken. */
  row(draft: LinkDraft, now: Date, importKey: string | null): LinkRow {
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
      source: draft.source,
      client_name: draft.clientName,
      app_links: draft.appLinks === null ? null : JSON.stringify(draft.appLinks),
      partnership_id: draft.partnershipId,
      rules: draft.rules === null ? null : JSON.stringify(draft.rules),
      variants: draft.variants === null ? null : JSON.stringify(draft.variants),
      password_hash: draft.passwordHash,
      expired_url: draft.expiredUrl,
      social_preview: draft.socialPreview === null ? null : JSON.stringify(draft.socialPreview),
      disabled_at: null,
      disabled_reason: null,
      legacy_path: null,
      imported_from: null,
      imported_clicks: 0,
      title: null,
    };
  }

  async insertWithFreshCode(draft: LinkDraft, now: Date, importKey: string | null): Promise<Link> {
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
