import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const linkImportKeys: Migration = {
  async up(db: Kysely<unknown>) {
    // A fingerprint of the import row a link came from, so re-running an import skips what it already made.
    await db.schema.alterTable('links').addColumn('import_key', 'text').execute();
    await db.schema.createIndex('links_account_import_key').on('links').columns(['account_id', 'import_key']).unique().execute();
  },
};
