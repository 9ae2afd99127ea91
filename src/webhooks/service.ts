import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Plans } from '../accounts/plans.js';
import type { Caller } from '../accounts/service.js';
import type { Clock } from '../clock.js';
import { AppError, requireChange } from '../errors.js';
import type { DomainEvents, EventBus, LinkSummary } from '../events/bus.js';
import { newId } from '../ids.js';
import { toLink } from '../links/link.js';
import type { LinksRepository } from '../links/repository.js';
import { checkWebhookUrl } from './address-guard.js';
import { deliveryHeaders, type WebhookDispatcher } from './dispatcher.js';
import { checkEvents, type WebhookEvent } from './events.js';
import { clickData, deliveryBody, eventData, type ShortUrlOf } from './payloads.js';
import type { DeliveryRow, NewDelivery, WebhookRow, WebhooksRepository } from './repository.js';
import type { WebhookSender } from './sender.js';
import { RecurringFailure } from '../runtime/recurring-failure.js';

export interface Webhook {
  id: string;
  url: string;
  name: string;
  events: WebhookEvent[];
  enabled: boolean;
  createdAt: string;
  lastDeliveryAt: string | null;
  lastStatus: number | null;
}

export interface CreateWebhookInput {
  url: unknown;
  events: unknown;
  name?: unknown;
  secret?: unknown;
}

export interface UpdateWebhookInput {
  url?: unknown;
  events?: unknown;
  name?: unknown;
  enabled?: unknown;
}

export interface Delivery {
  id: string;
  event: string;
  status: DeliveryRow['status'];
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: string;
  nextAttemptAt: string | null;
  finishedAt: string | null;
}

export interface TestResult {
  success: boolean;
  statusCode: number;
  durationMs: number;
  error: string | null;
}

const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  name: row.name,
  events: row.events.split(',') as WebhookEvent[],
  enabled: Number(row.enabled) === 1,
  createdAt: row.created_at,
  lastDeliveryAt: row.last_delivery_at,
  lastStatus: row.last_status === null ? null : Number(row.last_status),
});

const toDelivery = (row: DeliveryRow): Delivery => ({
  id: row.id,
  event: row.event,
  status: row.status,
  attempts: Number(row.attempts),
  lastStatus: row.last_status === null ? null : Number(row.last_status),
  lastError: row.last_error,
  createdAt: row.created_at,
  nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
  finishedAt: row.finished_at,
});

const notFound = () => new AppError(404, 'WEBHOOK_NOT_FOUND', 'Webhook not found');

function checkName(value: unknown, url: string): string {
  if (value === undefined || value === null) return new URL(url).hostname;
  if (typeof value !== 'string' || value.trim().length === 0 || value.length > 100) {
    throw new AppError(400, 'INVALID_NAME', 'name must be 1-100 characters');
  }
  return value.trim();
}

function checkSecret(value: unknown): string {
  if (value === undefined || value === null) return `whsec_${randomBytes(24).toString('hex')}`;
  if (typeof value !== 'string' || value.length === 0 || value.length > 256) {
    throw new AppError(400, 'INVALID_SECRET', 'secret must be 1-256 characters');
  }
  return value;
}

type Queued = { [E in WebhookEvent]: { event: E; payload: DomainEvents[E]; accountId: string; at: string } }[WebhookEvent];

const CLICK_SUBSCRIBERS_REFRESH_MS = 2_000;

const accountOf = (event: Queued): string => event.accountId;

/**
 * Webhooks: the rules of subscribing (events, URLs, duplicates, the plan's limit), and the bridge from domain
 * events to the outbox. Events of one event-loop turn are matched against subscribers with one query and
 * written to the outbox with one insert; the dispatcher delivers from there.
 */
export class WebhookService {
  private queued: Queued[] = [];
  private draining: Promise<void> = Promise.resolve();
  private scheduled = false;
  /**
   * Accounts with a webhook for link.click: clicks of other accounts are dropped at once, so a busy redirect
   * costs nothing here. Reloaded every CLICK_SUBSCRIBERS_REFRESH_MS (changes made through another instance) and
   * right after every change made through this one.
   */
  private clickAccounts = new Set<string>();
  private refreshTimer: NodeJS.Timeout | null = null;
  private readonly refreshFailures: RecurringFailure;

