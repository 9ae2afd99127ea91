import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import { RecurringFailure } from '../runtime/recurring-failure.js';
import type { WebhooksRepository } from './repository.js';

const BATCH = 500;
/** How often the outbox is looked at when nobody woke the relay: events of the CLI, or of an instance that died. */
const IDLE_POLL_MS = 1_000;

/**
 * Turns committed outbox events into webhook deliveries (src/webhooks/repository.ts `relayEvents`): woken as soon
 * as this instance commits events, and every IDLE_POLL_MS for the rest. Each event is fanned out to the webhooks
 * subscribed when it is relayed and deleted in the same transaction, so any number of instances relay it once.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private again = false;
  private readonly failures: RecurringFailure;

  constructor(
    private readonly repo: WebhooksRepository,
    private readonly clock: Clock,
    /** Told when deliveries were made, so they go out at once. */
    private readonly delivered: { nudge(): void },
    log: FastifyBaseLogger,
  ) {
    this.failures = new RecurringFailure(log, 'relaying webhook events');
  }

  start(): void {
    this.stopped = false;
    this.nudge();
  }

  /** Events were committed: relay now. */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /** Waits for a relay in progress; what is left stays in the outbox for the next start (or another instance). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Relays everything committed so far (tests and the CLI's callers use it); answers how many events it took. */
  async relayNow(): Promise<number> {
    let total = 0;
    if (!(await this.repo.eventsWaiting())) return 0;
    for (;;) {
      const { events, deliveries } = await this.repo.relayEvents(BATCH, this.clock.now().toISOString(), () => newId('dlv'));
      total += events;
      if (deliveries > 0) this.delivered.nudge();
      if (events < BATCH) return total;
    }
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.round().finally(() => (this.running = null));
    }, ms);
    this.timer.unref();
  }

  private async round(): Promise<void> {
    this.again = false;
    try {
      await this.relayNow();
      this.failures.succeeded();
    } catch (error) {
      this.failures.failed(error);
    }
    this.schedule(this.again ? 0 : IDLE_POLL_MS);
  }
}
