import type { FastifyBaseLogger } from 'fastify';
import type { LinksRepository } from '../links/repository.js';

/** How long clicks gather before one transaction commits them all. */
export const CLICK_FLUSH_MS = 20;

/**
 * Group commit for click counts, off the response path: the clicks of a short window are summed per link and
 * committed in one transaction, so a busy link costs one UPDATE per window instead of one per visit. Readers
 * of click counts call `settle()` first, so a client that was redirected and then asks for the count sees its
 * click; shutdown drains the queue.
 */
export class ClickCounter {
  private pending = new Map<string, number>();
  private scheduled = false;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly repo: LinksRepository,
    private readonly log: FastifyBaseLogger,
  ) {}

  record(linkId: string): void {
    this.pending.set(linkId, (this.pending.get(linkId) ?? 0) + 1);
    if (!this.scheduled) {
      this.scheduled = true;
      setTimeout(() => {
        this.flushing = this.flushing.then(() => this.flush());
      }, CLICK_FLUSH_MS).unref();
    }
  }

  /** Resolves once every click recorded so far is committed. */
  async settle(): Promise<void> {
    await this.flushing;
    if (this.pending.size > 0) {
      this.flushing = this.flushing.then(() => this.flush());
      await this.flushing;
    }
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = new Map();
    if (batch.size === 0) return;
    try {
      await this.repo.addClicks(batch);
    } catch (error) {
      this.log.error({ err: error, links: batch.size }, 'could not record clicks');
    }
  }
}
