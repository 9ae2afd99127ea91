import { sql, type Kysely, type RawBuilder, type Selectable, type SqlBool, type Transaction } from 'kysely';
import type { AccountsTable, ApiKeysTable, Database } from '../db/schema.js';
import { checkOldNamespaces } from './namespace-rules.js';

export type AccountRow = Selectable<AccountsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;

/** What deleting an account removed. */
export interface DeletedCounts {
  links: number;
  apiKeys: number;
  clicks: number;
}

/** Tables whose rows belong to an account through their `account_id` (links, keys and prefixes come last). */
const OWNED_BY_ACCOUNT = [
  'password_resets', 'clicks', 'click_rollups', 'account_usage', 'outbox_events', 'webhook_deliveries', 'webhooks', 'folders', 'qr_settings', 'domains',
  'link_tags', 'utm_templates', 'saved_views', 'sessions', 'agent_clicks', 'web2app_sessions', 'affiliate_conversions', 'affiliate_paid_clicks',
  'affiliate_partnerships', 'affiliate_programs', 'oauth_records',
] as const satisfies readonly (keyof Database)[];

/** Tables whose rows belong to a link through their `link_id` only. */
const OWNED_BY_LINK = ['link_scans', 'click_visitors', 'link_tags', 'affiliate_paid_clicks'] as const satisfies readonly (keyof Database)[];

/** The settings row the first account claims (src/db/migrations/0016-operators.ts sets it for older databases). */
export const FIRST_OPERATOR_KEY = 'operator.first';

const deleted = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);

