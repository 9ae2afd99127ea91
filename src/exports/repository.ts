import type { Kysely, Selectable } from 'kysely';
import type { Database, LinksTable } from '../db/schema.js';

/** Where the previous page of an export ended: its last link's creation time and id. */
export interface LinkCursor {
  createdAt: string;
  id: string;
}

/** The reads of exports: an account's links page by page, newest first (the order of the link lists). */
export class ExportsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Up to `limit` links of the account, newest first (created_at, then id, both descending), after `cursor`.
   * Keyset paging: each page is one indexed range read, and links created or deleted while an export runs never
   * make another link appear twice or go missing, as an offset would.
   */
  linksPage(accountId: string, limit: number, cursor: LinkCursor | null): Promise<Selectable<LinksTable>[]> {
    return this.db
      .selectFrom('links')
      .selectAll()
      .where('account_id', '=', accountId)
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
