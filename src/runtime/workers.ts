import cluster, { type Worker } from 'node:cluster';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';

/** A worker that dies sooner than this after it started is crashing at start: the next one waits a little. */
const QUICK_DEATH_MS = 5_000;

/**
 * `WORKERS` above 1: this process is the primary. It migrates the database once (so workers never race to), then
 * runs that many server processes on the one port (node:cluster hands each connection to a worker in turn), restarts
 * any that dies, and on SIGTERM or SIGINT passes the signal on and exits once all have drained. Each worker is a
 * whole Snip, as separate instances are: its own click journal (adopted by the next start if it dies), its share of
 * background work (every job is safe on many instances), the database and Redis in common.
 */
export async function runPrimary(config: Config, log: FastifyBaseLogger): Promise<void> {
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, startTimeoutMs: config.databaseStartTimeoutMs, onWaiting: (message) => log.warn(message) });
  await database.db.destroy();

  let stopping = false;
  const startedAt = new Map<number, number>();
  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
  };
  cluster.on('exit', (worker: Worker, code: number | null, signal: string | null) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        log.info('stopped');
        process.exit(0);
      }
      return;
    }
    log.error({ worker: worker.process.pid, code, signal }, 'a worker stopped; starting another');
    setTimeout(fork, lived < QUICK_DEATH_MS ? 1_000 : 0).unref();
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'draining every worker');
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(0);
    for (const worker of workers) worker?.process.kill(signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  for (let i = 0; i < config.workers; i++) fork();
  log.info({ workers: config.workers, port: config.port }, `Snip primary: ${config.workers} server processes on port ${config.port}`);
}
