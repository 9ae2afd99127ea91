import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const usageCounters: Migration = {
  async up(db: Kysely<unknown>) {
    // Counters that must survive a restart (monthly request quotas); `key` names account, window and period.
    await db.schema
      .createTable('usage_counters')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('usage_counters_expires').on('usage_counters').column('expires_at').execute();
  },
};
