import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const outboxEvents: Migration = {
  async up(db: Kysely<unknown>) {
    // A change's webhook events, committed with the change. The body is fixed when the event happens; the relay
    // fans each row out into webhook_deliveries and deletes it in one transaction, so the table stays small.
    await db.schema
      .createTable('outbox_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('outbox_events_created').on('outbox_events').columns(['created_at', 'id']).execute();
  },
};
