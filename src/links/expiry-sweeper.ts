import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { EventBus } from '../events/bus.js';
import { toLink } from './link.js';
import type { LinksRepository } from './repository.js';
import { RecurringFailure } from '../runtime/recurring-failure.js';

export const EXPIRY_SWEEP_MS = 15_000;

/**
 * Notices links whose expiry time has passed and announces `link.expired` once per link. Marking a link and
 * reading it back is one conditional UPDATE, committed with the links' outbox events (LinksRepository.markExpired),
 * so with several instances each expiry is still announced once, and never lost between the mark and the event.
 * The bus hears of it after the commit, for in-process listeners.
 */
export class ExpirySweeper {
  private timer: NodeJS.Timeout | null = null;
  private readonly failures: RecurringFailure;

  constructor(
    private readonly repo: LinksRepository,
    private readonly bus: EventBus,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {
    this.failures = new RecurringFailure(log, 'the expiry sweep');
  }

  start(): void {
    this.timer = setInterval(() => void this.sweepAgain(), EXPIRY_SWEEP_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private async sweepAgain(): Promise<void> {
    try {
      await this.sweep();
      this.failures.succeeded();
    } catch (error) {
      this.failures.failed(error);
    }
  }

  /** One pass; returns how many links it announced. */
  async sweep(): Promise<number> {
    const rows = await this.repo.markExpired(this.clock.now().toISOString());
    for (const row of rows) this.bus.emit('link.expired', { link: toLink(row) });
    return rows.length;
  }
}
