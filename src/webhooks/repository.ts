import { type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
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

  /** Enabled webhooks of these accounts, for matching events to subscribers. */
  subscribers(accountIds: string[]): Promise<Pick<WebhookRow, 'id' | 'account_id' | 'events'>[]> {
    if (accountIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('webhooks').select(['id', 'account_id', 'events']).where('account_id', 'in', accountIds).where('enabled', '=', 1).execute();
  }

  /** Accounts with an enabled webhook for `event`. */
  async accountsSubscribedTo(event: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('webhooks')
      .select('account_id')
      .distinct()
      .where('enabled', '=', 1)
      .where('events', 'like', `%${event}%`)
      .execute();
    return rows.map((r) => r.account_id);
  }

  async enqueue(rows: NewDelivery[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 200) await this.db.insertInto('webhook_deliveries').values(rows.slice(i, i + 200)).execute();
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
