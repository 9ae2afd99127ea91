import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Issue 20: OAuth 2.1 for the MCP endpoint. The authorization server (oidc-provider, src/oauth/provider.ts) keeps
 * each of its records (clients, grants, codes, tokens, interactions) as one JSON payload; the columns beside it are
 * what Snip looks records up by. Secret ids (codes, tokens, sessions) are stored only as their SHA-256.
 */
export const oauth: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('oauth_records')
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('grant_id', 'text')
      .addColumn('uid', 'text')
      .addColumn('account_id', 'text')
      .addColumn('client_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text')
      .addColumn('consumed_at', 'text')
      .addPrimaryKeyConstraint('oauth_records_pk', ['model', 'id'])
      .execute();
    await db.schema.createIndex('oauth_records_grant').on('oauth_records').column('grant_id').execute();
    await db.schema.createIndex('oauth_records_uid').on('oauth_records').columns(['model', 'uid']).execute();
    await db.schema.createIndex('oauth_records_account').on('oauth_records').columns(['account_id', 'model']).execute();
    await db.schema.createIndex('oauth_records_expiry').on('oauth_records').column('expires_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('oauth_records').execute();
  },
};
