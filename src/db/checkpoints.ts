import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SqliteDatabase from 'better-sqlite3';
import type { FastifyBaseLogger } from 'fastify';

const EVERY_MS = 1_000;

/**
 * The thread's whole program: its own connection to the file, a PASSIVE checkpoint on a timer (it never waits for
 * or blocks a writer or a reader), and a close when told. Plain CommonJS, so the same text runs from the sources
 * and from the build; the driver's path comes from the main thread, which resolved it from Snip's own folder.
 */
const PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    // Another process's checkpoint (WORKERS share the file) is running: it does this one's work.
    if (error && error.code === 'SQLITE_BUSY') return;
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * SQLite's automatic checkpoint runs inside the commit that crosses 1,000 pages of WAL: on the connection that
 * committed, so on the event loop, where one took 10-14 ms on a loaded machine and held every redirect behind it
 * (docs/benchmarks.md, issue 32). The server hands checkpoints to a thread with a connection of its own and turns
 * the automatic one off on the main connection; when the thread cannot run, the automatic checkpoint comes back,
 * so the WAL never grows without bound.
 */
export function checkpointsOffTheLoop(sqlite: SqliteDatabase.Database, file: string, log: FastifyBaseLogger): { stop(): Promise<void> } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(PROGRAM, { eval: true, workerData: { driver, file, everyMs: EVERY_MS } });
  worker.unref();
  sqlite.pragma('wal_autocheckpoint = 0');
  let stopped = false;
  const fallBack = (why: unknown) => {
    if (stopped || !sqlite.open) return;
    sqlite.pragma('wal_autocheckpoint = 1000');
    log.warn({ err: why }, 'WAL checkpoints are back on the main thread: their thread stopped');
  };
  worker.on('message', (message: { error?: string }) => {
    if (message.error) log.warn({ reason: message.error }, 'a WAL checkpoint failed; the next one retries');
  });
  worker.once('error', fallBack);
  worker.once('exit', (code) => {
    if (!stopped) fallBack(new Error(`the checkpoint thread exited with ${code}`));
  });
  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage('stop');
      await exited;
      // Whatever writes after this (a last click batch) checkpoints as SQLite does by default; closing the main
      // connection then checkpoints the rest.
      if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
    },
  };
}
