/**
 * Lets the event loop answer what is waiting (a redirect, above all) while long work goes on. SQLite answers
 * synchronously, so awaiting its queries only queues microtasks: a loop of them (an export's pages, a bulk create's
 * rows) would hold the loop from its first step to its last, however many awaits it has.
 *
 * Long work calls `breathe()` between bounded steps. All such work shares one budget per turn of the event loop:
 * while the turn is young it goes on at once; past the budget it waits for the next turn (one shared setImmediate),
 * after the loop has polled for I/O. So however many exports, bulk creates and imports run at once, a redirect
 * waits for about one budget of their work, not for one step of each.
 */
const BUDGET_MS = 4;

let turnStartedAt = 0;
let nextTurn: Promise<void> | null = null;

function waitForNextTurn(): Promise<void> {
  nextTurn ??= new Promise((resolve) =>
    setImmediate(() => {
      nextTurn = null;
      turnStartedAt = performance.now();
      resolve();
    }),
  );
  return nextTurn;
}

export function breathe(): Promise<void> | undefined {
  if (performance.now() - turnStartedAt < BUDGET_MS) return undefined;
  return waitForNextTurn();
}
