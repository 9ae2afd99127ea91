/** One counter to charge: at most `limit` in the period that ends at `resetAtMs`. */
export interface Charge {
  key: string;
  limit: number;
  amount: number;
  resetAtMs: number;
}

/** Counts after the charge (or, when refused, as they stand). */
export interface ChargeResult {
  allowed: boolean;
  counts: number[];
}

/**
 * Where counters live. `charge` is all or nothing: either every counter has room and all are incremented,
 * or none is touched. `refund` gives back a charge that was made.
 */
export interface CounterStore {
  charge(charges: Charge[]): Promise<ChargeResult>;
  refund(charges: Charge[]): Promise<void>;
  read(keys: string[]): Promise<number[]>;
}

/** Per-instance counters in memory (spec 8.2: "kept in memory per running instance"). */
export class MemoryCounterStore implements CounterStore {
  private readonly counters = new Map<string, { count: number; resetAtMs: number }>();

  private charges = 0;

  constructor(private readonly now: () => number) {}

  /** Keys carry their window, so ended windows are never read again: drop them every so often. */
  private sweepNowAndThen(): void {
    if (++this.charges % 1_000 !== 0) return;
    const now = this.now();
    for (const [key, entry] of this.counters) if (entry.resetAtMs <= now) this.counters.delete(key);
  }

  private current(key: string): number {
    const entry = this.counters.get(key);
    if (!entry) return 0;
    if (entry.resetAtMs <= this.now()) {
      this.counters.delete(key);
      return 0;
    }
    return entry.count;
  }

  async charge(charges: Charge[]): Promise<ChargeResult> {
    this.sweepNowAndThen();
    const counts = charges.map((c) => this.current(c.key));
    if (charges.some((c, i) => counts[i]! + c.amount > c.limit)) return { allowed: false, counts };
    charges.forEach((c, i) => this.counters.set(c.key, { count: counts[i]! + c.amount, resetAtMs: c.resetAtMs }));
    return { allowed: true, counts: charges.map((c, i) => counts[i]! + c.amount) };
  }

  async refund(charges: Charge[]): Promise<void> {
    for (const c of charges) {
      const entry = this.counters.get(c.key);
      if (entry) entry.count = Math.max(0, entry.count - c.amount);
    }
  }

  async read(keys: string[]): Promise<number[]> {
    return keys.map((k) => this.current(k));
  }
}
