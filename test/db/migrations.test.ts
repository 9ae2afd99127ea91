import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';

const run = promisify(execFile);

describe('migrations on a shared SQLite file', () => {
  it('processes starting together on a fresh database all migrate it without error (CLI and server)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-migrate-'));
    try {
      const starts = [1, 2, 3, 4, 5, 6, 7, 8].map(() =>
        run(process.execPath, ['test/helpers/open-database.mjs'], { env: { ...process.env, DATA_DIR: dataDir } }),
      );
      const results = await Promise.allSettled(starts);
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : r.value.stdout.trim()))).toEqual(Array(8).fill('ok'));
      const handle = await openDatabase({ dataDir, databaseUrl: null });
      expect(await handle.db.selectFrom('links').select('id').execute()).toEqual([]);
      await handle.db.destroy();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
