/**
 * One loop turn's journal write, and what waits for it: the redirects it holds answer once it is done. Awaitable like
 * a promise (the Fastify route awaits it); the fast path hands `after` a function and its two arguments instead,
 * since a closure and a promise reaction per redirect cost the recorded redirect about a microsecond
 * (docs/benchmarks.md, seventh round).
 */
export class JournalWrite implements PromiseLike<void> {
  /** `fn, a, b` triples, flat. */
  private readonly waiting: unknown[] = [];
  private promise: Promise<void> | null = null;
  private resolve: (() => void) | null = null;
  private finished = false;

  constructor(private readonly onError: (error: unknown) => void) {}

  /** Runs `fn(a, b)` once the write is done (in order with every other waiter). */
  after<A, B>(fn: (a: A, b: B) => void, a: A, b: B): void {
    this.waiting.push(fn, a, b);
  }

  then<T1 = void, T2 = never>(onDone?: ((value: void) => T1 | PromiseLike<T1>) | null, onFailed?: ((reason: unknown) => T2 | PromiseLike<T2>) | null): PromiseLike<T1 | T2> {
    this.promise ??= this.finished ? Promise.resolve() : new Promise<void>((resolve) => (this.resolve = resolve));
    return this.promise.then(onDone, onFailed);
  }

  /** The write is done (or failed, and was logged): everything waiting goes on. */
  done(): void {
    this.finished = true;
    const waiting = this.waiting;
    for (let i = 0; i < waiting.length; i += 3) {
      try {
        (waiting[i] as (a: unknown, b: unknown) => void)(waiting[i + 1], waiting[i + 2]);
      } catch (error) {
        // One answer that cannot be written (its socket gone) must not hold the others.
        this.onError(error);
      }
    }
    this.resolve?.();
  }
}
