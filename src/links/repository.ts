import { sql, type Kysely, type Updateable } from 'kysely';
import type { Database, LinksTable } from '../db/schema.js';
import type { LinkSummary } from './events.js';
import { withEvents, type EventOutbox } from '../events/outbox.js';
import { toLink, type Link } from './link.js';

import type { LinkRow } from './link-row.js';
import type { LinkKey } from './link-key.js';

export type { LinkRow, LinkKey };
export type LinkPatch = Updateable<Pick<LinksTable, 'url' | 'max_clicks' | 'expires_at' | 'active_from' | 'updated_at' | 'expiry_notified' | 'blocked_countries' | 'app_links' | 'rules' | 'variants' | 'password_hash' | 'expired_url' | 'social_preview' | 'disabled_at' | 'disabled_reason'>>;

const INSERT_CHUNK = 200;

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
  /** The links made through one surface (agent links: `mcp`). */
  source?: string;
}

/** `%text%` for LIKE, with the text's own `%`, `_` and `\` matched literally (ESCAPE '\'). */
const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The links' SQL. Every change a webhook can hear of (created, updated, deleted, expired, a cap reached) writes its
 * event into the outbox in the change's own transaction.
 */
export class LinksRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly outbox: EventOutbox,
  ) {}

  /** Inserts the link and its `link.created` event together. */
  async insert(row: LinkRow): Promise<void> {
    await withEvents(this.db, this.outbox, async (trx) => {
      await trx.insertInto('links').values(row).execute();
      await this.outbox.append(trx, [{ event: 'link.created', payload: { link: toLink(row) } }]);
    });
  }

  /**
   * Inserts many rows at once, with a `link.created` event for each one inserted, in one transaction; rows whose
   * code or slug is already taken are skipped. Returns the inserted ids.
   */
  async insertMany(rows: LinkRow[]): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    return withEvents(this.db, this.outbox, async (trx) => {
      const inserted = new Set<string>();
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        const chunk = rows.slice(i, i + INSERT_CHUNK);
        const result = await trx.insertInto('links').values(chunk).onConflict((oc) => oc.doNothing()).returning('id').execute();
        const ids = new Set(result.map((r) => r.id));
        for (const id of ids) inserted.add(id);
        await this.outbox.append(
          trx,
          chunk.filter((r) => ids.has(r.id)).map((r) => ({ event: 'link.created' as const, payload: { link: toLink(r) } })),
        );
      }
      return inserted;
    });
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
    if ('legacyPath' in key) return query.where('legacy_path', '=', key.legacyPath).executeTakeFirst();
    return ('code' in key
      ? query.where('code', '=', key.code)
      : query.where('namespace', '=', key.namespace).where('slug', '=', key.slug)
    ).executeTakeFirst();
  }

  /**
   * Marks links expired by `now` that were not announced yet, with their `link.expired` events, and returns them
   * (each exactly once).
   */
  markExpired(now: string): Promise<LinkRow[]> {
    return withEvents(this.db, this.outbox, async (trx) => {
      const rows = await trx.updateTable('links').set({ expiry_notified: 1 }).where('expires_at', '<=', now).where('expiry_notified', '=', 0).returningAll().execute();
      await this.outbox.append(trx, rows.map((row) => ({ event: 'link.expired' as const, payload: { link: toLink(row) } })));
      return rows;
    });
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
    return this.filtered(accountId, filter).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
  }

  /** How many of the account's links the filter keeps (the list's total). */
  async countByAccount(accountId: string, filter: LinkListFilter = {}): Promise<number> {
    const row = await this.filtered(accountId, filter).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private filtered(accountId: string, filter: LinkListFilter) {
    const { folderId, tagKey, domain, search, source } = filter;
    const pattern = search === undefined ? '' : containsPattern(search);
    return this.db
      .selectFrom('links')
      .where('account_id', '=', accountId)
      .$if(folderId !== undefined, (q) => q.where('folder_id', folderId === null ? 'is' : '=', folderId!))
      .$if(domain !== undefined, (q) => q.where('domain', '=', domain!))
      .$if(source !== undefined, (q) => q.where('source', '=', source!))
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
      );
  }

  /** Changes `previous` and writes its `link.updated` event in one transaction. */
  async update(previous: Link, patch: LinkPatch): Promise<LinkRow | undefined> {
    return withEvents(this.db, this.outbox, async (trx) => {
      const row = await trx
        .updateTable('links')
        .set(patch)
        .where('id', '=', previous.id)
        // An owner's change made as the operator disables the link does not land on it; the operator's own change does.
        .$if(!('disabled_at' in patch), (q) => q.where('disabled_at', 'is', null))
        .returningAll()
        .executeTakeFirst();
      if (row) await this.outbox.append(trx, [{ event: 'link.updated', payload: { link: toLink(row), previous } }]);
      return row;
    });
  }

  /**
   * Deletes the link and its tags, with its `link.deleted` event, in one transaction. The link goes first: a
   * tagging that holds the link's row (src/tags) finishes before, and its tag is then deleted here too.
   */
  async delete(link: Link): Promise<boolean> {
    return withEvents(this.db, this.outbox, async (trx) => {
      const result = await trx.deleteFrom('links').where('id', '=', link.id).executeTakeFirst();
      await trx.deleteFrom('link_tags').where('link_id', '=', link.id).execute();
      const deleted = Number(result.numDeletedRows) > 0;
      if (deleted) await this.outbox.append(trx, [{ event: 'link.deleted', payload: { link } }]);
      return deleted;
    });
  }

  /**
   * Counts one click on a capped link if, and only if, the cap leaves room. The check and the increment are
   * one statement, so parallel requests on any number of instances can never exceed the cap. The click that
   * uses up the cap writes `link.limit_reached` in the same transaction, when the account has a webhook for it
   * (otherwise the statement runs alone, with no transaction around it).
   * Returns the new count, or undefined when the cap was already reached or the link is gone.
   */
  async claimCappedClick(link: LinkSummary): Promise<number | undefined> {
    const claim = (db: Kysely<Database>) =>
      db
        .updateTable('links')
        .set({ clicks: sql`clicks + 1` })
        .where('id', '=', link.id)
        .where('max_clicks', 'is not', null)
        .where(sql<boolean>`clicks < max_clicks`)
        .returning(['clicks', 'max_clicks'])
        .executeTakeFirst();
    if (!this.outbox.wants('link.limit_reached', link.accountId)) return (await claim(this.db))?.clicks;
    const row = await this.db.transaction().execute(async (trx) => {
      const claimed = await claim(trx);
      if (claimed && claimed.max_clicks !== null && Number(claimed.clicks) >= Number(claimed.max_clicks)) {
        await this.outbox.append(trx, [{ event: 'link.limit_reached', payload: { link } }]);
      }
      return claimed;
    });
    this.outbox.committed();
    return row?.clicks;
  }

  /** A visitor was refused by country: nothing changes, so the event is written alone (when a webhook wants it). */
  async announceGeoBlocked(link: LinkSummary, country: string): Promise<void> {
    if (!this.outbox.wants('link.geo_blocked', link.accountId)) return;
    await this.outbox.append(this.db, [{ event: 'link.geo_blocked', payload: { link, country } }]);
    this.outbox.committed();
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
