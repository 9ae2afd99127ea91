import type { Kysely, Selectable } from 'kysely';
import type { Database, LinkScansTable } from '../db/schema.js';
import type { Verdict } from './verdict.js';

export type ScanRow = Selectable<LinkScansTable>;

/** What a scan needs to know of a link, and to name it when it is done. */
export type ScanTarget = { id: string; url: string; code: string; namespace: string | null; slug: string | null };

export class TrustRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(linkId: string): Promise<ScanRow | undefined> {
    return this.db.selectFrom('link_scans').selectAll().where('link_id', '=', linkId).executeTakeFirst();
  }

  async save(linkId: string, url: string, verdict: Verdict, at: string): Promise<void> {
    const values = { url, score: verdict.score, status: verdict.status, threats: verdict.threats.join(','), source: verdict.source, scanned_at: at };
    await this.db
      .insertInto('link_scans')
      .values({ link_id: linkId, ...values })
      .onConflict((oc) => oc.column('link_id').doUpdateSet(values))
      .execute();
  }

  async delete(linkId: string): Promise<void> {
    await this.db.deleteFrom('link_scans').where('link_id', '=', linkId).execute();
  }

  /**
   * Links owed a scan: never scanned, or scanned for a destination they no longer have; with `since`, only
   * among links created or changed from then on (an indexed range, cheap to ask often).
   */
  async owed(limit: number, since: string | null): Promise<ScanTarget[]> {
    return this.db
      .selectFrom('links')
      .leftJoin('link_scans', 'link_scans.link_id', 'links.id')
      .select(['links.id', 'links.url', 'links.code', 'links.namespace', 'links.slug'])
      .where((eb) => eb.or([eb('link_scans.link_id', 'is', null), eb('link_scans.url', '!=', eb.ref('links.url'))]))
      .$if(since !== null, (q) => q.where('links.updated_at', '>=', since!))
      .orderBy('links.updated_at')
      .limit(limit)
      .execute();
  }
}
