import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/**
 * The PostgreSQL schemas of test apps (SNIP_TEST_DATABASE_URL). Creating a schema and running every migration into
 * it, then dropping it with CASCADE, cost each test app on PostgreSQL about a second more than on SQLite on a loaded
 * 2-CPU machine, a few hundred times a run. A closed app's schema is instead emptied (every table truncated; the
 * migration tables, which say it is at the latest migration, kept) and given to the next app this worker starts: that
 * app finds a database as a fresh one is after its migrations (no rows, the same tables), and its start-up migration
 * finds nothing to do. The migrations themselves run once per schema, still through the app. Names carry the run's
 * prefix, so the global teardown (test/global-setup.ts) drops this run's schemas and no one else's.
 */

/**
 * Emptied schemas, ready for the next app of this worker. Kept on the worker's global object: a worker runs its files
 * one after another, and evaluates this module again for each, which would strand an earlier file's schemas (and
 * every schema in the database slows the migrator, which lists the tables of all of them).
 */
const pool = globalThis as typeof globalThis & { snipIdleAppSchemas?: string[] };
const idle = (pool.snipIdleAppSchemas ??= []);

/** A schema for a new app: an emptied one of this run, or a new name (the app creates it and migrates into it). */
export function takeAppSchema(): string {
  return idle.pop() ?? `${inject('appSchemaPrefix')}_${randomBytes(6).toString('hex')}`;
}

/**
 * After the app on `schema` has closed: empties it for the next app, or drops it when it cannot be emptied. Tables
 * only: Snip keeps no sequences or other objects of its own that rows could change.
 */
export async function releaseAppSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = $1 and tablename not like 'kysely\\_migration%'`,
      [schema],
    );
    const migrated = await client.query(`select 1 from pg_tables where schemaname = $1 and tablename = 'kysely_migration'`, [schema]);
    // An app that failed before its migrations ran leaves a schema no one should be handed as migrated.
    if (migrated.rowCount === 0) {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      return;
    }
    // A test may have dropped a table of its app's database (test/mcp/mcp-quota.test.ts makes a tool fail that way):
    // handed on, the next app (perhaps another file's, in this worker) would answer 500 wherever it needs that table.
    // The most tables any of this run's schemas has is what a whole one has.
    const whole = await client.query<{ most: number }>(
      `select max(n)::int as most from (select count(*) as n from pg_tables where schemaname like $1 and tablename not like 'kysely\\_migration%' group by schemaname) s`,
      [`${inject('appSchemaPrefix')}\\_%`],
    );
    if (rows.length < (whole.rows[0]?.most ?? 0)) {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      return;
    }
    if (rows.length > 0) await client.query(`TRUNCATE ${rows.map((r) => r.name).join(', ')}`);
    idle.push(schema);
  } catch (error) {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The prefix of this run's test-app schemas on PostgreSQL (test/global-setup.ts). */
    appSchemaPrefix: string;
  }
}
