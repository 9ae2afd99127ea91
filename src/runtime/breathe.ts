/**
 * Lets the event loop answer what is waiting (a redirect, above all) while long work goes on. SQLite answers
 * synchronously, so awaiting its queries only queues microtasks: a loop of them (an export's pages, a bulk create's
 * rows) would hold the loop from its first step to its last, however many awaits it has.
 *
 * Long work calls `breathe()` between bounded steps. It goes on at once while the current slice is young; past the
 * budget it joins a queue, and each turn of the loop (after the loop has polled for I/O) resumes the first in line
 * for one slice. So however many exports, bulk creates and imports run at once, a redirect waits for about one slice,
 * each piece of work gets its turn in order, and pieces never interleave: one runs alone until it breathes again.
 *
 * Never inside a transaction: on SQLite the write lock would be held across the wait, and another connection of the
 * same process (a second app on one file) would block the thread on it until its busy timeout.
 */
const BUDGET_MS = 2;

let sliceStartedAt = 0;
const waiting: (() => void)[] = [];
let pumping = false;

function pump(): void {
  setImmediate(() => {
    const next = waiting.shift();
    if (next) {
      sliceStartedAt = performance.now();
      next();
    }
    if (waiting.length > 0) pump();
    else pumping = false;
  });
}

export function breathe(): Promise<void> | undefined {
  if (performance.now() - sliceStartedAt < BUDGET_MS) return undefined;
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!pumping) {
      pumping = true;
      pump();
    }
  });
}
