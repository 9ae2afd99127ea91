import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scratchSchema } from './pg-schema.js';

// Kept apart from app.ts, which loads the whole app: a browser test that needs only a database would otherwise make
// its worker fetch every src module from vitest's host, and on a loaded CI machine one such fetch outwaited the
// worker's 60 s RPC limit.

/**
 * The suite runs on SQLite by default. With SNIP_TEST_DATABASE_URL=postgres://... every app built here runs on
 * PostgreSQL instead, each in a schema of its own (as Kysely's own suite picks its dialect by environment).
 */
export const testDatabaseUrl = process.env.SNIP_TEST_DATABASE_URL || null;
export const dialectName = testDatabaseUrl ? 'postgres' : 'sqlite';

/**
 * Settings under which several apps share one database: one DATA_DIR on SQLite; on PostgreSQL, where startApp gives
 * every app a schema of its own whatever DATA_DIR says, a DATABASE_URL whose search_path names one shared schema.
 */
export async function sharedDatabase(): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-shared-'));
  const databaseUrl = testDatabaseUrl;
  if (!databaseUrl) {
    return { env: { DATA_DIR: dataDir }, cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const schema = await scratchSchema(databaseUrl, 'shared');
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: schema.url },
    async cleanup() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await schema.drop();
    },
  };
}
