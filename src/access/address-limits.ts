import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { errors, type AppError } from '../errors.js';
import type { CounterStore } from '../usage/counters.js';
import { sourceOf } from '../net/address-source.js';

const WINDOW_MS = 60_000;
/** What a visitor's requests make Snip store is counted per hour: rows outlive a minute by far. */
const STORE_WINDOW_MS = 3_600_000;

/**
 * What anyone may ask of Snip without a key, per client address and minute: the public QR images, trust scores,
 * statistics pages, previews, domain checks, and the redirect path's misses (unknown codes cost a lookup each).
 * The counters are the rate limits' own (shared through Redis when it is configured), so every instance refuses
 * an address that is over its budget on any of them. Redirects that find their link are never limited here.
 */
export class AddressLimits {
  /** Addresses this instance refused, until their minute ends: the redirect path refuses them without a lookup. */
  private readonly blocked = new Map<string, number>();

  constructor(
    private readonly store: CounterStore,
    private readonly clock: Clock,
    private readonly perMinute: number | null,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Charges one request of `address`; a 429 RATE_LIMITED with Retry-After when its minute's budget is spent. An IPv6
   * address counts as its /64 (src/net/address-source.ts): its holder picks addresses in it freely.
   */
  async admit(address: string): Promise<void> {
    if (this.perMinute === null) return;
    // Known to be over: refused from memory, so a flood of refused requests costs no counter round trip.
    this.refuseIfBlocked(address);
    const source = sourceOf(address);
    const now = this.clock.now().getTime();
    const resetAtMs = (Math.floor(now / WINDOW_MS) + 1) * WINDOW_MS;
    let allowed = true;
    try {
      ({ allowed } = await this.store.charge([{ key: `addr:${source}:${resetAtMs}`, limit: this.perMinute, amount: 1, resetAtMs }]));
    } catch (error) {
      // As for the API's rate limits: counters that cannot be reached do not take the public pages down with them.
      this.log.error({ err: error }, 'per-address counters unavailable; request admitted uncounted');
    }
    if (!allowed) {
      this.blocked.set(source, resetAtMs);
      throw this.refusal(resetAtMs - now);
    }
  }

  /**
   * Whether `address` (its IPv6 /64: src/net/address-source.ts) may make Snip store one more row of `kind` (a web2app
   * session) this hour: as many an hour as the budget allows a minute, on the same counters, per kind. Never a
   * refusal and never a block: the caller answers as it would, only without storing the row, so a redirect over the
   * bound is neither refused nor slowed.
   */
  async mayStore(address: string, kind: string): Promise<boolean> {
    if (this.perMinute === null) return true;
    const resetAtMs = (Math.floor(this.clock.now().getTime() / STORE_WINDOW_MS) + 1) * STORE_WINDOW_MS;
    try {
      return (await this.store.charge([{ key: `store:${kind}:${sourceOf(address)}:${resetAtMs}`, limit: this.perMinute, amount: 1, resetAtMs }])).allowed;
    } catch (error) {
      this.log.error({ err: error }, 'per-address counters unavailable; row stored uncounted');
      return true;
    }
  }

  /**
   * Refuses an address that is over its budget this minute, from memory, so the redirect path can check every
   * request for the cost of a Map lookup: once an address has spent its misses, its hits are refused too, or it
   * could go on telling taken codes (302) from free ones (429) at full speed.
   */
  refuseIfBlocked(address: string): void {
    const msLeft = this.blockedFor(address);
    if (msLeft > 0) throw this.refusal(msLeft);
  }

  /** The same question without the refusal: the redirect's fast path leaves a blocked address to the full path. */
  isBlocked(address: string): boolean {
    return this.blockedFor(address) > 0;
  }

  private blockedFor(address: string): number {
    if (this.blocked.size === 0) return 0;
    const source = sourceOf(address);
    const until = this.blocked.get(source);
    if (until === undefined) return 0;
    const now = this.clock.now().getTime();
    if (until > now) return until - now;
    this.blocked.delete(source);
    return 0;
  }

  private refusal(msLeft: number): AppError {
    return errors.rateLimited(this.perMinute!, 'requests per minute from one address').withHeaders({
      'retry-after': String(Math.max(1, Math.ceil(msLeft / 1000))),
      'x-ratelimit-limit': String(this.perMinute),
      'x-ratelimit-remaining': '0',
    });
  }
}
