import { sql, type Kysely, type Selectable } from 'kysely';
import type { AccountsTable, AuditLogTable, Database, InvitesTable, PasswordResetsTable } from '../db/schema.js';

type AccountRow = Selectable<AccountsTable>;

/** An account as the operator's list shows it. */
export type AdminAccountRow = AccountRow & { links: number };

/** The row the first account claims (src/accounts/repository.ts), also the lock of operator changes. */
const FIRST_OPERATOR_SETTING = 'operator.first';

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The operator's reads and writes: accounts by search, roles, disabling, settings, one-time tokens and the audit log. */
export class AdminRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async searchAccounts(query: string, limit: number, offset: number): Promise<{ rows: AdminAccountRow[]; total: number }> {
    const pattern = `%${escapeLike(query.toLowerCase())}%`;
    const matching = this.db.selectFrom('accounts').$if(query !== '', (q) => q.where(sql<boolean>`lower(email) like ${pattern} escape '\\'`));
    const rows = await matching
      .selectAll('accounts')
      .select((eb) => eb.selectFrom('links').select(eb.fn.countAll<number | string>().as('n')).whereRef('links.account_id', '=', 'accounts.id').as('links'))
      .orderBy('accounts.created_at', 'asc')
      .orderBy('accounts.id', 'asc')
      .limit(limit)
      .offset(offset)
      .execute();
    const total = await matching.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    return { rows: rows.map((row) => ({ ...row, links: Number(row.links ?? 0) })), total: Number(total.n) };
  }

  async findAccount(id: string): Promise<AdminAccountRow | undefined> {
    const row = await this.db
      .selectFrom('accounts')
      .selectAll('accounts')
      .select((eb) => eb.selectFrom('links').select(eb.fn.countAll<number | string>().as('n')).whereRef('links.account_id', '=', 'accounts.id').as('links'))
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? { ...row, links: Number(row.links ?? 0) } : undefined;
  }

  async accountCount(): Promise<number> {
    const row = await this.db.selectFrom('accounts').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Changes an account and writes the audit entry in one transaction. `demote`: the role change must leave another
   * operator, checked inside the transaction so two demotions racing cannot leave none.
   */
  async changeAccount(
    id: string,
    change: Partial<Pick<AccountRow, 'tier' | 'role' | 'disabled_at' | 'disabled_reason'>>,
    audit: AuditLogTable,
    options: { endSessions?: boolean; keepAnOperator?: boolean } = {},
  ): Promise<'changed' | 'missing' | 'last-operator'> {
    return this.db.transaction().execute(async (trx) => {
      // Two operators removing each other at once must not both see the other still there: the first-operator row is
      // the lock every such change takes first (a row lock on PostgreSQL; SQLite writes one transaction at a time).
      if (options.keepAnOperator) await trx.updateTable('settings').set({ value: sql`value` }).where('key', '=', FIRST_OPERATOR_SETTING).execute();
      const result = await trx.updateTable('accounts').set(change).where('id', '=', id).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return 'missing';
      if (options.keepAnOperator) {
        const left = await trx.selectFrom('accounts').select((eb) => eb.fn.countAll<number | string>().as('n')).where('role', '=', 'operator').where('disabled_at', 'is', null).executeTakeFirstOrThrow();
        if (Number(left.n) === 0) throw new LastOperator();
      }
      if (options.endSessions) await trx.deleteFrom('sessions').where('account_id', '=', id).execute();
      await trx.insertInto('audit_log').values(audit).execute();
      return 'changed' as const;
    }).catch((error: unknown) => {
      if (error instanceof LastOperator) return 'last-operator' as const;
      throw error;
    });
  }

  async audit(entry: AuditLogTable): Promise<void> {
    await this.db.insertInto('audit_log').values(entry).execute();
  }

  async auditPage(limit: number, before: { at: string; id: string } | null): Promise<AuditLogTable[]> {
    return this.db
      .selectFrom('audit_log')
      .selectAll()
      .$if(before !== null, (q) => q.where((eb) => eb.or([eb('at', '<', before!.at), eb.and([eb('at', '=', before!.at), eb('id', '<', before!.id)])])))
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  async auditEntry(id: string): Promise<AuditLogTable | undefined> {
    return this.db.selectFrom('audit_log').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async setting(key: string): Promise<string | undefined> {
    return (await this.db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value;
  }

  /** Writes settings and the audit entry in one transaction. */
  async putSettings(values: Record<string, string>, audit: AuditLogTable): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const [key, value] of Object.entries(values)) {
        await trx.insertInto('settings').values({ key, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
      }
      await trx.insertInto('audit_log').values(audit).execute();
    });
  }

  async insertInvite(invite: InvitesTable, audit: AuditLogTable): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('invites').values(invite).execute();
      await trx.insertInto('audit_log').values(audit).execute();
    });
  }

  /** Marks a live invite used; answers its tier, or undefined when it is unknown, used or expired (only one caller wins). */
  async takeInvite(id: string, now: string): Promise<string | undefined> {
    const invite = await this.db.selectFrom('invites').select('tier').where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
    if (!invite) return undefined;
    const taken = await this.db.updateTable('invites').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1 ? invite.tier : undefined;
  }

  async giveBackInvite(id: string): Promise<void> {
    await this.db.updateTable('invites').set({ used_at: null, used_by: null }).where('id', '=', id).execute();
  }

  async inviteUsedBy(id: string, accountId: string): Promise<void> {
    await this.db.updateTable('invites').set({ used_by: accountId }).where('id', '=', id).execute();
  }

  /** A new reset link replaces the account's earlier ones. */
  async insertReset(reset: PasswordResetsTable, audit: AuditLogTable): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('password_resets').where('account_id', '=', reset.account_id).execute();
      await trx.insertInto('password_resets').values(reset).execute();
      await trx.insertInto('audit_log').values(audit).execute();
    });
  }

  /** Uses a live reset link; answers its account, or undefined when it is unknown, used or expired (only one caller wins). */
  async takeReset(id: string, now: string): Promise<string | undefined> {
    const reset = await this.db.selectFrom('password_resets').select('account_id').where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
    if (!reset) return undefined;
    const taken = await this.db.updateTable('password_resets').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1 ? reset.account_id : undefined;
  }

  async counts(): Promise<{ accounts: number; links: number; webhookBacklog: number }> {
    const count = (table: 'accounts' | 'links' | 'outbox_events') =>
      this.db.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow().then((r) => Number(r.n));
    const [accounts, links, outbox, deliveries] = await Promise.all([
      count('accounts'),
      count('links'),
      count('outbox_events'),
      this.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number | string>().as('n')).where('status', '=', 'pending').executeTakeFirstOrThrow().then((r) => Number(r.n)),
    ]);
    return { accounts, links, webhookBacklog: outbox + deliveries };
  }
}

class LastOperator extends Error {}
