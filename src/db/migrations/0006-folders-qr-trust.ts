import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const foldersQrTrust: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('folders')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('color', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('folders_account').on('folders').columns(['account_id', 'created_at']).execute();
    await db.schema.alterTable('links').addColumn('folder_id', 'text').execute();
    await db.schema.createIndex('links_account_folder').on('links').columns(['account_id', 'folder_id']).execute();

    // Per-account defaults for QR images requested without parameters.
    await db.schema
      .createTable('qr_settings')
      .addColumn('account_id', 'text', (c) => c.primaryKey())
      .addColumn('color', 'text', (c) => c.notNull())
      .addColumn('bg_color', 'text', (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('error_correction', 'text', (c) => c.notNull())
      .addColumn('margin', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    // The trust score of a link's destination, for the destination it was computed for (`url`): a link whose
    // destination differs from its scan's is owed a new scan, and meanwhile shows none.
    await db.schema
      .createTable('link_scans')
      .addColumn('link_id', 'text', (c) => c.primaryKey())
      .addColumn('score', 'integer')
      .addColumn('status', 'text')
      .addColumn('threats', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('source', 'text')
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('scanned_at', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // The scanner's periodic look for links changed lately (by the CLI or another instance) reads this.
    await db.schema.createIndex('links_updated_at').on('links').column('updated_at').execute();
  },
};
