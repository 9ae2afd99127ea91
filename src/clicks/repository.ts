import { sql, type ExpressionBuilder, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Dialect } from '../db/database.js';
import type { ClickRollupsTable, ClicksTable, Database } from '../db/schema.js';
import type { DomainEvents } from '../events/bus.js';
import type { EventOutbox } from '../events/outbox.js';
import type { JournalPosition } from './journal.js';

export type ClickRow = Selectable<ClicksTable>;
export type RollupRow = Selectable<ClickRollupsTable>;

/** Everything one flush writes, committed together (or not at all). */
export interface ClickBatch {
  clicks: ClickRow[];
  /** First-sight candidates for unique visitors, with the rollup key they count towards. */
  visitors: { link_id: string; account_id: string; day: string; visitor: string; grace_cycle: string }[];
  rollups: RollupRow[];
  /** Clicks to add to links' totals (visits the redirect had not counted itself). */
  linkClicks: Map<string, number>;
  usage: {
    account_id: string;
    cycle: string;
    tracked: number;
    grace_started_at: string | null;
    /**
     * The most tracked clicks the account may reach in the cycle when that bound is money (a paid overage with a cap),
     * as the batch read it: instances committing batches judged on the same read never charge past the cap.
     */
    trackedAtMost?: number | null;
  }[];
  checkpoint: { journalId: string; position: JournalPosition } | null;
  /** `link.click` events for the outbox: only visits to accounts with a click webhook. */
  events: DomainEvents['link.click'][];
  /** AI agents' visits, per link, day and agent (src/clicks/agents.ts). */
  agentClicks: { link_id: string; account_id: string; day: string; agent: string; clicks: number }[];
  /**
   * The first tracked visit of each address (src/clicks/visitor-hash.ts) per link and day in this batch, for what
   * other capabilities count per address (affiliate payouts); nothing of it is written here.
   */
  addresses: AddressSighting[];
  /**
   * Imported links whose source click total this batch records as clicks (src/imports): `imported_clicks` goes from
   * `expected` to `remaining` with the clicks, so a crash never leaves the total both shown apart and counted; when
   * it no longer is `expected` (another run recorded them), the whole batch is rolled back with SettleConflict.
   */
  settledImports?: { id: string; expected: number; remaining: number }[];
}

/** Another import recorded these visits first (see ClickBatch.settledImports): nothing of the batch was written. */
export class SettleConflict extends Error {}

export interface AddressSighting {
  link_id: string;
  day: string;
  address: string;
  at: string;
}

/** What another capability writes with each batch, in the batch's transaction (wired in core.ts). */
export type BatchWriter = (trx: Transaction<Database>, batch: Pick<ClickBatch, 'addresses'>) => Promise<void>;

export interface AccountClickState {
  account_id: string;
  tier: string;
  overage_limit_cents: number | null;
  /** An operator's clicks are never capped (src/plans.ts `limitsOf`). */
  role: string;
  tracked_clicks: number;
  grace_started_at: string | null;
}

const CHUNK = 200;

/**
 * Click records kept per link: the API shows the last 100, and everything older lives on in the daily
 * rollups, which is what every aggregate reads. Keeping rows bounded keeps recording cheap at any volume.
 */
export const KEPT_CLICKS_PER_LINK = 100;

async function inChunks<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) await write(rows.slice(i, i + CHUNK));
}

/** A rollup row's key, the order rows are written in. */
const rollupKey = (r: RollupRow) => `${r.link_id}|${r.day}|${r.dimension}|${r.value}|${r.grace_cycle}`;

async function addRollups(trx: Transaction<Database>, rows: RollupRow[]): Promise<void> {
  // In key order: instances committing at once on PostgreSQL lock the rows they share in one order, never crosswise.
  const sorted = rows.map((r) => [rollupKey(r), r] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  await inChunks(sorted.map(([, r]) => r), (chunk) =>
    trx
      .insertInto('click_rollups')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['link_id', 'day', 'dimension', 'value', 'grace_cycle']).doUpdateSet({ clicks: sql`click_rollups.clicks + excluded.clicks` }),
      )
      .execute(),
  );
}

const CLICK_COLUMNS = ['id', 'link_id', 'account_id', 'at', 'country', 'region', 'city', 'browser', 'os', 'device', 'referrer', 'visitor', 'grace_cycle'] as const;

/**
 * Many rows as one JSON parameter, expanded by the database itself (SQLite's jsonb_each, PostgreSQL's
 * json_populate_recordset): a flush of thousands of clicks is one statement whose cost does not grow with
 * query building, which is what keeps recording off the redirect's budget.
 */
