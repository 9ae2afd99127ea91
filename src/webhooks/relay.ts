import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { newId } from '../ids.js';
import { PollingLoop } from '../runtime/polling-loop.js';
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
  private readonly loop: PollingLoop;

  constructor(
    private readonly repo: WebhooksRepository,
    private readonly clock: Clock,
    /** Told when deliveries were made, so they go out at once. */
    private readonly delivered: { nudge(): void },
    log: FastifyBaseLogger,
  ) {
    this.loop = new PollingLoop(async () => (await this.relayNow(), IDLE_POLL_MS), log, 'relaying webhook events', IDLE_POLL_MS);
  }

  start(): void {
    this.loop.start();
  }

  /** Events were committed: relay now. */
  nudge(): void {
    this.loop.nudge();
  }

  /** Waits for a relay in progress; what is left stays in the outbox for the next start (or another instance). */
  stop(): Promise<void> {
    return this.loop.stop();
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
}
