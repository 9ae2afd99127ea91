import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A PostgreSQL schema of its own for a run: the URL whose search_path names it, and `drop` for afterwards. Tests that
 * share one database between apps and the import benchmark each take one.
 */
export async function scratchSchema(databaseUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE SCHEMA ${schema}`);
  return {
    url: `${databaseUrl}${databaseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    drop: () => admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`),
  };
}
