import type { LinksRepository } from '../links/repository.js';

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for click counts: every redirect in the same turn of the event loop joins one transaction, and
 * each caller's promise settles when that transaction has committed. Many redirects, one commit.
 */
export class ClickCounter {
  private pending = new Map<string, number>();
  private waiters: Waiter[] = [];
  private scheduled = false;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly repo: LinksRepository) {}

  record(linkId: string): Promise<void> {
    this.pending.set(linkId, (this.pending.get(linkId) ?? 0) + 1);
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.flushing = this.flushing.then(() => this.flush());
      });
    }
    return done;
  }

  /** Waits for every recorded click to be committed (used on shutdown). */
  async drain(): Promise<void> {
    await this.flushing;
    if (this.pending.size > 0) await this.flush();
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.pending;
    const waiters = this.waiters;
    this.pending = new Map();
    this.waiters = [];
    if (batch.size === 0) return;
    try {
      await this.repo.addClicks(batch);
      for (const w of waiters) w.resolve();
    } catch (error) {
      for (const w of waiters) w.reject(error);
    }
  }
}
