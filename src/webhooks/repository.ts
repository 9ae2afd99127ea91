import { type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import { withAccountLock } from '../db/account-lock.js';
import type { Dialect } from '../db/database.js';
import type { Database, WebhookDeliveriesTable, WebhooksTable } from '../db/schema.js';

export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type NewDelivery = Insertable<WebhookDeliveriesTable>;
export type WebhookPatch = Updateable<Pick<WebhooksTable, 'url' | 'name' | 'events' | 'enabled'>>;

/** What an attempt changed: the delivery's new state and, when an answer or error came, the webhook's last status. */
export interface AttemptOutcome {
  status: WebhookDeliveriesTable['status'];
  attempts: number;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  at: string;
}

export class WebhooksRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * `work` under the account's lock (see withAccountLock): the plan's webhook limit and the duplicate rule (one
   * webhook per URL and events) are checked and the change made with no other change of the account's in between.
   */
  exclusive<T>(accountId: string, work: (repo: WebhooksRepository) => Promise<T>): Promise<T> {
    return withAccountLock(this.db, this.dialect, accountId, (trx) => work(new WebhooksRepository(trx, this.dialect)));
  }

  async insert(row: WebhookRow): Promise<void> {
    await this.db.insertInto('webhooks').values(row).execute();
  }

  list(accountId: string): Promise<WebhookRow[]> {
    return this.db.selectFrom('webhooks').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
  }

  find(accountId: string, id: string): Promise<WebhookRow | undefined> {
    return this.db.selectFrom('webhooks').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  }

  async count(accountId: string): Promise<number> {
    const row = await this.db.selectFrom('webhooks').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async hasDuplicate(accountId: string, url: string, events: string, exceptId: string | null): Promise<boolean> {
    const row = await this.db
      .selectFrom('webhooks')
      .select('id')
      .where('account_id', '=', accountId)
      .where('url', '=', url)
      .where('events', '=', events)
      .$if(exceptId !== null, (q) => q.where('id', '!=', exceptId!))
      .executeTakeFirst();
    return row !== undefined;
  }

  update(id: string, patch: WebhookPatch): Promise<WebhookRow | undefined> {
    return this.db.updateTable('webhooks').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** The webhook and its outbox go together: nothing is sent for a webhook that no longer exists. */
  async delete(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
      const result = await trx.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  /** Account and events of every enabled webhook for any of `events`. */
  subscribersOf(events: readonly string[]): Promise<Pick<WebhookRow, 'account_id' | 'events'>[]> {
    return this.db
      .selectFrom('webhooks')
      .select(['account_id', 'events'])
      .where('enabled', '=', 1)
      .where((w) => w.or(events.map((e) => w('events', 'like', `%${e}%`))))
      .execute();
  }

  /**
   * Moves up to `limit` committed events from the outbox into deliveries, one per event and webhook subscribed
   * now, in one transaction: the events are deleted as they are fanned out, so an event is relayed once or, if
   * the transaction does not commit (the instance died), stays for the next relay. On PostgreSQL the rows are
   * taken with SKIP LOCKED, so instances relaying together split the events; on SQLite the DELETE takes the
   * write lock first. Answers how many events were taken and how many deliveries they made.
   */
  relayEvents(limit: number, now: string, deliveryId: () => string): Promise<{ events: number; deliveries: number }> {
    return this.db.transaction().execute(async (trx) => {
      const events = await trx
        .deleteFrom('outbox_events')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('outbox_events')
            .select('id')
            .orderBy('created_at')
            .orderBy('id')
            .limit(limit)
            .$if(this.dialect === 'postgres', (q) => q.forUpdate().skipLocked()),
        )
        .returningAll()
        .execute();
      if (events.length === 0) return { events: 0, deliveries: 0 };
      events.sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1));
      const hooks = await trx
        .selectFrom('webhooks')
        .select(['id', 'account_id', 'events'])
        .where('account_id', 'in', [...new Set(events.map((e) => e.account_id))])
        .where('enabled', '=', 1)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const byAccount = new Map<string, { id: string; events: Set<string> }[]>();
      for (const h of hooks) {
        const list = byAccount.get(h.account_id) ?? [];
        list.push({ id: h.id, events: new Set(h.events.split(',')) });
        byAccount.set(h.account_id, list);
      }
      const rows: NewDelivery[] = [];
      for (const e of events) {
        for (const hook of byAccount.get(e.account_id) ?? []) {
          if (!hook.events.has(e.event)) continue;
          rows.push({ id: deliveryId(), webhook_id: hook.id, account_id: e.account_id, event: e.event, body: e.body, status: 'pending', next_attempt_at: now, created_at: e.created_at });
        }
      }
      for (let i = 0; i < rows.length; i += 200) await trx.insertInto('webhook_deliveries').values(rows.slice(i, i + 200)).execute();
      return { events: events.length, deliveries: rows.length };
    });
  }

  /** Whether committed events wait for the relay: a cheap read, so an idle relay opens no write transaction. */
  async eventsWaiting(): Promise<boolean> {
    return (await this.db.selectFrom('outbox_events').select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  /**
   * Takes up to `limit` due deliveries for this instance by setting their lease. On PostgreSQL the candidate
   * rows are locked with SKIP LOCKED, so instances polling together split the work instead of colliding; on
   * SQLite the single UPDATE already runs alone.
   */
  async claimDue(now: string, leaseUntil: string, limit: number): Promise<(DeliveryRow & { url: string; secret: string; enabled: number })[]> {
    const claimed = await this.db
      .updateTable('webhook_deliveries')
      .set({ locked_until: leaseUntil })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('status', '=', 'pending')
          .where('next_attempt_at', '<=', now)
          .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<=', now)]))
          .orderBy('next_attempt_at')
          .limit(limit)
          .$if(this.dialect === 'postgres', (q) => q.forUpdate().skipLocked()),
      )
      .returningAll()
      .execute();
    if (claimed.length === 0) return [];
    const hooks = await this.db
      .selectFrom('webhooks')
      .select(['id', 'url', 'secret', 'enabled'])
      .where('id', 'in', [...new Set(claimed.map((d) => d.webhook_id))])
      .execute();
    const byId = new Map(hooks.map((h) => [h.id, h]));
    // A delivery relayed as its webhook was being deleted has nobody to go to: drop it rather than lease it forever.
    const orphans = claimed.filter((d) => !byId.has(d.webhook_id)).map((d) => d.id);
    if (orphans.length > 0) await this.db.deleteFrom('webhook_deliveries').where('id', 'in', orphans).execute();
    return claimed.flatMap((d) => {
      const hook = byId.get(d.webhook_id);
      return hook ? [{ ...d, url: hook.url, secret: hook.secret, enabled: Number(hook.enabled) }] : [];
    });
  }

  /** When the next pending delivery falls due, so the dispatcher can sleep until then. */
  async nextDue(): Promise<string | null> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.min('next_attempt_at').as('at'))
      .where('status', '=', 'pending')
      // Rows another instance is sending are its business until their lease lapses.
      .where((w) => w.or([w('locked_until', 'is', null), w('locked_until', '<=', new Date().toISOString())]))
      .executeTakeFirst();
    return (row?.at as string | null | undefined) ?? null;
  }

  /** An attempt's result, and the webhook's last delivery time and status, in one transaction. */
  async recordAttempt(delivery: Pick<DeliveryRow, 'id' | 'webhook_id'>, outcome: AttemptOutcome, sent: boolean): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('webhook_deliveries')
        .set({
          status: outcome.status,
          attempts: outcome.attempts,
          next_attempt_at: outcome.nextAttemptAt,
          locked_until: null,
          last_status: outcome.lastStatus,
          last_error: outcome.lastError,
          finished_at: outcome.status === 'pending' ? null : outcome.at,
        })
        .where('id', '=', delivery.id)
        .execute();
      if (sent) await this.noteDelivery(delivery.webhook_id, outcome.at, outcome.lastStatus, trx);
    });
  }

  async noteDelivery(webhookId: string, at: string, status: number | null, db: Kysely<Database> = this.db): Promise<void> {
    await db.updateTable('webhooks').set({ last_delivery_at: at, last_status: status }).where('id', '=', webhookId).execute();
  }

  deliveries(webhookId: string, limit: number, offset: number): Promise<DeliveryRow[]> {
    return this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }
}
