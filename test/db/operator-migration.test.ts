import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import { describe, expect, it } from 'vitest';
import { AccountsRepository } from '../../src/accounts/repository.js';
import { AccountsService } from '../../src/accounts/service.js';
import { migrations } from '../../src/db/migrations/index.js';
import type { Database } from '../../src/db/schema.js';
import { DEFAULT_PLANS } from '../../src/plans.js';

const upTo = (last: string): Record<string, Migration> => Object.fromEntries(Object.entries(migrations).filter(([name]) => name <= last));
const migrate = async (db: Kysely<Database>, set: Record<string, Migration>) => {
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => set } }).migrateToLatest();
  if (error) throw error;
};

describe('upgrading a database that has accounts to operators (migration 0016)', () => {
  it('makes its oldest account the operator, and the next account to sign up a member', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-0016-'));
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(path.join(dir, 'snip.db')) }) });
    try {
      await migrate(db, upTo('0015-link-routing'));
      const accounts = new AccountsService(new AccountsRepository(db), { now: () => new Date() }, DEFAULT_PLANS);
      // Accounts made before the upgrade, as the code of then made them (no role, no claim).
      for (const [id, email, at] of [['acct_old1', 'first@example.com', '2026-01-01T00:00:00.000Z'], ['acct_old2', 'second@example.com', '2026-02-01T00:00:00.000Z']]) {
        await (db as unknown as Kysely<{ accounts: Record<string, unknown> }>).insertInto('accounts').values({ id, email, tier: 'free', namespace: null, created_at: at, overage_limit_cents: null, password_hash: null }).execute();
      }
      await migrate(db, migrations);
      expect((await accounts.accountById('acct_old1'))?.role).toBe('operator');
      expect((await accounts.accountById('acct_old2'))?.role).toBe('member');
      const newcomer = await accounts.createAccount({ email: 'newcomer@example.com', tier: 'free' });
      expect(newcomer.role).toBe('member');
    } finally {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
