import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { AttemptOutcome, DeliveryRow, WebhooksRepository } from './repository.js';
import type { WebhookSender } from './sender.js';
import { PollingLoop } from '../runtime/polling-loop.js';

export const signBody = (secret: string, body: string): string => createHmac('sha256', secret).update(body, 'utf8').digest('hex');

/** The headers of a delivery: the signature of spec 6.3 and what an idempotent receiver keys on. */
export const deliveryHeaders = (secret: string, body: string, event: string, deliveryId: string, attempt: number): Record<string, string> => ({
  'x-snip-signature': signBody(secret, body),
  'x-snip-event': event,
  'x-snip-delivery': deliveryId,
  'x-snip-attempt': String(attempt),
});

const BATCH = 20;
/**
 * Longer than a delivery can take (10 s), so a lease only lapses when its instance died mid-attempt; short enough that
 * another instance sends what a dead one held within half a minute.
 */
const LEASE_MS = 20_000;
const IDLE_POLL_MS = 1_000;

/**
 * Works through the outbox: claims due deliveries (a lease, so instances sharing a database never send one
 * attempt twice), sends them, and records the result with the next retry time or the final state. Everything it
 * needs is in the database, so pending deliveries and scheduled retries carry on after a restart.
 */
export class WebhookDispatcher {
  private readonly loop: PollingLoop;

  constructor(
    private readonly repo: WebhooksRepository,
    private readonly sender: WebhookSender,
    private readonly clock: Clock,
    private readonly retryDelaysMs: readonly number[],
    private readonly log: FastifyBaseLogger,
  ) {
    this.loop = new PollingLoop(() => this.round(), log, 'the webhook delivery round', IDLE_POLL_MS);
  }

  start(): void {
    this.loop.start();
  }

  /** New deliveries were queued: look now rather than at the next poll. */
  nudge(): void {
    this.loop.nudge();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Sends what is due; answers how long until the next round (at once while a full batch came back). */
  private async round(): Promise<number> {
    const now = this.clock.now();
    const due = await this.repo.claimDue(now.toISOString(), new Date(now.getTime() + LEASE_MS).toISOString(), BATCH);
    await Promise.all(due.map((d) => this.attempt(d)));
    if (due.length === BATCH) return 0;
    const next = await this.repo.nextDue();
    return next === null ? IDLE_POLL_MS : Math.min(IDLE_POLL_MS, Math.max(10, Date.parse(next) - this.clock.now().getTime()));
  }

  private async attempt(delivery: DeliveryRow & { url: string; secret: string; enabled: number }): Promise<void> {
    const sent = delivery.enabled === 1;
    const outcome = sent ? await this.send(delivery) : this.dropped(delivery);
    try {
      await this.repo.recordAttempt(delivery, outcome, sent);
    } catch (error) {
      // The lease runs out and another round sends it again: at least once, as receivers are told to expect.
      this.log.error({ err: error, webhookId: delivery.webhook_id, deliveryId: delivery.id }, 'could not record a webhook attempt');
      return;
    }
    // Logged once the outcome is recorded, so an attempt that will be made again is not reported twice.
    this.report(delivery, outcome, sent);
  }

  /**
   * One line per attempt that did not deliver: the last one (abandoned) as a warning, a retry at debug. Never the
   * URL (it may hold a token), the secret or the body.
   */
  private report(delivery: DeliveryRow, outcome: AttemptOutcome, sent: boolean): void {
    if (outcome.status === 'delivered') return;
    const fields = {
      webhookId: delivery.webhook_id,
      deliveryId: delivery.id,
      accountId: delivery.account_id,
      event: delivery.event,
      attempts: outcome.attempts,
      lastStatus: outcome.lastStatus,
      lastError: outcome.lastError,
    };
    if (outcome.status === 'pending') this.log.debug({ ...fields, nextAttemptAt: outcome.nextAttemptAt }, 'webhook delivery failed; will retry');
    else if (sent) this.log.warn(fields, 'webhook delivery abandoned');
    // The account disabled the webhook: its own doing, shown in its delivery log, not an operator's concern.
    else this.log.debug(fields, 'webhook delivery dropped: the webhook is disabled');
  }

  private async send(delivery: DeliveryRow & { url: string; secret: string }): Promise<AttemptOutcome> {
    const attempt = delivery.attempts + 1;
    const result = await this.sender.send(delivery.url, delivery.body, deliveryHeaders(delivery.secret, delivery.body, delivery.event, delivery.id, attempt));
    const at = this.clock.now();
    const retryIn = this.retryDelaysMs[attempt - 1];
    return {
      status: result.ok ? 'delivered' : retryIn === undefined ? 'abandoned' : 'pending',
      attempts: attempt,
      nextAttemptAt: !result.ok && retryIn !== undefined ? new Date(at.getTime() + retryIn).toISOString() : null,
      lastStatus: result.statusCode,
      lastError: result.error,
      at: at.toISOString(),
    };
  }

  /** A disabled webhook's due delivery is given up unsent; its log keeps what the real attempts got. */
  private dropped(delivery: DeliveryRow): AttemptOutcome {
    const at = this.clock.now().toISOString();
    return { status: 'abandoned', attempts: delivery.attempts, nextAttemptAt: null, lastStatus: delivery.last_status, lastError: 'the webhook is disabled', at };
  }
}
