import type { Kysely, Selectable } from 'kysely';
import type { Database, OAuthRecordsTable } from '../db/schema.js';

export type OAuthRecordRow = Selectable<OAuthRecordsTable>;

/** A connected application as the dashboard lists it: a live grant of the account, with its client's payload. */
export interface GrantRow {
  id: string;
  payload: string;
  created_at: string;
  expires_at: string | null;
  client_payload: string | null;
}

/** The authorization server's records (src/oauth/adapter.ts says what each column holds). */
export class OAuthRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Writes a record whole: the server saves a record again each time it changes (a grant given more scopes). */
  async upsert(row: OAuthRecordRow): Promise<void> {
    const { model: _model, id: _id, created_at: _created, ...changed } = row;
    await this.db
      .insertInto('oauth_records')
      .values(row)
      .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(changed))
      .execute();
  }

  /** A record that has not expired by `now`, by its id or by its uid. */
  find(model: string, id: string, now: string, by: 'id' | 'uid' = 'id'): Promise<OAuthRecordRow | undefined> {
    return this.db
      .selectFrom('oauth_records')
      .selectAll()
      .where('model', '=', model)
      .where(by, '=', id)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirst();
  }

  /**
   * Marks a code or refresh token used, once: answers false when it already was, so of two requests racing with one
   * refresh token only one rotates it (the other is a reuse and revokes the family).
   */
  async consume(model: string, id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('oauth_records')
      .set({ consumed_at: now })
      .where('model', '=', model)
      .where('id', '=', id)
      .where('consumed_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async destroy(model: string, id: string): Promise<void> {
    await this.db.deleteFrom('oauth_records').where('model', '=', model).where('id', '=', id).execute();
  }

  async revokeByGrantId(model: string, grantId: string): Promise<void> {
    await this.db.deleteFrom('oauth_records').where('model', '=', model).where('grant_id', '=', grantId).execute();
  }

  /** Ends a connection: the grant and every code and token issued under it, in one transaction. */
  async revokeGrant(accountId: string, grantId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const grant = await trx.deleteFrom('oauth_records').where('model', '=', 'Grant').where('id', '=', grantId).where('account_id', '=', accountId).executeTakeFirst();
      if (Number(grant.numDeletedRows) === 0) return false;
      await trx.deleteFrom('oauth_records').where('grant_id', '=', grantId).execute();
      return true;
    });
  }

  /**
   * The account's grants to a client made before `newest` (by creation time, then id): an application connected again
   * replaces them. Of two consents at the same moment, the later one in that order survives, whichever runs first.
   */
  async olderGrants(accountId: string, clientId: string, newest: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('oauth_records')
      .select(['id', 'created_at'])
      .where('model', '=', 'Grant')
      .where('account_id', '=', accountId)
      .where('client_id', '=', clientId)
      .execute();
    const mine = rows.find((row) => row.id === newest);
    if (!mine) return [];
    return rows.filter((row) => row.created_at < mine.created_at || (row.created_at === mine.created_at && row.id < mine.id)).map((row) => row.id);
  }

  /** The account's grants that have not expired, newest first, each with its client's registration. */
  listGrants(accountId: string, now: string): Promise<GrantRow[]> {
    return this.db
      .selectFrom('oauth_records as g')
      .leftJoin('oauth_records as c', (join) => join.onRef('c.id', '=', 'g.client_id').on('c.model', '=', 'Client'))
      .select(['g.id', 'g.payload', 'g.created_at', 'g.expires_at', 'c.payload as client_payload'])
      .where('g.model', '=', 'Grant')
      .where('g.account_id', '=', accountId)
      .where((eb) => eb.or([eb('g.expires_at', 'is', null), eb('g.expires_at', '>', now)]))
      .orderBy('g.created_at', 'desc')
      .orderBy('g.id')
      .execute();
  }

  /** Registrations made since `since` that no account has connected (registration is open to anyone: they are bounded). */
  async countUnusedClients(since: string): Promise<number> {
    const row = await this.db
      .selectFrom('oauth_records')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('model', '=', 'Client')
      .where('created_at', '>=', since)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('oauth_records as g').select('g.id').where('g.model', '=', 'Grant').whereRef('g.client_id', '=', 'oauth_records.id'))),
      )
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Drops what expired before `now`, and the registrations older than `unusedBefore` that no account has connected:
   * registration is open to anyone, so what nobody uses must not pile up. Answers how many records went.
   */
  async sweep(now: string, unusedBefore: string): Promise<number> {
    const expired = await this.db.deleteFrom('oauth_records').where('expires_at', '<=', now).executeTakeFirst();
    // The library's browser sessions are no longer kept (src/oauth/adapter.ts): rows of older versions go.
    const sessions = await this.db.deleteFrom('oauth_records').where('model', '=', 'Session').executeTakeFirst();
    const unused = await this.db
      .deleteFrom('oauth_records')
      .where('model', '=', 'Client')
      .where('created_at', '<', unusedBefore)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('oauth_records as g').select('g.id').where('g.model', '=', 'Grant').whereRef('g.client_id', '=', 'oauth_records.id'))),
      )
      .executeTakeFirst();
    // What belongs to a client no longer registered (records of older versions, or left by a revoked grant's client).
    const orphans = await this.db
      .deleteFrom('oauth_records')
      .where('model', '!=', 'Client')
      .where('client_id', 'is not', null)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('oauth_records as c').select('c.id').where('c.model', '=', 'Client').whereRef('c.id', '=', 'oauth_records.client_id'))),
      )
      .executeTakeFirst();
    return [expired, sessions, unused, orphans].reduce((sum, result) => sum + Number(result.numDeletedRows), 0);
  }
}
