import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { DomainEvents, EventName } from './bus.js';

/**
 * The events webhooks subscribe to: these go through the outbox (src/webhooks/outbox.ts writes them, and checks that
 * this set is its own). Named, not imported, so that the kernel knows no feature.
 */
export type OutboxEventName = Extract<EventName, 'link.click' | 'link.created' | 'link.updated' | 'link.deleted' | 'link.expired' | 'link.limit_reached' | 'link.geo_blocked'>;

export type OutboxItem = { [E in OutboxEventName]: { event: E; payload: DomainEvents[E] } }[OutboxEventName];

/**
 * Where a change writes its events. `append` takes the change's own transaction, so the change and its events
 * commit or vanish together; a relay turns committed events into webhook deliveries.
 */
export interface EventOutbox {
  /** Writes the events through `db`: pass the change's transaction. */
  append(db: Kysely<Database>, items: readonly OutboxItem[]): Promise<void>;
  /**
   * Whether `event` of this account can be wanted by a webhook. Only the redirect's events (clicks, caps, geo
   * blocks) are filtered on it, so a visit to a link of an account without such a webhook writes nothing.
   */
  wants(event: OutboxEventName, accountId: string): boolean;
  /** A transaction that appended has committed: the relay looks now rather than at its next poll. */
  committed(): void;
}

/** Runs `change` in one transaction (the events it appends commit with it), then wakes the relay. */
export async function withEvents<T>(db: Kysely<Database>, outbox: EventOutbox, change: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  const result = await db.transaction().execute(change);
  outbox.committed();
  return result;
}