function jsonRows(dialect: Dialect, table: 'clicks' | 'click_visitors', columns: readonly string[], rows: object[]) {
  const list = sql.join(columns.map((c) => sql.ref(c)));
  const json = JSON.stringify(rows);
  if (dialect === 'postgres') {
    return sql`insert into ${sql.table(table)} (${list}) select ${list} from json_populate_recordset(null::${sql.table(table)}, ${json}::json)`;
  }
  const values = sql.join(columns.map((c) => sql`value ->> ${sql.lit(c)}`));
  // jsonb(): the text is parsed once. With json_each each `->>` parsed its row's object again, and a flush's 100
  // click records took 1.7 ms of the loop under load instead of about 0.5 (docs/benchmarks.md).
  return sql`insert into ${sql.table(table)} (${list}) select ${values} from jsonb_each(jsonb(${json})) where true`;
}

/**
 * Drops a link's click records older than its newest `keep`, counting visible and grace records apart (grace
 * records are hidden, so they must not push visible ones out). Counts live on in the rollups.
 */
async function pruneClicks(trx: Transaction<Database>, linkId: string, keep: number, graced: boolean): Promise<void> {
  const kind = (eb: ExpressionBuilder<Database, 'clicks'>) => (graced ? eb('grace_cycle', 'is not', null) : eb('grace_cycle', 'is', null));
  const boundary = await trx
    .selectFrom('clicks')
    .select(['at', 'id'])
    .where('link_id', '=', linkId)
    .where(kind)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .offset(keep - 1)
    .limit(1)
    .executeTakeFirst();
  if (!boundary) return;
  await trx
    .deleteFrom('clicks')
    .where('link_id', '=', linkId)
    .where(kind)
    .where((eb) => eb.or([eb('at', '<', boundary.at), eb.and([eb('at', '=', boundary.at), eb('id', '<', boundary.id)])]))
    .execute();
}

/** How often links' click records are trimmed back to the newest KEPT_CLICKS_PER_LINK. */
export const TRIM_EVERY_MS = 5_000;

export class ClicksRepository {
  /** Links (with `v` or `g` for visible or grace records) that got click records since the last trim. */
  private readonly untrimmed = new Set<string>();
  private lastTrimMs = 0;
  private readonly writers: BatchWriter[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly outbox: EventOutbox,
  ) {}

  /**
   * Trims the click records of the links that got some, at most every TRIM_EVERY_MS, in the batch's transaction:
   * a busy link is trimmed a few times a minute rather than with every batch, and holds at most the records of
   * those seconds beyond its newest 100 meanwhile (readers ask for the newest 100, so they never see the rest).
   */
  private async trim(trx: Transaction<Database>): Promise<string[]> {
    const now = Date.now();
    if (this.untrimmed.size === 0 || now - this.lastTrimMs < TRIM_EVERY_MS) return [];
    const kinds = [...this.untrimmed];
    for (const kind of kinds) await pruneClicks(trx, kind.slice(1), KEPT_CLICKS_PER_LINK, kind[0] === 'g');
    return kinds;
  }

