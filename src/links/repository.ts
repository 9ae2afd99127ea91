import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Database, LinksTable } from '../db/schema.js';

export type LinkRow = Selectable<LinksTable>;
export type LinkPatch = Updateable<Pick<LinksTable, 'url' | 'max_clicks' | 'expires_at' | 'active_from' | 'updated_at' | 'expiry_notified' | 'blocked_countries'>>;

const INSERT_CHUNK = 200;

export type LinkKey = { code: string } | { namespace: string; slug: string };

/** Filters of a link list; every one given applies. */
export interface LinkListFilter {
  /** The links of one folder, or (null) those in none. */
  folderId?: string | null;
  /** The links carrying the tag of this key (lower case). */
  tagKey?: string;
  /** The links whose short URL is on this custom domain. */
  domain?: string;
  /** Lower-case text the destination, the code or the slug contains (ignoring case). */
  search?: string;
}

/** `%text%` for LIKE, with the text's own `%`, `_` and `\` matched literally (ESCAPE '\'). */
const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class LinksRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: LinkRow): Promise<void> {
    await this.db.insertInto('links').values(row).execute();
  }

  /** Inserts many rows at once; rows whose code or slug is already taken are skipped. Returns the inserted ids. */
  async insertMany(rows: LinkRow[]): Promise<Set<string>> {
    const inserted = new Set<string>();
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const result = await this.db
        .insertInto('links')
        .values(rows.slice(i, i + INSERT_CHUNK))
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .execute();
      for (const r of result) inserted.add(r.id);
    }
    return inserted;
  }

  /** Which of these slugs the namespace already uses. */
  async takenSlugs(namespace: string, slugs: string[]): Promise<Set<string>> {
    if (slugs.length === 0) return new Set();
    const rows = await this.db.selectFrom('links').select('slug').where('namespace', '=', namespace).where('slug', 'in', slugs).execute();
    return new Set(rows.map((r) => r.slug!));
  }

  /** Links the account already made from these import rows, by import key. */
  async byImportKeys(accountId: string, keys: string[]): Promise<Map<string, LinkRow>> {
    if (keys.length === 0) return new Map();
    const rows = await this.db.selectFrom('links').selectAll().where('account_id', '=', accountId).where('import_key', 'in', keys).execute();
    return new Map(rows.map((r) => [r.import_key!, r]));
  }

  find(key: LinkKey): Promise<LinkRow | undefined> {
    const query = this.db.selectFrom('links').selectAll();
    return ('code' in key
      ? query.where('code', '=', key.code)
      : query.where('namespace', '=', key.namespace).where('slug', '=', key.slug)
    ).executeTakeFirst();
  }

  /** Marks links expired by `now` that were not announced yet, and returns them (each exactly once). */
  markExpired(now: string): Promise<LinkRow[]> {
    return this.db
      .updateTable('links')
      .set({ expiry_notified: 1 })
      .where('expires_at', '<=', now)
      .where('expiry_notified', '=', 0)
      .returningAll()
      .execute();
  }

  async hasFolder(accountId: string, folderId: string): Promise<boolean> {
    const row = await this.db.selectFrom('folders').select('id').where('id', '=', folderId).where('account_id', '=', accountId).executeTakeFirst();
    return row !== undefined;
  }

  findById(id: string): Promise<LinkRow | undefined> {
    return this.db.selectFrom('links').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Newest first; asks for one row more than the page so the caller knows whether more follow. Filters left
   * undefined keep all. The same SQL on SQLite and PostgreSQL: destinations and codes are ASCII (URLs are stored
   * as the WHATWG parser writes them), so lower() folds them alike on both.
   */
  listByAccount(accountId: string, limit: number, offset: number, filter: LinkListFilter = {}): Promise<LinkRow[]> {
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
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async update(id: string, patch: LinkPatch): Promise<LinkRow | undefined> {
    return this.db.updateTable('links').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /**
   * Deletes the link and its tags in one transaction. The link goes first: a tagging that holds the link's row
   * (src/tags) finishes before, and its tag is then deleted here too.
   */
  async delete(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx.deleteFrom('links').where('id', '=', id).executeTakeFirst();
      await trx.deleteFrom('link_tags').where('link_id', '=', id).execute();
      return Number(result.numDeletedRows) > 0;
    });
  }

  /**
   * Counts one click on a capped link if, and only if, the cap leaves room. The check and the increment are
   * one statement, so parallel requests on any number of instances can never exceed the cap.
   * Returns the new count, or undefined when the cap was already reached or the link is gone.
   */
  async claimCappedClick(id: string): Promise<number | undefined> {
    const row = await this.db
      .updateTable('links')
      .set({ clicks: sql`clicks + 1` })
      .where('id', '=', id)
      .where('max_clicks', 'is not', null)
      .where(sql<boolean>`clicks < max_clicks`)
      .returning('clicks')
      .executeTakeFirst();
    return row?.clicks;
  }

  /** Adds a batch of uncapped clicks in one transaction (one commit for many redirects). */
  async addClicks(counts: Map<string, number>): Promise<void> {
    const add = (db: Kysely<Database>, id: string, n: number) =>
      db.updateTable('links').set({ clicks: sql`clicks + ${n}` }).where('id', '=', id).execute();
    if (counts.size === 1) {
      for (const [id, n] of counts) await add(this.db, id, n);
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      for (const [id, n] of counts) await add(trx, id, n);
    });
  }
}
