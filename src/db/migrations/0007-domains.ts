import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const domains: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('domains')
      .addColumn('hostname', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('verification_token', 'text', (c) => c.notNull())
      .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
      // null, or {"type":"redirect","redirectUrl":...} / {"type":"html","html":...} (already sanitised)
      .addColumn('not_found_page', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('verified_at', 'text')
      .addColumn('activated_at', 'text')
      .execute();
    await db.schema.createIndex('domains_account').on('domains').column('account_id').execute();
    // The custom domain a link's short URL uses; null for the default host.
    await db.schema.alterTable('links').addColumn('domain', 'text').execute();
    await db.schema.createIndex('links_domain').on('links').column('domain').execute();
  },
};