  async accountStates(accountIds: string[], cycle: string): Promise<AccountClickState[]> {
    if (accountIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('accounts')
      .leftJoin('account_usage', (join) => join.onRef('account_usage.account_id', '=', 'accounts.id').on('account_usage.cycle', '=', cycle))
      .select(['accounts.id as account_id', 'accounts.tier', 'accounts.role', 'accounts.overage_limit_cents', 'account_usage.tracked_clicks', 'account_usage.grace_started_at'])
      .where('accounts.id', 'in', accountIds)
      .execute();
    return rows.map((r) => ({ ...r, tracked_clicks: Number(r.tracked_clicks ?? 0), overage_limit_cents: r.overage_limit_cents === null ? null : Number(r.overage_limit_cents) }));
  }

  /** Adds what another capability writes with every batch: it commits (or fails) with the clicks. */
  alsoWrite(writer: BatchWriter): void {
    this.writers.push(writer);
  }

  /** Everything of the batch, its click events and the journal checkpoint, in one transaction. */
  async commit(batch: ClickBatch): Promise<void> {
    let trimmed: string[] = [];
    await this.db.transaction().execute(async (trx) => {
      if (batch.events.length > 0) await this.outbox.append(trx, batch.events.map((payload) => ({ event: 'link.click' as const, payload })));
      if (batch.clicks.length > 0) {
        await jsonRows(this.dialect, 'clicks', CLICK_COLUMNS, batch.clicks).execute(trx);
        for (const c of batch.clicks) this.untrimmed.add(`${c.grace_cycle === null ? 'v' : 'g'}${c.link_id}`);
      }
      trimmed = await this.trim(trx);

      const uniques = new Map<string, RollupRow>();
      if (batch.visitors.length > 0) {
        const chunk = batch.visitors;
        const insert = jsonRows(this.dialect, 'click_visitors', ['link_id', 'day', 'visitor'], chunk);
        const { rows: firsts } = await sql<{ link_id: string; day: string; visitor: string }>`${insert} on conflict do nothing returning link_id, day, visitor`.execute(trx);
        const seen = new Set(firsts.map((f) => `${f.link_id}|${f.day}|${f.visitor}`));
        for (const v of chunk) {
          if (!seen.delete(`${v.link_id}|${v.day}|${v.visitor}`)) continue;
          const key = `${v.link_id}|${v.day}|${v.grace_cycle}`;
          const row = uniques.get(key) ?? { link_id: v.link_id, account_id: v.account_id, day: v.day, dimension: 'unique', value: '', grace_cycle: v.grace_cycle, clicks: 0 };
          row.clicks += 1;
          uniques.set(key, row);
        }
      }
      await addRollups(trx, [...batch.rollups, ...uniques.values()]);
      await inChunks(batch.agentClicks, (chunk) =>
        trx
          .insertInto('agent_clicks')
          .values(chunk)
          .onConflict((oc) => oc.columns(['link_id', 'day', 'agent']).doUpdateSet({ clicks: sql`agent_clicks.clicks + excluded.clicks` }))
          .execute(),
      );

      for (const write of this.writers) await write(trx, batch);
      // In id order, like the rollups: concurrent batches lock the links they share in one order.
      for (const [id, n] of [...batch.linkClicks].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        await trx.updateTable('links').set({ clicks: sql`clicks + ${n}` }).where('id', '=', id).execute();
      }
      for (const settle of batch.settledImports ?? []) {
        const done = await trx
          .updateTable('links')
          .set({ imported_clicks: settle.remaining })
          .where('id', '=', settle.id)
          .where('imported_clicks', '=', settle.expected)
          .executeTakeFirst();
        if (Number(done.numUpdatedRows) === 0) throw new SettleConflict(`the visits of ${settle.id} were recorded by another import`);
      }
      const added = sql<number>`account_usage.tracked_clicks + excluded.tracked_clicks`;
      const [least, greatest] = this.dialect === 'postgres' ? ['least', 'greatest'] : ['min', 'max'];
      for (const u of batch.usage) {
        const most = u.trackedAtMost ?? null;
        // Never below what is there (a cap lowered after its clicks were tracked), never past the bound.
        await trx
          .insertInto('account_usage')
          .values({ account_id: u.account_id, cycle: u.cycle, tracked_clicks: most === null ? u.tracked : Math.min(u.tracked, most), grace_started_at: u.grace_started_at })
          .onConflict((oc) =>
            oc.columns(['account_id', 'cycle']).doUpdateSet({
              tracked_clicks: most === null ? added : sql`${sql.raw(greatest)}(account_usage.tracked_clicks, ${sql.raw(least)}(${added}, ${most}))`,
              grace_started_at: sql`coalesce(account_usage.grace_started_at, excluded.grace_started_at)`,
            }),
          )
          .execute();
      }
      if (batch.checkpoint) {
        const { journalId, position } = batch.checkpoint;
        await trx
          .insertInto('journal_checkpoints')
          .values({ journal_id: journalId, segment: position.segment, offset: position.offset })
          .onConflict((oc) => oc.column('journal_id').doUpdateSet({ segment: position.segment, offset: position.offset }))
          .execute();
      }
    });
    if (batch.events.length > 0) this.outbox.committed();
    // Only a committed trim counts: a rolled-back one is owed again with the batch's retry.
    if (trimmed.length > 0) {
      this.lastTrimMs = Date.now();
      for (const kind of trimmed) this.untrimmed.delete(kind);
    }
  }

  async checkpoint(journalId: string): Promise<JournalPosition | null> {
    const row = await this.db.selectFrom('journal_checkpoints').select(['segment', 'offset']).where('journal_id', '=', journalId).executeTakeFirst();
    return row ? { segment: Number(row.segment), offset: Number(row.offset) } : null;
  }

  async dropCheckpoint(journalId: string): Promise<void> {
    await this.db.deleteFrom('journal_checkpoints').where('journal_id', '=', journalId).execute();
  }

  /** A per-installation secret (shared by every instance on the database), created on first use. */
  async secret(name: string, create: () => string): Promise<string> {
    await this.db.insertInto('settings').values({ key: name, value: create() }).onConflict((oc) => oc.doNothing()).execute();
    const row = await this.db.selectFrom('settings').select('value').where('key', '=', name).executeTakeFirstOrThrow();
    return row.value;
  }
}
