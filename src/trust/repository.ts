import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, LinkScansTable } from '../db/schema.js';
import type { Verdict } from './verdict.js';

export type ScanRow = Selectable<LinkScansTable>;

/** What a scan needs to know of a link, and to name it when it is done. */
export type ScanTarget = { id: string; url: string; code: string; namespace: string | null; slug: string | null; legacyPath: string | null };

export class TrustRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(linkId: string): Promise<ScanRow | undefined> {
    return this.db.selectFrom('link_scans').selectAll().where('link_id', '=', linkId).executeTakeFirst();
  }

  /**
   * Saves many verdicts in one transaction, each only while its link still has the destination that was scanned
   * (a link re-pointed or deleted meanwhile has its own scan coming). Answers the ids saved.
   */
  async saveMany(results: { linkId: string; url: string; verdict: Verdict }[], at: string): Promise<Set<string>> {
    if (results.length === 0) return new Set();
    return this.db.transaction().execute(async (trx) => {
      const saved = new Set<string>();
      for (const { linkId, url, verdict } of results) {
        const row = await trx
          .insertInto('link_scans')
          .columns(['link_id', 'url', 'score', 'status', 'threats', 'source', 'scanned_at'])
          .expression((eb) =>
            eb
              .selectFrom('links')
              .select([
                'links.id',
                'links.url',
                sql<number>`cast(${verdict.score} as integer)`.as('score'),
                sql<string>`cast(${verdict.status} as text)`.as('status'),
                sql<string>`cast(${verdict.threats.join(',')} as text)`.as('threats'),
                sql<string>`cast(${verdict.source} as text)`.as('source'),
                sql<string>`cast(${at} as text)`.as('scanned_at'),
              ])
              .where('links.id', '=', linkId)
              .where('links.url', '=', url),
          )
          .onConflict((oc) =>
            oc.column('link_id').doUpdateSet((eb) => ({
              url: eb.ref('excluded.url'),
              score: eb.ref('excluded.score'),
              status: eb.ref('excluded.status'),
              threats: eb.ref('excluded.threats'),
              source: eb.ref('excluded.source'),
              scanned_at: eb.ref('excluded.scanned_at'),
            })),
          )
          .returning('link_id')
          .executeTakeFirst();
        if (row) saved.add(row.link_id);
      }
      return saved;
    });
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
      .select(['links.id', 'links.url', 'links.code', 'links.namespace', 'links.slug', 'links.legacy_path as legacyPath'])
      .where((eb) => eb.or([eb('link_scans.link_id', 'is', null), eb('link_scans.url', '!=', eb.ref('links.url'))]))
      .$if(since !== null, (q) => q.where('links.updated_at', '>=', since!))
      .orderBy('links.updated_at')
      .limit(limit)
      .execute();
  }
}
