/**
 * Lets the event loop answer what is waiting (a redirect, above all) before long work goes on. SQLite answers
 * synchronously, so awaiting its queries only queues microtasks: a loop of them (an export's pages, a bulk create's
 * rows) would hold the loop from its first step to its last, however many awaits it has. A macrotask hop between
 * bounded steps puts the pending I/O first.
 */
export const breathe = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
