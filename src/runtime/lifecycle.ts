/** A piece of background work the server runs: scans, sweeps, the outbox relay, webhook deliveries. */
export interface Worker {
  name: string;
  start(): void | Promise<void>;
  /** Waits for the work in progress; what is left is picked up from the database by the next start. */
  stop(): void | Promise<void>;
}

/** Starts the workers in order and stops the started ones in reverse order, once, with one call each. */
export class Lifecycle {
  private started: Worker[] = [];

  constructor(private readonly workers: readonly Worker[]) {}

  async start(): Promise<void> {
    for (const worker of this.workers) {
      await worker.start();
      this.started.push(worker);
    }
  }

  async stop(): Promise<void> {
    const started = this.started.reverse();
    this.started = [];
    for (const worker of started) await worker.stop();
  }
}
