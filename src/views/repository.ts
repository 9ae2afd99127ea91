import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, SavedViewsTable } from '../db/schema.js';

export type SavedViewRow = Selectable<SavedViewsTable>;
export type SavedViewPatch = Updateable<Pick<SavedViewsTable, 'name' | 'name_key' | 'filters' | 'updated_at'>>;

export class SavedViewsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Oldest first. */
  list(accountId: string): Promise<SavedViewRow[]> {
    return this.db.selectFrom('saved_views').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
  }

  find(accountId: string, id: string): Promise<SavedViewRow | undefined> {
    return this.db.selectFrom('saved_views').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  }

  /** Throws the database's unique violation when the account already has a view with this `name_key`. */
  async insert(row: SavedViewRow): Promise<void> {
    await this.db.insertInto('saved_views').values(row).execute();
  }

  /** The changed row, or undefined when the account has no such view; a taken `name_key` throws the unique violation. */
  update(accountId: string, id: string, patch: SavedViewPatch): Promise<SavedViewRow | undefined> {
    return this.db.updateTable('saved_views').set(patch).where('id', '=', id).where('account_id', '=', accountId).returningAll().executeTakeFirst();
  }

  /** The deleted row, or undefined when the account has no such view. */
  delete(accountId: string, id: string): Promise<SavedViewRow | undefined> {
    return this.db.deleteFrom('saved_views').where('id', '=', id).where('account_id', '=', accountId).returningAll().executeTakeFirst();
  }
}
