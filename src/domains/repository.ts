import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import { withAccountLock } from '../db/account-lock.js';
import type { Dialect } from '../db/database.js';
import type { Database, DomainsTable } from '../db/schema.js';

export type DomainRow = Selectable<DomainsTable>;

export class DomainsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /** `work` under the account's lock (see withAccountLock): the plan's domain maximum is checked race-free. */
  exclusive<T>(accountId: string, work: (repo: DomainsRepository) => Promise<T>): Promise<T> {
    return withAccountLock(this.db, this.dialect, accountId, (trx) => work(new DomainsRepository(trx, this.dialect)));
  }

  async verifyPending(hostname: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('domains')
      .set({ status: 'verified', verified_at: at })
      .where('hostname', '=', hostname)
      .where('status', '=', 'pending_txt')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  find(hostname: string): Promise<DomainRow | undefined> {
    return this.db.selectFrom('domains').selectAll().where('hostname', '=', hostname).executeTakeFirst();
  }

  list(accountId: string): Promise<(DomainRow & { link_count: number })[]> {
    return this.db
      .selectFrom('domains')
      .selectAll('domains')
      .select((eb) => eb.selectFrom('links').select(sql<number>`count(*)`.as('n')).whereRef('links.domain', '=', 'domains.hostname').as('link_count'))
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .execute() as Promise<(DomainRow & { link_count: number })[]>;
  }

  async count(accountId: string): Promise<number> {
    const row = await this.db.selectFrom('domains').select(sql<number>`count(*)`.as('n')).where('account_id', '=', accountId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(row: DomainRow): Promise<void> {
    await this.db.insertInto('domains').values(row).execute();
  }

  update(hostname: string, patch: Updateable<DomainsTable>): Promise<DomainRow | undefined> {
    return this.db.updateTable('domains').set(patch).where('hostname', '=', hostname).returningAll().executeTakeFirst();
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

  /** The domain and its links' claim on it go together: the links fall back to the default host. */
  async delete(hostname: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('links').set({ domain: null }).where('domain', '=', hostname).execute();
      await trx.deleteFrom('domains').where('hostname', '=', hostname).execute();
    });
  }
}
