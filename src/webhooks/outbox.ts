import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database, OutboxEventsTable } from '../db/schema.js';
import type { LinkSummary } from '../links/events.js';
import type { EventOutbox, OutboxEventName, OutboxItem } from '../events/outbox.js';
import { newId } from '../ids.js';
import { toLink } from '../links/link.js';
import { RecurringFailure } from '../runtime/recurring-failure.js';
import type { WebhookEvent } from './events.js';
import { clickData, deliveryBody, eventData, type ShortUrlOf } from './payloads.js';
import type { WebhooksRepository } from './repository.js';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// The outbox's events are exactly the webhook events.
void (true satisfies Same<OutboxEventName, WebhookEvent>);

/** Events the redirect announces: written only for accounts with a webhook for them. */
const REDIRECT_EVENTS = ['link.click', 'link.limit_reached', 'link.geo_blocked'] as const satisfies readonly OutboxEventName[];
type RedirectEvent = (typeof REDIRECT_EVENTS)[number];
const isRedirectEvent = (event: OutboxEventName): event is RedirectEvent => (REDIRECT_EVENTS as readonly string[]).includes(event);

const SUBSCRIBERS_REFRESH_MS = 2_000;
const CHUNK = 200;

/**
 * Writes webhook events into `outbox_events` in the caller's transaction, each with its delivery body fixed
 * (the same bytes every delivery and retry sends). Lifecycle events (created, updated, deleted, expired) are
 * always written and matched to webhooks by the relay; the redirect's events only for accounts that have a
 * webhook for them, known from a set reloaded right after every webhook change made through this one, at once when
 * another instance announces one through Redis (src/runtime/cache-sync.ts), and every SUBSCRIBERS_REFRESH_MS besides.
 */
export class WebhookOutbox implements EventOutbox {
  private subscribers = new Map<RedirectEvent, Set<string>>();
  private refreshTimer: NodeJS.Timeout | null = null;
  private readonly refreshFailures: RecurringFailure;
  private onCommit: () => void = () => {};

  constructor(
    private readonly repo: WebhooksRepository,
    private readonly clock: Clock,
    private readonly shortUrl: ShortUrlOf,
    log: FastifyBaseLogger,
  ) {
    this.refreshFailures = new RecurringFailure(log, 'reloading the webhook subscribers');
  }

  /** Loads the subscribers, then keeps them fresh. */
  async start(): Promise<void> {
    await this.refresh();
    this.refreshTimer = setInterval(() => void this.refreshAgain(), SUBSCRIBERS_REFRESH_MS);
    this.refreshTimer.unref();
  }

  stop(): void {
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    this.refreshTimer = null;
  }

  /** Who is woken when events commit (the relay). */
  whenCommitted(wake: () => void): void {
    this.onCommit = wake;
  }

  committed(): void {
    this.onCommit();
  }

  wants(event: OutboxEventName, accountId: string): boolean {
    return !isRedirectEvent(event) || (this.subscribers.get(event)?.has(accountId) ?? false);
  }

  async refresh(): Promise<void> {
    const next = new Map<RedirectEvent, Set<string>>(REDIRECT_EVENTS.map((e) => [e, new Set<string>()]));
    for (const { account_id, events } of await this.repo.subscribersOf(REDIRECT_EVENTS)) {
      for (const event of events.split(',')) if (isRedirectEvent(event as OutboxEventName)) next.get(event as RedirectEvent)!.add(account_id);
    }
    this.subscribers = next;
  }

  async append(db: Kysely<Database>, items: readonly OutboxItem[]): Promise<void> {
    if (items.length === 0) return;
    const clickLinks = await linksOf(
      db,
      items.flatMap((i) => (i.event === 'link.click' ? [i.payload.linkId] : [])),
    );
    const now = this.clock.now().toISOString();
    const rows: OutboxEventsTable[] = [];
    for (const item of items) {
      let accountId: string;
      let at = now;
      let data: Record<string, unknown>;
      if (item.event === 'link.click') {
        const link = clickLinks.get(item.payload.linkId);
        if (!link) continue; // deleted since the click
        accountId = item.payload.accountId;
        at = item.payload.at;
        data = clickData(item.payload, link, this.shortUrl);
      } else {
        accountId = item.payload.link.accountId;
        data = eventData(item.event, item.payload as never, this.shortUrl);
      }
      rows.push({ id: newId('evt'), account_id: accountId, event: item.event, body: deliveryBody(item.event, at, data), created_at: now });
    }
    for (let i = 0; i < rows.length; i += CHUNK) await db.insertInto('outbox_events').values(rows.slice(i, i + CHUNK)).execute();
  }

  private async refreshAgain(): Promise<void> {
    try {
      await this.refresh();
      this.refreshFailures.succeeded();
    } catch (err) {
      this.refreshFailures.failed(err);
    }
  }
}

/** What a click's body needs of its link, read in the click batch's own transaction (one query per chunk). */
async function linksOf(db: Kysely<Database>, ids: string[]): Promise<Map<string, LinkSummary>> {
  const found = new Map<string, LinkSummary>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const rows = await db.selectFrom('links').selectAll().where('id', 'in', unique.slice(i, i + CHUNK)).execute();
    for (const row of rows) found.set(row.id, toLink(row));
  }
  return found;
}
