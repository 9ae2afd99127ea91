import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Issue 29: the operator in the browser. An account has a role (`member`, `operator`; more can be added without a
 * migration) and may be disabled; a link may be disabled by an operator with a reason; keys get a name, a last use
 * and scopes (`admin` lets an operator's key call the admin operations). Invites and password resets are one-time
 * tokens stored only as their SHA-256; the audit log keeps every operator action.
 */
export const operators: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('accounts').addColumn('role', 'text', (c) => c.notNull().defaultTo('member')).execute();
    await db.schema.alterTable('accounts').addColumn('disabled_at', 'text').execute();
    await db.schema.alterTable('accounts').addColumn('disabled_reason', 'text').execute();
    for (const column of ['name', 'last_used_at', 'scopes']) await db.schema.alterTable('api_keys').addColumn(column, 'text').execute();
    for (const column of ['disabled_at', 'disabled_reason']) await db.schema.alterTable('links').addColumn(column, 'text').execute();
    await db.schema
      .createTable('invites')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('tier', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .addColumn('used_by', 'text')
      .execute();
    await db.schema
      .createTable('password_resets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema.createIndex('password_resets_account').on('password_resets').column('account_id').execute();
    await db.schema
      .createTable('audit_log')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('actor_id', 'text')
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target', 'text')
      .addColumn('detail', 'text')
      .execute();
    await db.schema.createIndex('audit_log_at').on('audit_log').columns(['at', 'id']).execute();
    // The first account of a database is its operator's (also for databases that already have accounts).
    await sql`update accounts set role = 'operator' where id = (select id from accounts order by created_at, id limit 1)`.execute(db);
    // ...and holds the claim a new account would otherwise make (src/accounts/repository.ts insertAccount).
    await sql`insert into settings (key, value) select 'operator.first', id from accounts where role = 'operator'`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['audit_log', 'password_resets', 'invites']) await db.schema.dropTable(table).execute();
    for (const column of ['disabled_at', 'disabled_reason']) await db.schema.alterTable('links').dropColumn(column).execute();
    for (const column of ['name', 'last_used_at', 'scopes']) await db.schema.alterTable('api_keys').dropColumn(column).execute();
    for (const column of ['role', 'disabled_at', 'disabled_reason']) await db.schema.alterTable('accounts').dropColumn(column).execute();
  },
};
