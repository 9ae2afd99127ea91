import type { Kysely, Selectable } from 'kysely';
import type { AccountsTable, Database, SessionsTable } from '../db/schema.js';

export type SessionRow = Selectable<SessionsTable>;

export class SessionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: SessionRow): Promise<void> {
    await this.db.insertInto('sessions').values(row).execute();
  }

  /** The account behind a session that has not expired, with the session's id. */
  findLive(id: string, now: string): Promise<(Selectable<AccountsTable> & { session_id: string }) | undefined> {
    return this.db
      .selectFrom('sessions')
      .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
      .selectAll('accounts')
      .select('sessions.id as session_id')
      .where('sessions.id', '=', id)
      .where('sessions.expires_at', '>', now)
      .executeTakeFirst();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', id).execute();
  }

  /** Drops the account's expired sessions, so a browser that never signs out leaves no row behind for long. */
  async deleteExpired(accountId: string, now: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('account_id', '=', accountId).where('expires_at', '<=', now).execute();
  }

  /**
   * Sets the password and ends every session of the account in one transaction, then opens `next` (the browser
   * that changed it stays signed in): nobody signed in with the old password outlives the change.
   */
  async replacePassword(accountId: string, passwordHash: string, next: SessionRow | null): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await trx.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', accountId).execute();
      const ended = await trx.deleteFrom('sessions').where('account_id', '=', accountId).executeTakeFirst();
      if (next) await trx.insertInto('sessions').values(next).execute();
      return Number(ended.numDeletedRows);
    });
  }
}
