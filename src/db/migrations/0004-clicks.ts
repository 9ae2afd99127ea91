import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const clicks: Migration = {
  async up(db: Kysely<unknown>) {
    // One row per counted visit. No raw IP: `visitor` is a hash salted per day.
    await db.schema
      .createTable('clicks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('link_id', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('country', 'text')
      .addColumn('region', 'text')
      .addColumn('city', 'text')
      .addColumn('browser', 'text', (c) => c.notNull())
      .addColumn('os', 'text', (c) => c.notNull())
      .addColumn('device', 'text', (c) => c.notNull())
      .addColumn('referrer', 'text')
      .addColumn('visitor', 'text', (c) => c.notNull())
      // The billing cycle a click was captured in over the monthly limit (grace), else null.
      .addColumn('grace_cycle', 'text')
      .execute();
    await db.schema.createIndex('clicks_link_at').on('clicks').columns(['link_id', 'at']).execute();
    await db.schema.createIndex('clicks_account_at').on('clicks').columns(['account_id', 'at']).execute();

    // Per link, day and dimension (total, country, device, browser, os, referrer, hour, unique), so a year of
    // statistics is a few thousand rows to sum, however many clicks it holds.
    await db.schema
      .createTable('click_rollups')
      .addColumn('link_id', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('dimension', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('grace_cycle', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('clicks', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('click_rollups_pk', ['link_id', 'day', 'dimension', 'value', 'grace_cycle'])
      .execute();
    await db.schema.createIndex('click_rollups_account_day').on('click_rollups').columns(['account_id', 'day']).execute();

    // First sight of a visitor on a link in a day: what makes "unique visitors" countable from rollups.
    await db.schema
      .createTable('click_visitors')
      .addColumn('link_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('visitor', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('click_visitors_pk', ['link_id', 'day', 'visitor'])
      .execute();

    await db.schema
      .createTable('account_usage')
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('cycle', 'text', (c) => c.notNull())
      .addColumn('tracked_clicks', 'integer', (c) => c.notNull())
      .addColumn('grace_started_at', 'text')
      .addPrimaryKeyConstraint('account_usage_pk', ['account_id', 'cycle'])
      .execute();

    // How far each instance's click journal has been committed (replayed from there after a crash).
    await db.schema
      .createTable('journal_checkpoints')
      .addColumn('journal_id', 'text', (c) => c.primaryKey())
      .addColumn('segment', 'integer', (c) => c.notNull())
      .addColumn('offset', 'integer', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();

    await db.schema.alterTable('accounts').addColumn('overage_limit_cents', 'integer').execute();
    await db.schema.alterTable('links').addColumn('expiry_notified', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
};
