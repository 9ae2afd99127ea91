import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { ClicksTable, Database } from '../db/schema.js';

/**
 * Which grace-period clicks a reader may see: all of them once the account has paid overage (it upgraded),
 * else only those of cycles that have ended.
 */
export interface Visibility {
  showGrace: boolean;
  currentCycle: string;
}

export type Scope = { linkId: string } | { accountId: string };

export interface DimensionSum {
  dimension: string;
  value: string;
  day: string;
  clicks: number;
}

/** Rollup rows of grace clicks from the current cycle stay hidden (their key holds '' when not grace). */
const hiddenGraceExcluded =
  (visibility: Visibility) =>
  (eb: ExpressionBuilder<Database, 'click_rollups'>) =>
    eb.or([eb('grace_cycle', '=', ''), eb('grace_cycle', '<>', visibility.currentCycle)]);

export class AnalyticsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The latest clicks of a link, newest first. */
  async lastClicks(linkId: string, limit: number, visibility: Visibility): Promise<Selectable<ClicksTable>[]> {
    let query = this.db.selectFrom('clicks').selectAll().where('link_id', '=', linkId);
    if (!visibility.showGrace) {
      query = query.where((eb) => eb.or([eb('grace_cycle', 'is', null), eb('grace_cycle', '<>', visibility.currentCycle)]));
    }
    return query.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /**
   * Rollup sums per dimension and value (and per day for `total`) since `sinceDay`: a year of one link is a few
   * thousand rollup rows however many clicks it had.
   */
  async sums(scope: Scope, sinceDay: string | null, visibility: Visibility): Promise<DimensionSum[]> {
    let query = this.db
      .selectFrom('click_rollups')
      .select(['dimension', 'value', sql<string>`case when dimension = 'total' then day else '' end`.as('day')])
      .select(sql<number>`sum(clicks)`.as('clicks'));
    if (!visibility.showGrace) query = query.where(hiddenGraceExcluded(visibility));
    query = 'linkId' in scope ? query.where('link_id', '=', scope.linkId) : query.where('account_id', '=', scope.accountId);
    if (sinceDay) query = query.where('day', '>=', sinceDay);
    const rows = await query.groupBy(['dimension', 'value', sql`case when dimension = 'total' then day else '' end`]).execute();
    return rows.map((r) => ({ dimension: r.dimension, value: r.value, day: r.day, clicks: Number(r.clicks) }));
  }

  /** A link's visible clicks per (day, hour of day) from `sinceDay` on: what a 24-hour window is summed from. */
  async hourly(linkId: string, sinceDay: string, visibility: Visibility): Promise<{ day: string; hour: number; clicks: number }[]> {
    let query = this.db
      .selectFrom('click_rollups')
      .select(['day', 'value'])
      .select(sql<number>`sum(clicks)`.as('clicks'))
      .where('link_id', '=', linkId)
      .where('dimension', '=', 'hour')
      .where('day', '>=', sinceDay);
    if (!visibility.showGrace) query = query.where(hiddenGraceExcluded(visibility));
    const rows = await query.groupBy(['day', 'value']).execute();
    return rows.map((r) => ({ day: r.day, hour: Number(r.value), clicks: Number(r.clicks) }));
  }

  /** Visible clicks per day of some of an account's links since a day (the links list's trends). */
  async dailyTotals(accountId: string, linkIds: readonly string[], sinceDay: string, visibility: Visibility): Promise<{ linkId: string; day: string; clicks: number }[]> {
    if (linkIds.length === 0) return [];
    let query = this.db
      .selectFrom('click_rollups')
      .select(['link_id', 'day'])
      .select(sql<number>`sum(clicks)`.as('clicks'))
      .where('account_id', '=', accountId)
      .where('link_id', 'in', linkIds)
      .where('dimension', '=', 'total')
      .where('day', '>=', sinceDay);
    if (!visibility.showGrace) query = query.where(hiddenGraceExcluded(visibility));
    const rows = await query.groupBy(['link_id', 'day']).execute();
    return rows.map((r) => ({ linkId: r.link_id, day: r.day, clicks: Number(r.clicks) }));
  }

  /** Visible clicks per link of an account since a day, most first. */
  async topLinks(accountId: string, sinceDay: string, visibility: Visibility, limit: number): Promise<{ linkId: string; clicks: number }[]> {
    let query = this.db
      .selectFrom('click_rollups')
      .select('link_id')
      .select(sql<number>`sum(clicks)`.as('clicks'))
      .where('account_id', '=', accountId)
      .where('dimension', '=', 'total')
      .where('day', '>=', sinceDay);
    if (!visibility.showGrace) query = query.where(hiddenGraceExcluded(visibility));
    const rows = await query.groupBy('link_id').orderBy('clicks', 'desc').limit(limit).execute();
    return rows.map((r) => ({ linkId: r.link_id, clicks: Number(r.clicks) }));
  }

  async usage(accountId: string, cycle: string): Promise<{ tracked: number; graceStartedAt: string | null }> {
    const row = await this.db
      .selectFrom('account_usage')
      .select(['tracked_clicks', 'grace_started_at'])
      .where('account_id', '=', accountId)
      .where('cycle', '=', cycle)
      .executeTakeFirst();
    return { tracked: Number(row?.tracked_clicks ?? 0), graceStartedAt: row?.grace_started_at ?? null };
  }

  /** The tier of a link owner's account, read fresh (what statistics may show depends on it). */
  /** The account's tier and role, which say its limits (src/plans.ts `limitsOf`). */
  accountPlan(accountId: string): Promise<{ tier: string; role: string } | undefined> {
    return this.db.selectFrom('accounts').select(['tier', 'role']).where('id', '=', accountId).executeTakeFirst();
  }

  async overageLimit(accountId: string): Promise<number | null> {
    const row = await this.db.selectFrom('accounts').select('overage_limit_cents').where('id', '=', accountId).executeTakeFirst();
    return row?.overage_limit_cents === null || row?.overage_limit_cents === undefined ? null : Number(row.overage_limit_cents);
  }

  async setOverageLimit(accountId: string, cents: number): Promise<void> {
    await this.db.updateTable('accounts').set({ overage_limit_cents: cents }).where('id', '=', accountId).execute();
  }
}
