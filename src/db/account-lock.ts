import type { Kysely, Transaction } from 'kysely';
import type { Dialect } from './database.js';
import type { Database } from './schema.js';

/**
 * Runs `work` in one transaction that holds the account's row lock on PostgreSQL, so two requests checking a
 * per-account limit or uniqueness rule (folders, domains, webhooks) cannot both pass; on SQLite Kysely's one
 * connection already runs it alone. Every count-then-insert of a per-account limit goes through here (or through a
 * unique index, or a narrower row lock such as the link's for its tags).
 */
export function withAccountLock<T>(db: Kysely<Database>, dialect: Dialect, accountId: string, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute();
    return work(trx);
  });
}
