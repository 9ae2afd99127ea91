import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, LinksTable } from '../db/schema.js';

/** Where the previous page of an export ended: its last link's creation time and id. */
export interface LinkCursor {
  createdAt: string;
  id: string;
}

/**
 * The link list's filters as an export applies them, already checked (src/exports/filters.ts): every one given
 * applies. The same meaning as the link list's (src/links/repository.ts `listByAccount`), so an export of a filtered
 * list holds exactly the links the list shows; test/exports/exports.test.ts holds the two side by side.
 */
export interface ExportFilter {
  /** The links of one folder, or (null) those in none. */
  folderId?: string | null;
  /** The links carrying the tag of this key (lower case). */
  tagKey?: string;
  /** The links whose short URL is on this custom domain. */
  domain?: string;
  /** Lower-case text the destination, the code or the slug contains. */
  search?: string;
}

/** `%text%` for LIKE, with the text's own `%`, `_` and `\` matched literally (ESCAPE '\'). */
const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The reads of exports: an account's links page by page, newest first (the order of the link lists). */
export class ExportsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async hasFolder(accountId: string, folderId: string): Promise<boolean> {
    const row = await this.db.selectFrom('folders').select('id').where('id', '=', folderId).where('account_id', '=', accountId).executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Up to `limit` links of the account, newest first (created_at, then id, both descending), after `cursor`.
   * Keyset paging: each page is one indexed range read, and links created or deleted while an export runs never
   * make another link appear twice or go missing, as an offset would.
   */
  linksPage(accountId: string, limit: number, cursor: LinkCursor | null, filter: ExportFilter = {}): Promise<Selectable<LinksTable>[]> {
    const { folderId, tagKey, domain, search } = filter;
    const pattern = search === undefined ? '' : containsPattern(search);
    return this.db
      .selectFrom('links')
      .selectAll()
      .where('account_id', '=', accountId)
      .$if(folderId !== undefined, (q) => q.where('folder_id', folderId === null ? 'is' : '=', folderId!))
      .$if(domain !== undefined, (q) => q.where('domain', '=', domain!))
      .$if(tagKey !== undefined, (q) =>
        q.where((eb) =>
          eb.exists(
            eb.selectFrom('link_tags').select('link_tags.link_id').whereRef('link_tags.link_id', '=', 'links.id').where('link_tags.tag_key', '=', tagKey!),
          ),
        ),
      )
      .$if(search !== undefined, (q) =>
        q.where(
          sql<boolean>`(lower(url) like ${pattern} escape '\\' or lower(code) like ${pattern} escape '\\' or lower(coalesce(slug, '')) like ${pattern} escape '\\')`,
        ),
      )
      .$if(cursor !== null, (q) =>
        q.where((eb) =>
          eb.or([eb('created_at', '<', cursor!.createdAt), eb.and([eb('created_at', '=', cursor!.createdAt), eb('id', '<', cursor!.id)])]),
        ),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
}
