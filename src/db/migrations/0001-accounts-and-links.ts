import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const accountsAndLinks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('accounts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('tier', 'text', (c) => c.notNull())
      .addColumn('namespace', 'text', (c) => c.unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('prefix', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('api_keys_account').on('api_keys').column('account_id').execute();

    // Every prefix an account has ever claimed stays reserved to it, so old links keep their paths.
    await db.schema
      .createTable('namespaces')
      .addColumn('prefix', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('links')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
      .addColumn('code', 'text', (c) => c.notNull().unique())
      .addColumn('namespace', 'text')
      .addColumn('slug', 'text')
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('clicks', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('max_clicks', 'integer')
      .addColumn('expires_at', 'text')
      .addColumn('active_from', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('links_namespace_slug', ['namespace', 'slug'])
      .execute();
    await db.schema.createIndex('links_account_created').on('links').columns(['account_id', 'created_at']).execute();
  },
};
