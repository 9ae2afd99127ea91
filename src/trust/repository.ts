import { sql, type Kysely, type Selectable } from 'kysely';
import type { Dialect } from '../db/database.js';
import type { Database, LinkScansTable } from '../db/schema.js';
import type { Verdict } from './verdict.js';

export type ScanRow = Selectable<LinkScansTable>;

/** What a scan needs to know of a link, and to name it when it is done. */
export type ScanTarget = { id: string; url: string; code: string; namespace: string | null; slug: string | null; legacyPath: string | null };

export class TrustRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  find(linkId: string): Promise<ScanRow | undefined> {
    return this.db.selectFrom('link_scans').selectAll().where('link_id', '=', linkId).executeTakeFirst();
  }

  /**
   * Saves many verdicts in one statement, each only while its link still has the destination that was scanned (a
   * link re-pointed or deleted meanwhile has its own scan coming). The verdicts go in as one JSON parameter that the
   * database expands (SQLite's jsonb_each, PostgreSQL's json_to_recordset), so a page of verdicts costs one statement
   * to build and run, not one each. Answers the ids saved.
   */
  async saveMany(results: { linkId: string; url: string; verdict: Verdict }[], at: string): Promise<Set<string>> {
    if (results.length === 0) return new Set();
    // One verdict per link and destination, the latest: a statement may not update one row twice.
    const latest = new Map(results.map((r) => [`${r.linkId} ${r.url}`, r]));
    const json = JSON.stringify(
      [...latest.values()].map(({ linkId, url, verdict }) => ({ link_id: linkId, url, score: verdict.score, status: verdict.status, threats: verdict.threats.join(','), source: verdict.source })),
    );
    const verdicts =
      this.dialect === 'postgres'
        ? sql`json_to_recordset(${json}::json) as v(link_id text, url text, score integer, status text, threats text, source text)`
        : sql`(select value ->> 'link_id' as link_id, value ->> 'url' as url, value ->> 'score' as score, value ->> 'status' as status, value ->> 'threats' as threats, value ->> 'source' as source from jsonb_each(jsonb(${json}))) as v`;
    // `where true`: SQLite reads ON CONFLICT after a bare join as the join's own clause.
    const rows = await sql<{ link_id: string }>`
      insert into link_scans (link_id, url, score, status, threats, source, scanned_at)
      select links.id, links.url, cast(v.score as integer), v.status, v.threats, v.source, ${at}
      from ${verdicts} join links on links.id = v.link_id and links.url = v.url
      where true
      on conflict (link_id) do update set url = excluded.url, score = excluded.score, status = excluded.status,
        threats = excluded.threats, source = excluded.source, scanned_at = excluded.scanned_at
      returning link_id`.execute(this.db);
    return new Set(rows.rows.map((r) => r.link_id));
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
