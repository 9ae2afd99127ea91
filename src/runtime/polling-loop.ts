import type { FastifyBaseLogger } from 'fastify';
import { RecurringFailure } from './recurring-failure.js';

/**
 * Background work that runs in rounds: one round at a time, the next after the wait the round answers, at once
 * when `nudge` came during a round, and never after `stop` (which waits for the round in progress). A failing
 * round is logged by RecurringFailure and retried after `retryMs`.
 */
export class PollingLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private again = false;
  private readonly failures: RecurringFailure;

  constructor(
    /** One round; answers how long to wait before the next (ms). */
    private readonly round: () => Promise<number>,
    log: FastifyBaseLogger,
    what: string,
    private readonly retryMs: number,
  ) {
    this.failures = new RecurringFailure(log, what);
  }

  start(): void {
    this.stopped = false;
    this.nudge();
  }

  /** Something is waiting: run a round now, or right after the one in progress. */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.run().finally(() => (this.running = null));
    }, ms);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    this.again = false;
    let wait = this.retryMs;
    try {
      wait = await this.round();
      this.failures.succeeded();
    } catch (error) {
      this.failures.failed(error);
    }
    this.schedule(this.again ? 0 : wait);
  }
}
