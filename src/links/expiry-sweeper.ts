import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { EventBus } from '../events/bus.js';
import { toLink } from './link.js';
import type { LinksRepository } from './repository.js';

export const EXPIRY_SWEEP_MS = 15_000;

/**
 * Notices links whose expiry time has passed and emits `link.expired` once per link. Marking a link and
 * reading it back is one conditional UPDATE, so with several instances each expiry is still announced once.
 */
export class ExpirySweeper {
  private timer: NodeJS.Timeout | null = null;
  /** Whether the last periodic sweep failed: logged when sweeps start failing and when they recover, not every tick. */
  private failing = false;

  constructor(
    private readonly repo: LinksRepository,
    private readonly bus: EventBus,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

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
      if (this.failing) this.log.info('expiry sweeps work again');
      this.failing = false;
    } catch (error) {
      if (this.failing) this.log.debug({ err: error }, 'expiry sweep failed again');
      else this.log.error({ err: error }, 'expiry sweep failed; retrying every sweep');
      this.failing = true;
    }
  }

  /** One pass; returns how many links it announced. */
  async sweep(): Promise<number> {
    const rows = await this.repo.markExpired(this.clock.now().toISOString());
    for (const row of rows) this.bus.emit('link.expired', { link: toLink(row) });
    return rows.length;
  }
}
