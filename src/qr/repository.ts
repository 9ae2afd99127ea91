import type { Kysely, Selectable } from 'kysely';
import type { Database, QrSettingsTable } from '../db/schema.js';

export type QrSettingsRow = Selectable<QrSettingsTable>;
/** The columns a settings change may set (the account and the time are the repository's business). */
export type QrSettingsPatch = Partial<Omit<QrSettingsRow, 'account_id' | 'updated_at'>>;

/** One row of QR settings per account; an account without one uses the defaults. */
export class QrSettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(accountId: string): Promise<QrSettingsRow | undefined> {
    return this.db.selectFrom('qr_settings').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  }

  /**
   * Saves the changed fields in one statement: the first save inserts `initial` (the defaults with the change
   * applied), later ones update only the changed columns. Two concurrent changes of different fields therefore
   * both stick, which a read-merge-write would not guarantee.
   */
  save(accountId: string, initial: Omit<QrSettingsRow, 'account_id' | 'updated_at'>, patch: QrSettingsPatch, at: string): Promise<QrSettingsRow> {
    return this.db
      .insertInto('qr_settings')
      .values({ ...initial, account_id: accountId, updated_at: at })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...patch, updated_at: at }))
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}
