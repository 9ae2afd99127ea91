import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteAdapter, SqliteDialect, sql, type DialectAdapter } from 'kysely';
import { Migrator, type MigrationProvider } from 'kysely/migration';
import type { FastifyBaseLogger } from 'fastify';
import { checkpointsOffTheLoop } from './checkpoints.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /**
   * SQLite only: copies the live database into `file` (SQLite's online backup: a consistent copy while the server
   * keeps writing); answers the bytes written. PostgreSQL has pg_dump for that.
   */
  backup?: (file: string) => Promise<number>;
  /** SQLite only: WAL checkpoints in a thread of their own until `stop` (src/db/checkpoints.ts); the server's. */
  checkpointsOffTheLoop?: (log: FastifyBaseLogger) => { stop(): Promise<void> };
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL schema to work in (tests isolate themselves this way); created when missing. */
  pgSchema?: string;
  /** How long to wait for a PostgreSQL that is not reachable yet (0: fail at once). */
  startTimeoutMs?: number;
  /** Told once when start-up begins to wait for PostgreSQL. */
  onWaiting?: (message: string) => void;
}

/**
 * Kysely prepares every statement anew; the queries Snip runs are few and repeat constantly (the redirect's
 * above all), so prepared statements are kept per SQL text. Kysely holds the one connection under a mutex, so
 * a statement is never used by two queries at once.
 */
function withStatementCache(sqlite: SqliteDatabase.Database, capacity = 500) {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= capacity) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * Kysely assumes one process per SQLite file and takes no migration lock. Snip's CLI and server share the file,
 * so the whole migration run holds SQLite's write lock (BEGIN IMMEDIATE waits out the other process under
 * busy_timeout, which then finds the migrations applied).
 */
class LockingSqliteAdapter extends SqliteAdapter {
  override async acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    await sql`BEGIN IMMEDIATE`.execute(db);
  }
  override async releaseMigrationLock(db: Kysely<unknown>): Promise<void> {
    await sql`COMMIT`.execute(db);
  }
}

class SnipSqliteDialect extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    return new LockingSqliteAdapter();
  }
}

/**
 * Switches the file to WAL. On a fresh file that another process is opening at the same moment (the server and
 * the CLI started together), SQLite answers SQLITE_BUSY at once instead of waiting out the busy timeout, so the
 * switch is retried for up to 5 s; once one process has switched, the mode is stored in the file and others pass.
 */
function enableWal(sqlite: SqliteDatabase.Database): void {
  const deadline = Date.now() + 5_000;
  for (;;) {
    try {
      sqlite.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10 + Math.random() * 40);
    }
  }
}

function openSqlite(dataDir: string): DatabaseHandle {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'snip.db');
  const sqlite = new SqliteDatabase(file);
  enableWal(sqlite);
  // NORMAL under WAL loses nothing on a process crash; only a power cut can drop the last commits.
  sqlite.pragma('synchronous = NORMAL');
  // The CLI and the server share the file; wait for each other's write lock rather than fail.
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const backup = async (file: string) => (await sqlite.backup(file)).totalPages * (sqlite.pragma('page_size', { simple: true }) as number);
  return {
    db: new Kysely<Database>({ dialect: new SnipSqliteDialect({ database: withStatementCache(sqlite) }) }),
    dialect: 'sqlite',
    backup,
    checkpointsOffTheLoop: (log) => checkpointsOffTheLoop(sqlite, file, log),
  };
}

async function openPostgres(url: string, schema: string | undefined): Promise<DatabaseHandle> {
  // The driver is loaded only where DATABASE_URL asks for it.
  const { default: pg } = await import('pg');
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema.replace(/"/g, '')}"`);
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrate(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  // On PostgreSQL, keep the migration tables in the schema Snip works in: left alone, Kysely takes another
  // schema's migration tables (another app's, or another Snip's) for its own.
  const schema =
    dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  let { error, results } = await migrator.migrateToLatest();
  // Kysely's migrator lists the tables of every schema in the database; one that another client drops meanwhile
  // fails that listing ("schema x does not exist", or a table of it). Nothing was migrated then: try again.
  for (let attempt = 1; attempt < 10 && isOtherSchemaGone(error, schema); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 80));
    ({ error, results } = await migrator.migrateToLatest());
  }
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
}

/**
 * Whether `error` says a schema other than Snip's own, or a table in one, vanished while the migrator listed the
 * database's tables ("schema x does not exist", "relation x.t does not exist").
 */
function isOtherSchemaGone(error: unknown, own: string | undefined): boolean {
  const gone = /(?:schema|relation) "([^".]+)(?:\.[^"]+)?" does not exist/.exec(error instanceof Error ? error.message : '')?.[1];
  return gone !== undefined && gone !== own;
}

/** Opens the database the settings name and brings it to the latest migration. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) await (await import('./postgres-start.js')).waitForPostgres(options.databaseUrl, { timeoutMs: options.startTimeoutMs ?? 0, onWaiting: options.onWaiting });
  const handle = options.databaseUrl
    ? await openPostgres(options.databaseUrl, options.pgSchema)
    : openSqlite(options.dataDir);
  await migrate(handle.db, handle.dialect);
  return handle;
}

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
