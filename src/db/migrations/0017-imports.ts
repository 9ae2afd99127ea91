import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Issue 31: links imported from other shorteners. `legacy_path` is `<host>/<path>` (host empty for BASE_URL's) of a
 * short path that does not fit Snip's code rules, kept so the old short URL answers as before; unique, so two links
 * never claim one URL. `imported_from` is the old short URL, `imported_clicks` the source's click total not recorded
 * as Snip clicks (shown apart from them), `title` the name the source gave the link.
 */
export const imports: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('links').addColumn('legacy_path', 'text').execute();
    await db.schema.alterTable('links').addColumn('imported_from', 'text').execute();
    await db.schema.alterTable('links').addColumn('imported_clicks', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('links').addColumn('title', 'text').execute();
    await db.schema.createIndex('links_legacy_path').unique().on('links').column('legacy_path').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('links_legacy_path').execute();
    for (const column of ['legacy_path', 'imported_from', 'imported_clicks', 'title']) {
      await db.schema.alterTable('links').dropColumn(column).execute();
    }
  },
};
