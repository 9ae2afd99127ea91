import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Security issues 6 and 7 (issue 16).
 *
 * Domains: a pending claim no longer owns a hostname. The table is rebuilt keyed by (hostname, account_id), so
 * several accounts may hold pending claims on one hostname, and a unique index over the hostnames of verified and
 * active rows lets exactly one account prove control (the loser of two verifies at once gets a unique violation).
 *
 * Namespaces: an old prefix stays reserved only while links use it; the hoard of old prefixes without links that
 * the earlier rule kept (every prefix ever claimed, for good) is released here once.
 */
export const domainClaimsNamespaceBounds: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('domains_next')
      .addColumn('hostname', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('verification_token', 'text', (c) => c.notNull())
      .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('not_found_page', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('verified_at', 'text')
      .addColumn('activated_at', 'text')
      .addPrimaryKeyConstraint('domain_claims_pk', ['hostname', 'account_id'])
      .execute();
    await sql`insert into domains_next (hostname, account_id, status, verification_token, is_default, not_found_page, created_at, verified_at, activated_at)
      select hostname, account_id, status, verification_token, is_default, not_found_page, created_at, verified_at, activated_at from domains`.execute(db);
    await db.schema.dropTable('domains').execute();
    await db.schema.alterTable('domains_next').renameTo('domains').execute();
    await db.schema.createIndex('domains_account').on('domains').column('account_id').execute();
    // One verified or active row per hostname: the race between two accounts' verifies has exactly one winner.
    await db.schema
      .createIndex('domains_claimed_hostname')
      .on('domains')
      .column('hostname')
      .unique()
      .where(sql.ref('status'), '<>', 'pending_txt')
      .execute();

    await sql`delete from namespaces
      where not exists (select 1 from accounts where accounts.id = namespaces.account_id and accounts.namespace = namespaces.prefix)
        and not exists (select 1 from links where links.namespace = namespaces.prefix)`.execute(db);
  },
};
