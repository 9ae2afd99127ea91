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
}
