import { limitsOf, type Plans } from '../plans.js';
import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';
import { errors, requireChange } from '../errors.js';
import { newId } from '../ids.js';
import { checkWebhookUrl } from './address-guard.js';
import { deliveryHeaders } from './dispatcher.js';
import { checkEvents } from './events.js';
import { checkName, checkSecret } from './rules.js';
import { toDelivery, toWebhook, type CreateWebhookInput, type Delivery, type TestResult, type UpdateWebhookInput, type Webhook } from './webhook.js';
import { deliveryBody } from './payloads.js';
import type { WebhookRow, WebhooksRepository } from './repository.js';
import type { WebhookSender } from './sender.js';

const notFound = () => errors.webhookNotFound();

/** What the service needs of the outbox writer: fresh subscribers after a change made here. */
export interface SubscriberCache {
  refresh(): Promise<void>;
}

/**
 * Webhooks: the rules of subscribing (events, URLs, duplicates, the plan's limit), the test delivery and the
 * delivery log. Events reach webhooks through the outbox (outbox.ts writes them in each change's transaction,
 * relay.ts fans them out into deliveries, dispatcher.ts sends them).
 */
export class WebhookService {
  constructor(
    private readonly repo: WebhooksRepository,
    private readonly plans: Plans,
    private readonly clock: Clock,
    private readonly sender: WebhookSender,
    private readonly subscribers: SubscriberCache,
    private readonly allowPrivate: boolean,
  ) {}

  async list(caller: Caller): Promise<{ webhooks: Webhook[]; limit: number | null }> {
    return { webhooks: (await this.repo.list(caller.accountId)).map(toWebhook), limit: limitsOf(this.plans, caller).webhooks };
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
    const limit = limitsOf(this.plans, caller).webhooks;
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
    // The count, the duplicate check and the insert run under the account's lock, so concurrent creates (REST or
    // the calls of one MCP batch) cannot all pass the checks before any of them inserts.
    await this.repo.exclusive(caller.accountId, async (repo) => {
      // A plan lowered below the webhooks an account has keeps them, but allows no new one.
      if (limit !== null && (await repo.count(caller.accountId)) >= limit) throw errors.webhookLimitReached(limit);
      if (await repo.hasDuplicate(caller.accountId, url, row.events, null)) throw duplicate();
      await repo.insert(row);
    });
    await this.subscribers.refresh();
    return { ...toWebhook(row), secret };
  }

  async update(caller: Caller, id: string, input: UpdateWebhookInput): Promise<Webhook> {
    requireChange(input);
    // Read, checked and changed under the account's lock: two webhooks changed at once to the same URL and events
    // cannot both pass the duplicate check.
    const row = await this.repo.exclusive(caller.accountId, async (repo) => {
      const current = await repo.find(caller.accountId, id);
      if (!current) throw notFound();
      const url = input.url === undefined ? current.url : checkWebhookUrl(input.url, this.allowPrivate);
      const events = input.events === undefined ? current.events : checkEvents(input.events).join(',');
      // A name that was the default (the host) follows a new URL; a chosen one stays.
      const defaultName = current.name === new URL(current.url).hostname;
      const name = input.name !== undefined ? checkName(input.name, url) : defaultName ? new URL(url).hostname : current.name;
      if (input.enabled !== undefined && typeof input.enabled !== 'boolean') throw errors.invalidEnabled();
      const enabled = input.enabled === undefined ? Number(current.enabled) : input.enabled ? 1 : 0;
      if ((url !== current.url || events !== current.events) && (await repo.hasDuplicate(caller.accountId, url, events, id))) throw duplicate();
      return repo.update(id, { url, events, name, enabled });
    });
    if (!row) throw notFound();
    await this.subscribers.refresh();
    return toWebhook(row);
  }

  async delete(caller: Caller, id: string): Promise<void> {
    await this.owned(caller, id);
    if (!(await this.repo.delete(id))) throw notFound();
    await this.subscribers.refresh();
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

  private async owned(caller: Caller, id: string): Promise<WebhookRow> {
    const row = await this.repo.find(caller.accountId, id);
    if (!row) throw notFound();
    return row;
  }
}

const duplicate = () => errors.duplicateWebhook();