  constructor(
    private readonly repo: WebhooksRepository,
    private readonly links: LinksRepository,
    private readonly plans: Plans,
    private readonly clock: Clock,
    private readonly sender: WebhookSender,
    private readonly dispatcher: WebhookDispatcher,
    private readonly shortUrl: ShortUrlOf,
    private readonly allowPrivate: boolean,
    private readonly log: FastifyBaseLogger,
  ) {
    this.refreshFailures = new RecurringFailure(log, 'reloading the click subscribers');
  }

  /** Subscribes to every webhook event on the bus. */
  async listen(bus: EventBus): Promise<void> {
    await this.refreshClickAccounts();
    this.refreshTimer = setInterval(() => void this.refreshAgain(), CLICK_SUBSCRIBERS_REFRESH_MS);
    this.refreshTimer.unref();
    const at = () => this.clock.now().toISOString();
    bus.on('link.click', (payload) => {
      if (this.clickAccounts.has(payload.accountId)) this.queue({ event: 'link.click', payload, accountId: payload.accountId, at: payload.at });
    });
    for (const event of ['link.created', 'link.updated', 'link.deleted', 'link.expired'] as const) {
      bus.on(event, (payload) => this.queue({ event, payload, accountId: payload.link.accountId, at: at() } as Queued));
    }
    bus.on('link.limit_reached', (payload) => this.queue({ event: 'link.limit_reached', payload, accountId: payload.link.accountId, at: at() }));
    bus.on('link.geo_blocked', (payload) => this.queue({ event: 'link.geo_blocked', payload, accountId: payload.link.accountId, at: at() }));
  }

  async list(caller: Caller): Promise<{ webhooks: Webhook[]; limit: number | null }> {
    return { webhooks: (await this.repo.list(caller.accountId)).map(toWebhook), limit: this.plans[caller.tier].webhooks };
  }

  async get(caller: Caller, id: string): Promise<Webhook> {
    return toWebhook(await this.owned(caller, id));
  }

  /** The secret is returned here once; later reads never show it. */
  async create(caller: Caller, input: CreateWebhookInput): Promise<Webhook & { secret: string }> {
    const url = checkWebhookUrl(input.url, this.allowPrivate);
    const events = checkEvents(input.events);
    const name = checkName(input.name, url);
    const secret = checkSecret(input.secret);
    const limit = this.plans[caller.tier].webhooks;
    if (limit !== null && (await this.repo.count(caller.accountId)) >= limit) {
      throw new AppError(403, 'WEBHOOK_LIMIT_REACHED', `Your plan allows ${limit} webhook${limit === 1 ? '' : 's'}; upgrade for more`);
    }
    if (await this.repo.hasDuplicate(caller.accountId, url, events.join(','), null)) throw duplicate();
    const row: WebhookRow = {
      id: newId('whk'),
      account_id: caller.accountId,
      url,
      name,
      events: events.join(','),
      secret,
      enabled: 1,
      created_at: this.clock.now().toISOString(),
      last_delivery_at: null,
      last_status: null,
    };
    await this.repo.insert(row);
    await this.refreshClickAccounts();
    return { ...toWebhook(row), secret };
  }

  async update(caller: Caller, id: string, input: UpdateWebhookInput): Promise<Webhook> {
    requireChange(input);
    const current = await this.owned(caller, id);
    const url = input.url === undefined ? current.url : checkWebhookUrl(input.url, this.allowPrivate);
    const events = input.events === undefined ? current.events : checkEvents(input.events).join(',');
    // A name that was the default (the host) follows a new URL; a chosen one stays.
    const defaultName = current.name === new URL(current.url).hostname;
    const name = input.name !== undefined ? checkName(input.name, url) : defaultName ? new URL(url).hostname : current.name;
    if (input.enabled !== undefined && typeof input.enabled !== 'boolean') throw new AppError(400, 'INVALID_ENABLED', 'enabled must be true or false');
    const enabled = input.enabled === undefined ? Number(current.enabled) : input.enabled ? 1 : 0;
    if ((url !== current.url || events !== current.events) && (await this.repo.hasDuplicate(caller.accountId, url, events, id))) throw duplicate();
    const row = await this.repo.update(id, { url, events, name, enabled });
    if (!row) throw notFound();
    await this.refreshClickAccounts();
    return toWebhook(row);
  }

  async delete(caller: Caller, id: string): Promise<void> {
    await this.owned(caller, id);
    if (!(await this.repo.delete(id))) throw notFound();
    await this.refreshClickAccounts();
  }

