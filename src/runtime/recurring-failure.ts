import type { FastifyBaseLogger } from 'fastify';

/**
 * The log of a task that repeats every few seconds (a sweep, a delivery round, a commit retry): one error when it
 * starts failing, debug while it keeps failing, one info line when it works again; never a line per tick.
 */
export class RecurringFailure {
  private failing = false;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly what: string,
  ) {}

  succeeded(fields: Record<string, unknown> = {}): void {
    if (this.failing) this.log.info(fields, `${this.what} works again`);
    this.failing = false;
  }

  failed(err: unknown, fields: Record<string, unknown> = {}): void {
    if (this.failing) this.log.debug({ ...fields, err }, `${this.what} failed again`);
    else this.log.error({ ...fields, err }, `${this.what} failed; retrying`);
    this.failing = true;
  }
}
