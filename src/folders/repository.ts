import type { Kysely, Selectable, Updateable } from 'kysely';
import { withAccountLock } from '../db/account-lock.js';
import type { Dialect } from '../db/database.js';
import type { Database, FoldersTable } from '../db/schema.js';

export type FolderRow = Selectable<FoldersTable>;
export type FolderListRow = FolderRow & { link_count: number | string };
export type FolderPatch = Updateable<Pick<FoldersTable, 'name' | 'color'>>;

export class FoldersRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /** `work` under the account's lock (see withAccountLock): the folder limit and names are checked race-free. */
  exclusive<T>(accountId: string, work: (repo: FoldersRepository) => Promise<T>): Promise<T> {
    return withAccountLock(this.db, this.dialect, accountId, (trx) => work(new FoldersRepository(trx, this.dialect)));
  }

  /** The account's folders, oldest first, each with its link count: one grouped query, whatever the number of folders. */
  list(accountId: string): Promise<FolderListRow[]> {
    return this.withCounts(accountId).orderBy('folders.created_at').orderBy('folders.id').execute();
  }

  find(accountId: string, id: string): Promise<FolderListRow | undefined> {
    return this.withCounts(accountId).where('folders.id', '=', id).executeTakeFirst();
  }

  /** Whose folder `id` is, whatever account asks. */
  async ownerOf(id: string): Promise<string | undefined> {
    return (await this.db.selectFrom('folders').select('account_id').where('id', '=', id).executeTakeFirst())?.account_id;
  }

  names(accountId: string): Promise<{ id: string; name: string }[]> {
    return this.db.selectFrom('folders').select(['id', 'name']).where('account_id', '=', accountId).execute();
  }

  async insert(row: FolderRow): Promise<void> {
    await this.db.insertInto('folders').values(row).execute();
  }

  async update(accountId: string, id: string, patch: FolderPatch): Promise<boolean> {
    const result = await this.db.updateTable('folders').set(patch).where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Deletes the folder and takes its links out of it, in one transaction; the links stay. The folder row goes
   * first, so an assignment waiting on it (see `assign`) finds it gone. Returns how many links were unassigned,
   * or null when the account has no such folder.
   */
  delete(accountId: string, id: string): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      const deleted = await trx.deleteFrom('folders').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return null;
      const unassigned = await trx.updateTable('links').set({ folder_id: null }).where('folder_id', '=', id).executeTakeFirst();
      return Number(unassigned.numUpdatedRows);
    });
  }

  /**
   * Files a link in the account's folder, or takes it out of any (`folderId` null). The folder row is share-locked
   * on PostgreSQL while the link changes, so a concurrent delete cannot leave the link pointing at a folder that
   * is gone. False when the folder no longer exists.
   */
  async assign(linkId: string, accountId: string, folderId: string | null): Promise<boolean> {
    if (folderId === null) {
      await this.db.updateTable('links').set({ folder_id: null }).where('id', '=', linkId).execute();
      return true;
    }
    return this.db.transaction().execute(async (trx) => {
      const folder = await trx
        .selectFrom('folders')
        .select('id')
        .where('id', '=', folderId)
        .where('account_id', '=', accountId)
        .$if(this.dialect === 'postgres', (q) => q.forShare())
        .executeTakeFirst();
      if (!folder) return false;
      await trx.updateTable('links').set({ folder_id: folderId }).where('id', '=', linkId).execute();
      return true;
    });
  }

  private withCounts(accountId: string) {
    return this.db
      .selectFrom('folders')
      .leftJoin('links', (join) => join.onRef('links.folder_id', '=', 'folders.id').onRef('links.account_id', '=', 'folders.account_id'))
      .select(['folders.id', 'folders.account_id', 'folders.name', 'folders.color', 'folders.created_at'])
      .select((eb) => eb.fn.count<number | string>('links.id').as('link_count'))
      .where('folders.account_id', '=', accountId)
      .groupBy(['folders.id', 'folders.account_id', 'folders.name', 'folders.color', 'folders.created_at']);
  }
}