  /** Sends a signed `webhook.test` delivery now (not through the outbox) and reports how it went. */
  async test(caller: Caller, id: string): Promise<TestResult> {
    const hook = await this.owned(caller, id);
    const at = this.clock.now().toISOString();
    const deliveryId = newId('dlv');
    const body = deliveryBody('webhook.test', at, { webhookId: hook.id, message: 'A test delivery from Snip' });
    const result = await this.sender.send(hook.url, body, deliveryHeaders(hook.secret, body, 'webhook.test', deliveryId, 1));
    await this.repo.noteDelivery(hook.id, this.clock.now().toISOString(), result.statusCode);
    return { success: result.ok, statusCode: result.statusCode ?? 0, durationMs: result.durationMs, error: result.error };
  }

  async deliveries(caller: Caller, id: string, page: { limit: number; offset: number }): Promise<{ deliveries: Delivery[]; limit: number; offset: number }> {
    await this.owned(caller, id);
    return { deliveries: (await this.repo.deliveries(id, page.limit, page.offset)).map(toDelivery), ...page };
  }

  /** Resolves once every event seen so far is in the outbox. */
  async close(): Promise<void> {
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    await this.settle();
  }

  async settle(): Promise<void> {
    await this.draining;
    if (this.queued.length > 0) await this.drain();
  }

  private async owned(caller: Caller, id: string): Promise<WebhookRow> {
    const row = await this.repo.find(caller.accountId, id);
    if (!row) throw notFound();
    return row;
  }

  private async refreshAgain(): Promise<void> {
    try {
      await this.refreshClickAccounts();
      this.refreshFailures.succeeded();
    } catch (err) {
      this.refreshFailures.failed(err);
    }
  }

  private async refreshClickAccounts(): Promise<void> {
    this.clickAccounts = new Set(await this.repo.accountsSubscribedTo('link.click'));
  }

  private queue(event: Queued): void {
    this.queued.push(event);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => void this.drain());
  }

  private drain(): Promise<void> {
    this.scheduled = false;
    this.draining = this.draining.then(async () => {
      const events = this.queued;
      this.queued = [];
      if (events.length === 0) return;
      try {
        const rows = await this.deliveriesFor(events);
        if (rows.length === 0) return;
        await this.repo.enqueue(rows);
        this.dispatcher.nudge();
      } catch (error) {
        this.log.error({ err: error, events: events.length }, 'could not queue webhook deliveries');
      }
    });
    return this.draining;
  }

  private async deliveriesFor(events: Queued[]): Promise<NewDelivery[]> {
    const subscribers = await this.repo.subscribers([...new Set(events.map(accountOf))]);
    if (subscribers.length === 0) return [];
    const byAccount = new Map<string, { id: string; events: Set<string> }[]>();
    for (const s of subscribers) {
      const list = byAccount.get(s.account_id) ?? [];
      list.push({ id: s.id, events: new Set(s.events.split(',')) });
      byAccount.set(s.account_id, list);
    }
    const wanted = events.filter((e) => byAccount.get(e.accountId)?.some((s) => s.events.has(e.event)));
    const clickLinks = await this.linksOf(wanted.flatMap((e) => (e.event === 'link.click' ? [e.payload.linkId] : [])));
    const now = this.clock.now().toISOString();
    const rows: NewDelivery[] = [];
    for (const e of wanted) {
      let data: Record<string, unknown>;
      if (e.event === 'link.click') {
        const link = clickLinks.get(e.payload.linkId);
        if (!link) continue; // deleted since the click
        data = clickData(e.payload, link, this.shortUrl);
      } else {
        data = eventData(e.event, e.payload as never, this.shortUrl);
      }
      const body = deliveryBody(e.event, e.at, data);
      for (const s of byAccount.get(e.accountId)!) {
        if (!s.events.has(e.event)) continue;
        rows.push({ id: newId('dlv'), webhook_id: s.id, account_id: e.accountId, event: e.event, body, status: 'pending', next_attempt_at: now, created_at: now });
      }
    }
    return rows;
  }

  private async linksOf(ids: string[]): Promise<Map<string, LinkSummary>> {
    const found = new Map<string, LinkSummary>();
    for (const id of new Set(ids)) {
      const row = await this.links.findById(id);
      if (row) found.set(id, toLink(row));
    }
    return found;
  }
}

const duplicate = () => new AppError(400, 'DUPLICATE_WEBHOOK', 'A webhook with this URL and these events already exists');

