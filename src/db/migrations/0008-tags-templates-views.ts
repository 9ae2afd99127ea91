import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const tagsTemplatesViews: Migration = {
  async up(db: Kysely<unknown>) {
    // A tag as the user wrote it; `tag_key` (lower case) keeps "Sale" and "sale" one tag per link.
    await db.schema
      .createTable('link_tags')
      .addColumn('link_id', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('tag', 'text', (c) => c.notNull())
      .addColumn('tag_key', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('link_tags_pk', ['link_id', 'tag_key'])
      .execute();
    await db.schema.createIndex('link_tags_account_tag').on('link_tags').columns(['account_id', 'tag_key']).execute();

    await db.schema
      .createTable('utm_templates')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('utm_source', 'text')
      .addColumn('utm_medium', 'text')
      .addColumn('utm_campaign', 'text')
      .addColumn('utm_term', 'text')
      .addColumn('utm_content', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('utm_templates_account_name').on('utm_templates').columns(['account_id', 'name_key']).unique().execute();

    // A named link-list filter; `filters` is JSON ({folderId?, tag?, domain?, search?, ...}).
    await db.schema
      .createTable('saved_views')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('filters', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('saved_views_account_name').on('saved_views').columns(['account_id', 'name_key']).unique().execute();
  },
};
