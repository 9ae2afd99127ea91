import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Charge, ChargeResult, CounterStore } from './counters.js';

/** Counters kept in the database, for quotas that must survive a restart (monthly requests). */
export class DatabaseCounterStore implements CounterStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
  ) {}

  /** All or nothing, in one transaction; each increment is conditional, so concurrent instances cannot overshoot. */
  async charge(charges: Charge[]): Promise<ChargeResult> {
    if (charges.length === 0) return { allowed: true, counts: [] };
    return this.db.transaction().execute(async (trx) => {
      const counts: number[] = [];
      for (const c of charges) {
        const expiresAt = new Date(c.resetAtMs).toISOString();
        const row =
          c.amount > c.limit
            ? undefined
            : await trx
                .insertInto('usage_counters')
                .values({ key: c.key, count: c.amount, expires_at: expiresAt })
                .onConflict((oc) =>
                  oc
                    .column('key')
                    .doUpdateSet({ count: sql`usage_counters.count + ${c.amount}` })
                    .where(sql<boolean>`usage_counters.count + ${c.amount} <= ${c.limit}`),
                )
                .returning('count')
                .executeTakeFirst();
        if (!row) {
          // Refused: undo what this transaction already counted by failing it, and report where counts stand.
          const standing = await readCounts(trx, charges.map((x) => x.key));
          throw new RefusedCharge(standing);
        }
        counts.push(Number(row.count));
      }
      return { allowed: true, counts };
    }).catch((error: unknown) => {
      if (error instanceof RefusedCharge) return { allowed: false, counts: error.counts };
      throw error;
    });
  }

  async refund(charges: Charge[]): Promise<void> {
    for (const c of charges) {
      await this.db
        .updateTable('usage_counters')
        .set({ count: sql`case when count > ${c.amount} then count - ${c.amount} else 0 end` })
        .where('key', '=', c.key)
        .execute();
    }
  }

  read(keys: string[]): Promise<number[]> {
    return readCounts(this.db, keys);
  }

  /** Drops counters of periods that have ended. */
  async sweep(): Promise<void> {
    await this.db.deleteFrom('usage_counters').where('expires_at', '<', new Date(this.now()).toISOString()).execute();
  }
}

async function readCounts(db: Kysely<Database>, keys: string[]): Promise<number[]> {
  if (keys.length === 0) return [];
  const rows = await db.selectFrom('usage_counters').select(['key', 'count']).where('key', 'in', keys).execute();
  const byKey = new Map(rows.map((r) => [r.key, Number(r.count)]));
  return keys.map((k) => byKey.get(k) ?? 0);
}

class RefusedCharge extends Error {
  constructor(readonly counts: number[]) {
    super('charge refused');
  }
}
