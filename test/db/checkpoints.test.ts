import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';

/**
 * SQLite's automatic checkpoint runs inside a commit, on the event loop; the server moves it to a thread of its own
 * (src/db/checkpoints.ts). What must hold: the main connection stops checkpointing, the WAL still stops growing, and
 * the automatic checkpoint comes back when the thread is stopped.
 */
const autocheckpoint = async (handle: DatabaseHandle) =>
  (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(handle.db)).rows[0]?.wal_autocheckpoint;

/** `megabytes` of rows in one transaction on the main connection. */
async function write(handle: DatabaseHandle, megabytes: number): Promise<void> {
  await handle.db.transaction().execute(async (trx) => {
    for (let i = 0; i < megabytes * 256; i++) await sql`insert into scratch (b) values (randomblob(4096))`.execute(trx);
  });
}

describe('WAL checkpoints in a thread of their own (SQLite)', () => {
  it('keep the WAL from growing while the main connection no longer checkpoints, and hand the checkpoint back on stop', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-checkpoints-'));
    const handle = await openDatabase({ dataDir, databaseUrl: null });
    try {
      expect(await autocheckpoint(handle)).toBe(1000);
      await sql`create table scratch (b blob)`.execute(handle.db);
      const checkpoints = handle.checkpointsOffTheLoop!(pino({ level: 'silent' }) as unknown as FastifyBaseLogger);
      expect(await autocheckpoint(handle)).toBe(0);

      // 12 MB in four rounds, a checkpoint period apart. Nothing checkpointing: a WAL of 12 MB or more. The thread
      // lets each round after a checkpoint start the WAL over, so it stays near one round's size.
      for (let round = 0; round < 4; round++) {
        await write(handle, 3);
        await sleep(1_300);
      }
      const walBytes = fs.statSync(path.join(dataDir, 'snip.db-wal')).size;
      expect(walBytes).toBeLessThan(9 * 1024 * 1024);
      expect((await sql<{ n: number }>`select count(*) as n from scratch`.execute(handle.db)).rows[0]?.n).toBe(4 * 3 * 256);

      await checkpoints.stop();
      expect(await autocheckpoint(handle)).toBe(1000);
    } finally {
      await handle.db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
