import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Issue 30: what happens between the click and the destination. Rules, variants and the social preview are JSON
 * (read whole by the redirect cache, never queried into); the password only as its scrypt hash. Clicks remember the
 * destination they reached, so an A/B test can be read per destination.
 */
export const linkRouting: Migration = {
  async up(db: Kysely<unknown>) {
    for (const column of ['rules', 'variants', 'password_hash', 'expired_url', 'social_preview']) {
      await db.schema.alterTable('links').addColumn(column, 'text').execute();
    }
  },
  async down(db: Kysely<unknown>) {
    for (const column of ['rules', 'variants', 'password_hash', 'expired_url', 'social_preview']) {
      await db.schema.alterTable('links').dropColumn(column).execute();
    }
  },
};
