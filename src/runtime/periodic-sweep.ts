/** Where a sweep reports: RecurringFailure logs the first failure in a row and the recovery, not each retry. */
export interface SweepFailures {
  succeeded(): void;
  failed(error: unknown): void;
}

/** Housekeeping on a timer (expired rows, mostly) that never keeps the process alive on its own. */
export class PeriodicSweep {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly sweep: () => Promise<unknown>,
    private readonly everyMs: number,
  ) {}

  start(failures: SweepFailures): void {
    const run = () =>
      this.sweep().then(
        () => failures.succeeded(),
        (error: unknown) => failures.failed(error),
      );
    this.timer = setInterval(run, this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
