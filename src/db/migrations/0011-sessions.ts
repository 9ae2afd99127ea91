import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The dashboard's sign-in (issue 17): an account may have a password (scrypt, src/sessions/passwords.ts), and a
 * signed-in browser holds a session whose token only its hash identifies here.
 */
export const sessions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('accounts').addColumn('password_hash', 'text').execute();
    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_account').on('sessions').column('account_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('sessions').execute();
    await db.schema.alterTable('accounts').dropColumn('password_hash').execute();
  },
};
