import type { Kysely, Selectable } from 'kysely';
import type { Database, UtmTemplatesTable } from '../db/schema.js';

export type UtmTemplateRow = Selectable<UtmTemplatesTable>;

export class UtmTemplatesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Oldest first. */
  list(accountId: string): Promise<UtmTemplateRow[]> {
    return this.db.selectFrom('utm_templates').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
  }

  find(accountId: string, id: string): Promise<UtmTemplateRow | undefined> {
    return this.db.selectFrom('utm_templates').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  }

  /** Throws the database's unique violation when the account already has a template with this `name_key`. */
  async insert(row: UtmTemplateRow): Promise<void> {
    await this.db.insertInto('utm_templates').values(row).execute();
  }

  /** The deleted row, or undefined when the account has no such template. */
  delete(accountId: string, id: string): Promise<UtmTemplateRow | undefined> {
    return this.db.deleteFrom('utm_templates').where('id', '=', id).where('account_id', '=', accountId).returningAll().executeTakeFirst();
  }
}
