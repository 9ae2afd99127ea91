import cluster, { type Worker } from 'node:cluster';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';

/** A worker that dies sooner than this after it started is crashing at start: the next one waits a little. */
const QUICK_DEATH_MS = 5_000;
/** How many deaths at start (quick, or before serving) in a row make the primary give up (exit 1) rather than restart forever. */
const MAX_QUICK_DEATHS = 5;

/**
 * `WORKERS` above 1: this process is the primary. It migrates the database once (so workers never race to), then
 * runs that many server processes on the one port (node:cluster hands each connection to a worker in turn), restarts
 * any that dies (giving up with exit 1 when they keep dying at start), and on SIGTERM or SIGINT passes the signal on and
 * exits once all have drained: 0, or 1 if a worker's shutdown failed. Each worker is a
 * whole Snip, as separate instances are: its own click journal (adopted by the next start if it dies), its share of
 * background work (every job is safe on many instances), the database and Redis in common.
 */
export async function runPrimary(config: Config, log: FastifyBaseLogger): Promise<void> {
  let stopping = false;
  /** False while the primary opens and migrates the database, before any worker is forked. */
  let forking = false;
  let failedShutdown = false;
  let quickDeathsInARow = 0;
  const restarts = new Set<NodeJS.Timeout>();
  const startedAt = new Map<number, number>();
  /** Workers that have begun serving (their server is listening). */
  const listening = new Set<number>();
  cluster.on('listening', (worker: Worker) => listening.add(worker.id));
  const fork = () => {
    if (stopping) return;
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
  };
  const running = () => Object.keys(cluster.workers ?? {}).length;
  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    // Dying before it served anything is dying at start, however long the start took (a loaded machine may take
    // longer than QUICK_DEATH_MS to load the app before the port turns out to be taken).
    const diedStarting = !listening.has(worker.id) || lived < QUICK_DEATH_MS;
    startedAt.delete(worker.id);
    listening.delete(worker.id);
    if (stopping) {
      // Ended by the stop signal itself: a worker still starting, before its handlers were in place (the signal reaches
      // the whole process group, a worker just restarted included). It served nothing, so its end is no failure.
      const endedBySignal = code === null && (signal === 'SIGTERM' || signal === 'SIGINT');
      if (code !== 0 && !endedBySignal) failedShutdown = true;
      if (running() === 0) {
        log.info('stopped');
        process.exit(failedShutdown ? 1 : 0);
      }
      return;
    }
    quickDeathsInARow = diedStarting ? quickDeathsInARow + 1 : 0;
    // Workers that die at start again and again (a bad setting, a database that refuses) will not start by retrying:
    // exit non-zero, so the process manager sees a failure rather than a primary serving nothing.
    if (quickDeathsInARow >= MAX_QUICK_DEATHS) {
      log.fatal({ worker: worker.process.pid, code, signal }, `workers stopped before serving or within ${QUICK_DEATH_MS / 1000} s of starting ${MAX_QUICK_DEATHS} times in a row; giving up`);
      stopping = true;
      failedShutdown = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
      if (running() === 0) process.exit(1);
      return;
    }
    log.error({ worker: worker.process.pid, code, signal }, 'a worker stopped; starting another');
    // Not unref'd: with every worker gone, this timer is what keeps the primary alive until the next one starts.
    const timer = setTimeout(() => {
      restarts.delete(timer);
      fork();
    }, diedStarting ? 1_000 : 0);
    restarts.add(timer);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const timer of restarts) clearTimeout(timer);
    restarts.clear();
    // Still opening or migrating the database, no worker forked: nothing to drain, and a migration cut short is rolled
    // back (each run is one transaction), so stop at once rather than make a stop wait out DATABASE_START_TIMEOUT.
    if (!forking) {
      log.info({ signal }, 'stopped while starting');
      process.exit(0);
    }
    log.info({ signal }, 'draining every worker');
    if (running() === 0) process.exit(0);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, startTimeoutMs: config.databaseStartTimeoutMs, onWaiting: (message) => log.warn(message) });
  await database.db.destroy();
  forking = true;
  for (let i = 0; i < config.workers; i++) fork();
  log.info({ workers: config.workers, port: config.port }, `Snip primary: ${config.workers} server processes on port ${config.port}`);
}