export class AccountsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Inserts the account and its first key. The first account of a database becomes its operator: the claim is a
   * settings row only one transaction can insert, so two sign-ups racing on an empty database make one operator.
   * Answers the role the account got.
   */
  async insertAccount(account: AccountRow, key: ApiKeyRow): Promise<string> {
    return this.db.transaction().execute(async (trx) => {
      await trx.insertInto('accounts').values(account).execute();
      const claimed = await trx
        .insertInto('settings')
        .values({ key: FIRST_OPERATOR_KEY, value: account.id })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      const role = Number(claimed.numInsertedOrUpdatedRows ?? 0n) > 0 ? 'operator' : account.role;
      if (role !== account.role) await trx.updateTable('accounts').set({ role }).where('id', '=', account.id).execute();
      if (account.namespace) {
        await trx
          .insertInto('namespaces')
          .values({ prefix: account.namespace, account_id: account.id, created_at: account.created_at })
          .execute();
      }
      await trx.insertInto('api_keys').values(key).execute();
      return role;
    });
  }

  findByEmail(email: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
  }

  /** Every account, oldest first, with how many links it has. */
  async listWithLinkCounts(): Promise<(AccountRow & { links: number })[]> {
    const rows = await this.db
      .selectFrom('accounts')
      .selectAll('accounts')
      .select((eb) =>
        eb.selectFrom('links').select(eb.fn.countAll<number | string>().as('n')).whereRef('links.account_id', '=', 'accounts.id').as('links'),
      )
      .orderBy('accounts.created_at', 'asc')
      .orderBy('accounts.id', 'asc')
      .execute();
    return rows.map((row) => ({ ...row, links: Number(row.links ?? 0) }));
  }

  findById(id: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async setTier(accountId: string, tier: string): Promise<void> {
    await this.db.updateTable('accounts').set({ tier }).where('id', '=', accountId).execute();
  }

  /** The account behind an active (not revoked) key hash, with the key's id. */
  findByKeyHash(
    keyHash: string,
  ): Promise<(AccountRow & { key_id: string; mcp_client_name: string | null; key_scopes: string | null; last_used_at: string | null }) | undefined> {
    return this.db
      .selectFrom('api_keys')
      .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
      .selectAll('accounts')
      .select(['api_keys.id as key_id', 'api_keys.mcp_client_name', 'api_keys.scopes as key_scopes', 'api_keys.last_used_at'])
      .where('api_keys.key_hash', '=', keyHash)
      .where('api_keys.revoked_at', 'is', null)
      .executeTakeFirst();
  }

  async touchKey(keyId: string, at: string): Promise<void> {
    await this.db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', keyId).execute();
  }

  /** Written only when it changed: a client initializes on every connection. */
  async setMcpClientName(keyId: string, name: string): Promise<void> {
    await this.db
      .updateTable('api_keys')
      .set({ mcp_client_name: name })
      .where('id', '=', keyId)
      .where((eb) => eb.or([eb('mcp_client_name', 'is', null), eb('mcp_client_name', '!=', name)]))
      .execute();
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

  /** Every key of the account, revoked ones too, oldest first. */
  listAllKeys(accountId: string): Promise<ApiKeyRow[]> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('account_id', '=', accountId)
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

  /**
   * Makes `prefix` the account's namespace; false when another account holds it. The account's other prefixes
   * without links are released in the same transaction, and the rest are bounded (checkOldNamespaces, issue 16).
   */
  async claimNamespace(accountId: string, prefix: string, at: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const owner = await trx.selectFrom('namespaces').select('account_id').where('prefix', '=', prefix).executeTakeFirst();
      if (owner && owner.account_id !== accountId) return false;
      // The account row first: on PostgreSQL its lock orders this account's changes, so the bound below holds.
      await trx.updateTable('accounts').set({ namespace: prefix }).where('id', '=', accountId).execute();
      if (!owner) await trx.insertInto('namespaces').values({ prefix, account_id: accountId, created_at: at }).execute();
      await trx
        .deleteFrom('namespaces')
        .where('account_id', '=', accountId)
        .where('prefix', '<>', prefix)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('links').select('links.id').whereRef('links.namespace', '=', 'namespaces.prefix'))))
        .execute();
      checkOldNamespaces((await new AccountsRepository(trx).namespacesOf(accountId)).filter((n) => n.prefix !== prefix));
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

  /**
   * Deletes the account and everything it owns, in one transaction: its links and what hangs off them (scans,
   * visitors, tags), clicks and their rollups, usage, webhooks and their deliveries, folders, QR settings, domains,
   * UTM templates, saved views, durable usage counters, keys and namespaces (which anyone may then claim). Rows are
   * deleted explicitly rather than through ON DELETE CASCADE, which covers only keys, namespaces and links. The
   * account row is locked first (an update of nothing on PostgreSQL), so work holding the account's lock (folder and
   * domain limits) finishes before or waits until after. Null when there is no such account.
   */
  async deleteAccount(accountId: string): Promise<DeletedCounts | null> {
    return this.db.transaction().execute(async (trx) => {
      const locked = await trx
        .updateTable('accounts')
        .set((eb) => ({ tier: eb.ref('tier') }))
        .where('id', '=', accountId)
        .executeTakeFirst();
      if (Number(locked.numUpdatedRows) === 0) return null;
      const ofLinks = sql<SqlBool>`link_id in (select id from links where account_id = ${accountId})`;
      for (const table of OWNED_BY_LINK) await deleteWhere(trx, table, ofLinks);
      let clicks = 0;
      for (const table of OWNED_BY_ACCOUNT) {
        const count = await deleteWhere(trx, table, sql<SqlBool>`account_id = ${accountId}`);
        if (table === 'clicks') clicks = count;
      }
      // Partnerships in the account's own programs belong to it too (their `account_id` is each partner's).
      await trx.deleteFrom('affiliate_partnerships').where('program_account_id', '=', accountId).execute();
      // Durable usage counters are keyed `usage:<accountId>:<window>:<start>` (src/usage/service.ts).
      const prefix = `usage:${accountId}:`;
      await trx.deleteFrom('usage_counters').where(sql<boolean>`substr(key, 1, ${sql.lit(prefix.length)}) = ${prefix}`).execute();
      const links = deleted(await trx.deleteFrom('links').where('account_id', '=', accountId).executeTakeFirst());
      const apiKeys = deleted(await trx.deleteFrom('api_keys').where('account_id', '=', accountId).executeTakeFirst());
      await trx.deleteFrom('namespaces').where('account_id', '=', accountId).execute();
      await trx.deleteFrom('accounts').where('id', '=', accountId).execute();
      return { links, apiKeys, clicks };
    });
  }
}

/** `DELETE FROM table WHERE condition`, for the tables an account or its links own; answers how many rows went. */
async function deleteWhere(
  trx: Transaction<Database>,
  table: (typeof OWNED_BY_ACCOUNT)[number] | (typeof OWNED_BY_LINK)[number],
  condition: RawBuilder<SqlBool>,
): Promise<number> {
  return deleted(await trx.deleteFrom(table).where(condition).executeTakeFirst());
}
