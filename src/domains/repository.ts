import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import { withAccountLock } from '../db/account-lock.js';
import type { Dialect } from '../db/database.js';
import type { Database, DomainsTable } from '../db/schema.js';

export type DomainRow = Selectable<DomainsTable>;

/**
 * Custom-domain claims, one row per (hostname, account). Any number of accounts may hold a pending_txt claim on a
 * hostname; at most one row per hostname is verified or active (unique index `domains_claimed_hostname`, migration
 * 0010), and that row is the hostname's owner. Pending claims older than the cutoff the service passes are expired.
 */
export class DomainsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /** `work` under the account's lock (see withAccountLock): the plan's domain maximum is checked race-free. */
  exclusive<T>(accountId: string, work: (repo: DomainsRepository) => Promise<T>): Promise<T> {
    return withAccountLock(this.db, this.dialect, accountId, (trx) => work(new DomainsRepository(trx, this.dialect)));
  }

  /**
   * Marks the account's pending claim verified and, in the same transaction, removes every other account's pending
   * claim on the hostname. False when the claim was no longer pending (verified or activated meanwhile, or gone).
   * Throws a unique violation when another account's claim on the hostname is verified or active: that account won.
   */
  async verifyPending(hostname: string, accountId: string, at: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      // Verifies of one hostname run one at a time (SQLite's one connection already does): the second finds its
      // claim removed by the first. Without this, two PostgreSQL transactions each updating their own row and
      // deleting the other's would deadlock; the unique index stays the last word either way.
      if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${`snip-domain:${hostname}`}))`.execute(trx);
      const result = await trx
        .updateTable('domains')
        .set({ status: 'verified', verified_at: at })
        .where('hostname', '=', hostname)
        .where('account_id', '=', accountId)
        .where('status', '=', 'pending_txt')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await trx.deleteFrom('domains').where('hostname', '=', hostname).where('account_id', '<>', accountId).where('status', '=', 'pending_txt').execute();
      return true;
    });
  }

  /** The account's claim on the hostname, in any status. */
  findOwn(hostname: string, accountId: string): Promise<DomainRow | undefined> {
    return this.db.selectFrom('domains').selectAll().where('hostname', '=', hostname).where('account_id', '=', accountId).executeTakeFirst();
  }

  /** The hostname's owner: its verified or active claim, if any (at most one). */
  findClaimed(hostname: string): Promise<DomainRow | undefined> {
    return this.db.selectFrom('domains').selectAll().where('hostname', '=', hostname).where('status', '<>', 'pending_txt').executeTakeFirst();
  }

  /** The account's claims, oldest first, with the links on each; pending claims created before `cutoff` are left out. */
  list(accountId: string, cutoff: string): Promise<(DomainRow & { link_count: number })[]> {
    return this.db
      .selectFrom('domains')
      .selectAll('domains')
      .select((eb) =>
        eb
          .selectFrom('links')
          .select(sql<number>`count(*)`.as('n'))
          .whereRef('links.domain', '=', 'domains.hostname')
          .whereRef('links.account_id', '=', 'domains.account_id')
          .as('link_count'),
      )
      .where('account_id', '=', accountId)
      .where((eb) => eb.or([eb('status', '<>', 'pending_txt'), eb('created_at', '>=', cutoff)]))
      .orderBy('created_at')
      .execute() as Promise<(DomainRow & { link_count: number })[]>;
  }

  /** The claims that count toward the account's maximum: verified, active, and pending ones not yet expired. */
  async count(accountId: string, cutoff: string): Promise<number> {
    const row = await this.db
      .selectFrom('domains')
      .select(sql<number>`count(*)`.as('n'))
      .where('account_id', '=', accountId)
      .where((eb) => eb.or([eb('status', '<>', 'pending_txt'), eb('created_at', '>=', cutoff)]))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Drops pending claims created before `cutoff`: the account's, or those on a hostname. */
  async dropExpired(cutoff: string, of: { accountId: string } | { hostname: string }): Promise<void> {
    let query = this.db.deleteFrom('domains').where('status', '=', 'pending_txt').where('created_at', '<', cutoff);
    query = 'accountId' in of ? query.where('account_id', '=', of.accountId) : query.where('hostname', '=', of.hostname);
    await query.execute();
  }

  async insert(row: DomainRow): Promise<void> {
    await this.db.insertInto('domains').values(row).execute();
  }

  update(hostname: string, accountId: string, patch: Updateable<DomainsTable>): Promise<DomainRow | undefined> {
    return this.db.updateTable('domains').set(patch).where('hostname', '=', hostname).where('account_id', '=', accountId).returningAll().executeTakeFirst();
  }

  /** Makes one domain the account's default, and no other, in one statement. */
  async setDefault(accountId: string, hostname: string | null): Promise<void> {
    await this.db
      .updateTable('domains')
      .set({ is_default: sql<number>`case when hostname = ${hostname ?? ''} then 1 else 0 end` })
      .where('account_id', '=', accountId)
      .execute();
  }

  async defaultOf(accountId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('domains')
      .select('hostname')
      .where('account_id', '=', accountId)
      .where('is_default', '=', 1)
      .where('status', '=', 'active')
      .executeTakeFirst();
    return row?.hostname ?? null;
  }

  /** The account's claim and its links' use of the domain go together: the links fall back to the default host. */
  async delete(hostname: string, accountId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // An imported path was kept on this host only: it goes with the host (the link keeps its code on the default host).
      await trx.updateTable('links').set({ domain: null, legacy_path: null }).where('domain', '=', hostname).where('account_id', '=', accountId).execute();
      await trx.deleteFrom('domains').where('hostname', '=', hostname).where('account_id', '=', accountId).execute();
    });
  }
}
