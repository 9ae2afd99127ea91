import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Issue 26: the clicks a CPC program pays for. The primary key is the rule: one paid click per visitor address
 * (a day-salted hash, src/clicks/visitor-hash.ts) per program per UTC day, whichever partner link it came through.
 * `account_id` is the program owner's and `link_id` the partner link's, so deleting either account removes them.
 */
export const affiliatePaidClicks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('affiliate_paid_clicks')
      .addColumn('program_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('partnership_id', 'text', (c) => c.notNull())
      .addColumn('link_id', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('affiliate_paid_clicks_pk', ['program_id', 'day', 'address'])
      .execute();
    await db.schema.createIndex('affiliate_paid_clicks_partnership').on('affiliate_paid_clicks').column('partnership_id').execute();
    await db.schema.createIndex('affiliate_paid_clicks_link').on('affiliate_paid_clicks').column('link_id').execute();
    await db.schema.createIndex('affiliate_paid_clicks_account').on('affiliate_paid_clicks').column('account_id').execute();
    // Every click batch asks which of its links are partner links.
    await db.schema.createIndex('affiliate_partnerships_link').on('affiliate_partnerships').column('link_id').execute();
  },
};
