import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { errors } from '../errors.js';
import { sourceOf } from '../net/address-source.js';
import type { Charge, CounterStore } from '../usage/counters.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** How many registrations are admitted (docs/security.md); `perAddress` null: no per-address limit (PUBLIC_REQUESTS_PER_MINUTE=unlimited). */
export interface RegistrationBudget {
  perAddress: { perHour: number; perDay: number } | null;
  /** Registrations no account has connected yet that the server keeps at once, from everyone. */
  unusedInTotal: number;
}

/**
 * Snip's budget: 20 registrations per address in any hour, 100 in any day, and 10,000 not yet connected in all. The
 * per-address limits go with the other per-address ones: off when PUBLIC_REQUESTS_PER_MINUTE is `unlimited` (every
 * client then comes from one address, a proxy's that Snip is not told to look behind).
 */
export function registrationBudget(perAddressLimits: boolean): RegistrationBudget {
  return { perAddress: perAddressLimits ? { perHour: 20, perDay: 100 } : null, unusedInTotal: 10_000 };
}

/**
 * Two counters of one limit over windows twice `spanMs` long, the second grid shifted by `spanMs`: any span of
 * `spanMs` lies inside one window of one of the grids, so at most `limit` are admitted in any such span, across a
 * window's end or not (a single fixed window admits twice its limit to a burst that straddles its end).
 */
function anySpan(prefix: string, limit: number, spanMs: number, nowMs: number): Charge[] {
  const size = 2 * spanMs;
  return [0, spanMs].map((offset) => {
    const endMs = Math.floor((nowMs - offset) / size) * size + offset + size;
    return { key: `${prefix}:${offset}:${endMs}`, limit, amount: 1, resetAtMs: endMs };
  });
}

/**
 * Who may register a client (RFC 7591 is open to anyone): per client address (an IPv6 address's /64), at most so
 * many in any hour and in any day, counted in the rate limits' counters (shared through Redis when it is configured);
 * and at most so many registrations nobody has connected kept at once, counted in the database.
 */
export class RegistrationLimits {
  constructor(
    private readonly store: CounterStore,
    private readonly clock: Clock,
    private readonly unusedSince: (since: string) => Promise<number>,
    /** How long a registration nobody connects is kept (src/oauth/service.ts sweeps it then). */
    private readonly keptUnusedMs: number,
    private readonly budget: RegistrationBudget,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Charges one registration of `address`; a 429 RATE_LIMITED with Retry-After when a limit is reached. */
  async admit(address: string): Promise<void> {
    const now = this.clock.now().getTime();
    const unused = await this.unusedSince(new Date(now - this.keptUnusedMs).toISOString());
    if (unused >= this.budget.unusedInTotal) {
      throw errors.rateLimited(this.budget.unusedInTotal, 'registrations not yet connected on this server').withHeaders({ 'retry-after': String(HOUR / 1000) });
    }
    const perAddress = this.budget.perAddress;
    if (perAddress === null) return;
    const source = sourceOf(address);
    const windows = [
      { limit: perAddress.perHour, spanMs: HOUR, name: 'registrations per hour from one address' },
      { limit: perAddress.perDay, spanMs: DAY, name: 'registrations per day from one address' },
    ].flatMap((window) => anySpan(`oauth-reg:${source}:${window.spanMs}`, window.limit, window.spanMs, now).map((charge) => ({ charge, window })));
    let result;
    try {
      result = await this.store.charge(windows.map((w) => w.charge));
    } catch (error) {
      this.log.error({ err: error }, 'registration counters unavailable; registration admitted uncounted');
      return;
    }
    if (result.allowed) return;
    // Counts as they stood (Redis answers them up to the first counter that was full).
    const counted = windows.filter(({ charge }, i) => (result.counts[i] ?? 0) + charge.amount > charge.limit);
    const full = counted.length > 0 ? counted : windows;
    const waitMs = Math.max(...full.map(({ charge }) => charge.resetAtMs - now));
    throw errors.rateLimited(full[0]!.window.limit, full[0]!.window.name).withHeaders({ 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) });
  }
}
