import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Issue 18: where a link was made (agent links), app targets and their deferred deep-link sessions (web2app),
 * and affiliate programs with their partnerships and conversions.
 */
export const affiliateAgentsWeb2app: Migration = {
  async up(db: Kysely<unknown>) {
    // Links made before this migration were all made over REST or the CLI; `api` is the honest default.
    await db.schema.alterTable('links').addColumn('source', 'text', (c) => c.notNull().defaultTo('api')).execute();
    await db.schema.alterTable('links').addColumn('client_name', 'text').execute();
    await db.schema.alterTable('links').addColumn('app_links', 'text').execute();
    await db.schema.alterTable('links').addColumn('partnership_id', 'text').execute();
    await db.schema.createIndex('links_account_source').on('links').columns(['account_id', 'source']).execute();
    // The MCP client a key last introduced itself as (initialize's clientInfo.name): the endpoint is stateless.
    await db.schema.alterTable('api_keys').addColumn('mcp_client_name', 'text').execute();

    await db.schema
      .createTable('agent_clicks')
      .addColumn('link_id', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('agent', 'text', (c) => c.notNull())
      .addColumn('clicks', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('agent_clicks_pk', ['link_id', 'day', 'agent'])
      .execute();
    await db.schema.createIndex('agent_clicks_account').on('agent_clicks').column('account_id').execute();

    await db.schema
      .createTable('web2app_sessions')
      .addColumn('id_hash', 'text', (c) => c.primaryKey())
      .addColumn('link_id', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('short_code', 'text', (c) => c.notNull())
      .addColumn('platform', 'text', (c) => c.notNull())
      .addColumn('deep_link', 'text', (c) => c.notNull())
      .addColumn('params', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('claimed_at', 'text')
      .execute();
    await db.schema.createIndex('web2app_sessions_account').on('web2app_sessions').column('account_id').execute();
    await db.schema.createIndex('web2app_sessions_expires').on('web2app_sessions').column('expires_at').execute();

    await db.schema
      .createTable('affiliate_programs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('commission_type', 'text', (c) => c.notNull())
      .addColumn('commission_cents', 'integer', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('public', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('affiliate_programs_account').on('affiliate_programs').column('account_id').execute();

    // `account_id` is the partner's; `program_account_id` the program owner's.
    await db.schema
      .createTable('affiliate_partnerships')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('program_id', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('program_account_id', 'text', (c) => c.notNull())
      .addColumn('link_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('affiliate_partnerships_program_partner').on('affiliate_partnerships').columns(['program_id', 'account_id']).unique().execute();
    await db.schema.createIndex('affiliate_partnerships_account').on('affiliate_partnerships').column('account_id').execute();

    // One row per converted click id: the primary key is what makes a click convert at most once.
    await db.schema
      .createTable('affiliate_conversions')
      .addColumn('click_id', 'text', (c) => c.primaryKey())
      .addColumn('program_id', 'text', (c) => c.notNull())
      .addColumn('partnership_id', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('amount_cents', 'integer')
      .addColumn('commission_cents', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('affiliate_conversions_program').on('affiliate_conversions').column('program_id').execute();
    await db.schema.createIndex('affiliate_conversions_partnership').on('affiliate_conversions').column('partnership_id').execute();
  },
};
