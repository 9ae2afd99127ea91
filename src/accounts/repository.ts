import type { Kysely, Selectable } from 'kysely';
import type { AccountsTable, ApiKeysTable, Database } from '../db/schema.js';

export type AccountRow = Selectable<AccountsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;

export class AccountsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertAccount(account: AccountRow, key: ApiKeyRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('accounts').values(account).execute();
      if (account.namespace) {
        await trx
          .insertInto('namespaces')
          .values({ prefix: account.namespace, account_id: account.id, created_at: account.created_at })
          .execute();
      }
      await trx.insertInto('api_keys').values(key).execute();
    });
  }

  findByEmail(email: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
  }

  findById(id: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async setTier(accountId: string, tier: string): Promise<void> {
    await this.db.updateTable('accounts').set({ tier }).where('id', '=', accountId).execute();
  }

  /** The account behind an active (not revoked) key hash, with the key's id. */
  findByKeyHash(keyHash: string): Promise<(AccountRow & { key_id: string }) | undefined> {
    return this.db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .selectAll('accounts')
      .select('api_keys.id as key_id')
      .where('api_keys.key_hash', '=', keyHash)
      .where('api_keys.revoked_at', 'is', null)
      .executeTakeFirst();
  }

  async insertKey(key: ApiKeyRow): Promise<void> {
    await this.db.insertInto('api_keys').values(key).execute();
  }

  listKeys(accountId: string): Promise<ApiKeyRow[]> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
  }

  findKey(criteria: { id: string } | { keyHash: string }): Promise<ApiKeyRow | undefined> {
    const query = this.db.selectFrom('api_keys').selectAll();
    return ('id' in criteria
      ? query.where('id', '=', criteria.id)
      : query.where('key_hash', '=', criteria.keyHash)
    ).executeTakeFirst();
  }

  async revokeKey(keyId: string, at: string): Promise<void> {
    await this.db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', keyId).where('revoked_at', 'is', null).execute();
  }

  namespaceOwner(prefix: string): Promise<string | undefined> {
    return this.db
      .selectFrom('namespaces')
      .select('account_id')
      .where('prefix', '=', prefix)
      .executeTakeFirst()
      .then((row) => row?.account_id);
  }

  /** Makes `prefix` the account's namespace; false when another account holds it. */
  async claimNamespace(accountId: string, prefix: string, at: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const owner = await trx.selectFrom('namespaces').select('account_id').where('prefix', '=', prefix).executeTakeFirst();
      if (owner && owner.account_id !== accountId) return false;
      if (!owner) await trx.insertInto('namespaces').values({ prefix, account_id: accountId, created_at: at }).execute();
      await trx.updateTable('accounts').set({ namespace: prefix }).where('id', '=', accountId).execute();
      return true;
    });
  }

  /** The prefixes the account holds, oldest first, with how many links use each. */
  async namespacesOf(accountId: string): Promise<{ prefix: string; created_at: string; links: number }[]> {
    const rows = await this.db
      .selectFrom('namespaces')
      .leftJoin('links', 'links.namespace', 'namespaces.prefix')
      .select(['namespaces.prefix', 'namespaces.created_at'])
      .select((eb) => eb.fn.count<number | string>('links.id').as('links'))
      .where('namespaces.account_id', '=', accountId)
      .groupBy(['namespaces.prefix', 'namespaces.created_at'])
      .orderBy('namespaces.created_at', 'asc')
      .orderBy('namespaces.prefix', 'asc')
      .execute();
    return rows.map((r) => ({ prefix: r.prefix, created_at: r.created_at, links: Number(r.links) }));
  }

  /** How many links (of any account) live under `prefix`. */
  async namespaceLinkCount(prefix: string): Promise<number> {
    const row = await this.db
      .selectFrom('links')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('namespace', '=', prefix)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Gives up the account's `prefix`, so anyone may claim it again: one statement that deletes it only while it is
   * the account's, is not the account's current namespace and no link uses it. False when it deleted nothing.
   */
  async releaseNamespace(accountId: string, prefix: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('namespaces')
      .where('prefix', '=', prefix)
      .where('account_id', '=', accountId)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('accounts').select('accounts.id').where('accounts.id', '=', accountId).where('accounts.namespace', '=', prefix))),
      )
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('links').select('links.id').where('links.namespace', '=', prefix))))
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
