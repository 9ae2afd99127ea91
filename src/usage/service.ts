import type { FastifyBaseLogger } from 'fastify';
import type { Caller } from '../caller.js';
import { limitsOf, type Plans } from '../plans.js';
import type { Clock } from '../clock.js';
import { errors, type AppError } from '../errors.js';
import type { Charge, CounterStore } from './counters.js';
import { COUNTED_LIMITS, periodAt, type CountedLimit } from './windows.js';

/** Where one counted limit stands for the caller after a request. */
export interface LimitState {
  name: CountedLimit;
  limit: number;
  remaining: number;
  resetAtMs: number;
}

export interface RequestKind {
  /** Counts against Description A's hourly and monthly API quotas (routes that need API access). */
  apiQuota: boolean;
  /** Counts against the plan's requests per minute (every call made with a key). */
  perMinute: boolean;
  /** Counts against the bulk requests per hour. */
  bulk: boolean;
}

export function rateLimitHeaders(state: LimitState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(Math.max(0, state.remaining)),
    'x-ratelimit-reset': String(Math.ceil(state.resetAtMs / 1000)),
  };
}

const LABELS: Record<CountedLimit, string> = {
  requestsPerMinute: 'requests per minute',
  requestsPerHour: 'requests per hour',
  requestsPerMonth: 'requests per month',
  bulkRequestsPerHour: 'bulk requests per hour',
  linksPerDay: 'links per day',
};

/**
 * The plan's counted limits (spec 8.1 and 8.2, which measure different things and so both apply). Every
 * charge is all or nothing: a refused request counts against nothing.
 */
export class UsageService {
  constructor(
    private readonly plans: Plans,
    private readonly fast: CounterStore,
    private readonly durable: CounterStore,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Charges one API request. Returns the window closest to running out (null when nothing is limited) and a
   * refund, for a request that is refused later on (a 429 from the daily link limit must cost nothing).
   */
  async chargeRequest(caller: Caller, kind: RequestKind): Promise<{ state: LimitState | null; refund: () => Promise<void> }> {
    const names: CountedLimit[] = kind.perMinute ? ['requestsPerMinute'] : [];
    if (kind.apiQuota) names.push('requestsPerHour', 'requestsPerMonth');
    if (kind.bulk) names.push('bulkRequestsPerHour');
    return this.charge(caller, names, 1);
  }

  /** Charges `count` new links against the daily link limit; the returned function gives them back. */
  async chargeLinks(caller: Caller, count: number): Promise<() => Promise<void>> {
    if (count <= 0) return async () => {};
    return (await this.charge(caller, ['linksPerDay'], count)).refund;
  }

  /**
   * A dry run's charge: refuses as `chargeLinks(caller, count)` would after `before` links the same dry run would
   * already have made, and counts nothing.
   */
  async checkLinks(caller: Caller, before: number, count: number): Promise<void> {
    if (count <= 0) return;
    const planned = this.chargesFor(caller, ['linksPerDay'], before + count);
    if (planned.length === 0) return;
    const counts = await this.tryRead(planned);
    if (planned.some((p, i) => (counts[i] ?? 0) + before + count > p.charge.limit)) throw this.refusal(planned, counts, before + count);
  }

  /** Gives back `count` links of today's charge (items that failed after their bulk request was charged). */
  async refundLinks(caller: Caller, count: number): Promise<void> {
    await this.fast.refund(this.chargesFor(caller, ['linksPerDay'], count).map((p) => p.charge));
  }

  private chargesFor(caller: Caller, names: CountedLimit[], amount: number) {
    const now = this.clock.now().getTime();
    const plan = limitsOf(this.plans, caller);
    return names.flatMap((name) => {
      const limit = plan[name];
      if (limit === null) return [];
      const { period, durable } = COUNTED_LIMITS[name];
      const { startMs, endMs } = periodAt(period, now);
      const charge: Charge = { key: `usage:${caller.accountId}:${name}:${startMs}`, limit, amount, resetAtMs: endMs };
      return [{ name, durable, charge }];
    });
  }

  private async charge(
    caller: Caller,
    names: CountedLimit[],
    amount: number,
  ): Promise<{ state: LimitState | null; refund: () => Promise<void> }> {
    const planned = this.chargesFor(caller, names, amount);
    if (planned.length === 0) return { state: null, refund: async () => {} };
    const fast = planned.filter((p) => !p.durable);
    const durable = planned.filter((p) => p.durable);

    const fastResult = await this.tryCharge(this.fast, fast.map((p) => p.charge));
    if (!fastResult.allowed) {
      // Describe every exhausted window, the durable ones too, so Retry-After names the one that frees last.
      const durableCounts = await this.durable.read(durable.map((p) => p.charge.key));
      throw this.refusal([...fast, ...durable], [...fastResult.counts, ...durableCounts], amount);
    }
    const durableResult = await this.tryCharge(this.durable, durable.map((p) => p.charge));
    if (!durableResult.allowed) {
      await this.fast.refund(fast.map((p) => p.charge));
      throw this.refusal(durable, durableResult.counts, amount);
    }
    const counts = [...fastResult.counts, ...durableResult.counts];
    const states = [...fast, ...durable].map((p, i) => this.state(p.name, p.charge, counts[i] ?? 0));
    // The window closest to running out: least remaining; on a tie, the one that resets last.
    const state = states.reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.resetAtMs > a.resetAtMs) ? b : a));
    const refund = async () => {
      await this.fast.refund(fast.map((p) => p.charge));
      await this.durable.refund(durable.map((p) => p.charge));
    };
    return { state, refund };
  }

  /** A counter store that cannot be reached does not take the API down with it: the request is let through. */
  private async tryCharge(store: CounterStore, charges: Charge[]) {
    if (charges.length === 0) return { allowed: true, counts: [] as number[] };
    try {
      return await store.charge(charges);
    } catch (error) {
      this.log.error({ err: error }, 'rate-limit counters unavailable; request admitted uncounted');
      return { allowed: true, counts: charges.map(() => 0) };
    }
  }

  /** Today's counts of those windows, without charging; 0 for a store that cannot be reached (as `tryCharge` admits). */
  private async tryRead(planned: { durable: boolean; charge: Charge }[]): Promise<number[]> {
    try {
      return await Promise.all(planned.map(async (p) => (await (p.durable ? this.durable : this.fast).read([p.charge.key]))[0] ?? 0));
    } catch (error) {
      this.log.error({ err: error }, 'rate-limit counters unavailable; dry run checked uncounted');
      return planned.map(() => 0);
    }
  }

  private state(name: CountedLimit, charge: Charge, count: number): LimitState {
    return { name, limit: charge.limit, remaining: charge.limit - count, resetAtMs: charge.resetAtMs };
  }

  private refusal(planned: { name: CountedLimit; charge: Charge }[], counts: number[], amount: number): AppError {
    const exceeded = planned
      .map((p, i) => this.state(p.name, p.charge, counts[i] ?? 0))
      .filter((s, i) => (counts[i] ?? 0) + amount > planned[i]!.charge.limit)
      .reduce((a, b) => (b.resetAtMs > a.resetAtMs ? b : a));
    const retryAfter = Math.max(1, Math.ceil((exceeded.resetAtMs - this.clock.now().getTime()) / 1000));
    return errors.rateLimited(exceeded.limit, LABELS[exceeded.name]).withHeaders({
      ...rateLimitHeaders({ ...exceeded, remaining: Math.max(0, exceeded.remaining) }),
      'retry-after': String(retryAfter),
    });
  }
}
