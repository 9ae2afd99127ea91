import type { Kysely, Selectable } from 'kysely';
import type { Database, Web2appSessionsTable } from '../db/schema.js';

export type Web2appSessionRow = Selectable<Web2appSessionsTable>;

export class Web2appRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Web2appSessionRow): Promise<void> {
    await this.db.insertInto('web2app_sessions').values(row).execute();
  }

  find(idHash: string): Promise<Web2appSessionRow | undefined> {
    return this.db.selectFrom('web2app_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
  }

  /** Marks an unclaimed, unexpired session claimed and answers it; one statement, so two claims cannot both win. */
  claim(idHash: string, now: string): Promise<Web2appSessionRow | undefined> {
    return this.db
      .updateTable('web2app_sessions')
      .set({ claimed_at: now })
      .where('id_hash', '=', idHash)
      .where('claimed_at', 'is', null)
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
  }

  /** Sessions expired before `before` are of no more use to anyone. */
  async deleteExpired(before: string): Promise<number> {
    const result = await this.db.deleteFrom('web2app_sessions').where('expires_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
