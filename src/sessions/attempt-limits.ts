import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { errors } from '../errors.js';
import type { Charge, CounterStore } from '../usage/counters.js';
import { sourceOf } from '../net/address-source.js';

const WINDOW_MS = 15 * 60_000;
/** Wrong passwords one account may be tried with per window from one source (an IPv4 address or an IPv6 /64). */
export const FAILURES_PER_SOURCE = 10;
/**
 * Wrong passwords one account may be tried with per window from all sources together before it counts as under a
 * distributed attack. Past it, a source may fail once per window for that account: one that has failed is refused,
 * one that has not still has its try, so the owner's right password from anywhere else still signs in.
 */
export const FAILURES_PER_ACCOUNT = 50;
/** A source the account signed in from stays known this long; the account-wide ceiling does not apply to it. */
const KNOWN_SOURCE_MS = 30 * 86_400_000;
/** The account-wide count only measures; what refuses is each source's own counter. */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/**
 * Sign-in and sign-up cost a password hash each (tens of milliseconds of CPU), so attempts are counted before the hash:
 * per client source (an IPv4 address or an IPv6 /64) across accounts (AUTH_ATTEMPTS_PER_ADDRESS), per account and source, and per account from
 * everywhere, in the rate limits' counters (shared through Redis when it is configured). A charge is refunded when
 * the password was right, so concurrent guesses cannot all slip under a limit and people who type their password
 * right are never counted. Failures from one source never refuse another source: a stranger cannot lock the owner out.
 */
export class AttemptLimits {
  constructor(
    private readonly store: CounterStore,
    private readonly clock: Clock,
    private readonly perAddress: number | null,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Charges one attempt; throws 429 TOO_MANY_SIGN_IN_ATTEMPTS when the address, or this source for the account, is
   * over. Answers what to call when the password was right: it refunds the attempt and remembers the source.
   */
  async charge(address: string, email: string | null): Promise<() => Promise<void>> {
    const now = this.clock.now().getTime();
    const resetAtMs = (Math.floor(now / WINDOW_MS) + 1) * WINDOW_MS;
    const charges: Charge[] = [];
    const source = sourceOf(address);
    if (this.perAddress !== null) charges.push({ key: `auth:addr:${source}:${resetAtMs}`, limit: this.perAddress, amount: 1, resetAtMs });
    const known = email === null ? null : `auth:known:${email}:${source}`;
    let allowed: boolean;
    try {
      if (email !== null && known !== null) {
        const account = `auth:acct:${email}:${resetAtMs}`;
        // Read, then charged atomically with a limit that depends on it: at the ceiling a few concurrent failures may
        // still count, but a source's own limit (1 under attack) is enforced exactly.
        const [accountFailures = 0, knownCount = 0] = await this.store.read([account, known]);
        const underAttack = accountFailures >= FAILURES_PER_ACCOUNT && knownCount === 0;
        charges.push(
          { key: `auth:src:${email}:${source}:${resetAtMs}`, limit: underAttack ? 1 : FAILURES_PER_SOURCE, amount: 1, resetAtMs },
          { key: account, limit: UNBOUNDED, amount: 1, resetAtMs },
        );
      }
      if (charges.length === 0) return async () => {};
      ({ allowed } = await this.store.charge(charges));
    } catch (error) {
      this.log.error({ err: error }, 'sign-in counters unavailable; attempt admitted uncounted');
      return async () => {};
    }
    if (!allowed) {
      const seconds = Math.max(1, Math.ceil((resetAtMs - now) / 1000));
      throw errors.tooManySignInAttempts(Math.ceil(seconds / 60)).withHeaders({ 'retry-after': String(seconds) });
    }
    return async () => {
      const remember: Charge[] = known === null ? [] : [{ key: known, limit: UNBOUNDED, amount: 1, resetAtMs: this.clock.now().getTime() + KNOWN_SOURCE_MS }];
      await Promise.all([this.store.refund(charges), this.store.charge(remember)]).catch((error: unknown) => this.log.error({ err: error }, 'sign-in counter refund failed'));
    };
  }
}
