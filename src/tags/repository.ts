import type { Kysely, Selectable } from 'kysely';
import { withAccountLock } from '../db/account-lock.js';
import type { Dialect } from '../db/database.js';
import type { Database, LinkTagsTable } from '../db/schema.js';

export type LinkTagRow = Selectable<LinkTagsTable>;
export type TagCountRow = { tag: string; tag_key: string; link_count: number | string };

const IN_CHUNK = 500;

export class TagsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Runs `work` in one transaction that holds the link's row lock on PostgreSQL, so two requests tagging one link
   * cannot both pass the per-link limit, and a delete of the link waits (or is waited for): a tag is never left
   * behind on a deleted link. On SQLite Kysely's one connection already runs it alone. Answers undefined, without
   * running `work`, when the link is gone.
   */
  onLink<T>(linkId: string, work: (repo: TagsRepository) => Promise<T>): Promise<T | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const link = await trx
        .selectFrom('links')
        .select('id')
        .where('id', '=', linkId)
        .$if(this.dialect === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      if (!link) return undefined;
      return work(new TagsRepository(trx, this.dialect));
    });
  }

  /** The tags of these links, in no particular order. */
  async ofLinks(linkIds: readonly string[]): Promise<LinkTagRow[]> {
    const rows: LinkTagRow[] = [];
    for (let i = 0; i < linkIds.length; i += IN_CHUNK) {
      rows.push(...(await this.db.selectFrom('link_tags').selectAll().where('link_id', 'in', linkIds.slice(i, i + IN_CHUNK)).execute()));
    }
    return rows;
  }

  /** Adds the tag unless the link already has one with the same key. */
  async insert(row: LinkTagRow): Promise<void> {
    await this.db.insertInto('link_tags').values(row).onConflict((oc) => oc.columns(['link_id', 'tag_key']).doNothing()).execute();
  }

  /** Adds many tags at once (imports); a link's second tag with one key is skipped. */
  async insertMany(rows: LinkTagRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += IN_CHUNK) {
      await this.db.insertInto('link_tags').values(rows.slice(i, i + IN_CHUNK)).onConflict((oc) => oc.columns(['link_id', 'tag_key']).doNothing()).execute();
    }
  }

  /** False when the link had no tag with this key. */
  async delete(linkId: string, key: string): Promise<boolean> {
    const result = await this.db.deleteFrom('link_tags').where('link_id', '=', linkId).where('tag_key', '=', key).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * Runs `work` in one transaction under the account's lock: a rename looks at the account's tags and changes them
   * together, and two renames of one account (into one name) run one after the other.
   */
  exclusive<T>(accountId: string, work: (repo: TagsRepository) => Promise<T>): Promise<T> {
    return withAccountLock(this.db, this.dialect, accountId, (trx) => work(new TagsRepository(trx, this.dialect)));
  }

  /** How many of the account's links carry the tag with this key (links that exist, as `counts` counts them). */
  async linkCount(accountId: string, key: string): Promise<number> {
    const row = await this.db
      .selectFrom('link_tags')
      .innerJoin('links', (join) => join.onRef('links.id', '=', 'link_tags.link_id').onRef('links.account_id', '=', 'link_tags.account_id'))
      .select((eb) => eb.fn.count<number | string>('link_tags.link_id').as('n'))
      .where('link_tags.account_id', '=', accountId)
      .where('link_tags.tag_key', '=', key)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Gives every link of the account that carries the tag `fromKey` the tag `to` instead, in one statement. */
  async retag(accountId: string, fromKey: string, to: { tag: string; key: string }): Promise<void> {
    await this.db.updateTable('link_tags').set({ tag: to.tag, tag_key: to.key }).where('account_id', '=', accountId).where('tag_key', '=', fromKey).execute();
  }

  /** Takes the tag with this key off every link of the account; answers how many links carried it. */
  async deleteKey(accountId: string, key: string): Promise<number> {
    const result = await this.db.deleteFrom('link_tags').where('account_id', '=', accountId).where('tag_key', '=', key).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * The account's tags, one row per spelling, with the number of its links carrying it: one grouped query over the
   * (account, key) index. Only links that exist are counted.
   */
  counts(accountId: string): Promise<TagCountRow[]> {
    return this.db
      .selectFrom('link_tags')
      .innerJoin('links', (join) => join.onRef('links.id', '=', 'link_tags.link_id').onRef('links.account_id', '=', 'link_tags.account_id'))
      .select(['link_tags.tag', 'link_tags.tag_key'])
      .select((eb) => eb.fn.count<number | string>('link_tags.link_id').as('link_count'))
      .where('link_tags.account_id', '=', accountId)
      .groupBy(['link_tags.tag_key', 'link_tags.tag'])
      .execute();
  }
}
