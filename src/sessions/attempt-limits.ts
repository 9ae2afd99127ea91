import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { errors } from '../errors.js';
import type { Charge, CounterStore } from '../usage/counters.js';

const WINDOW_MS = 15 * 60_000;
/** Wrong passwords one account may be tried with per window, from anywhere: guessing one password stays slow. */
export const FAILURES_PER_ACCOUNT = 10;

/**
 * Sign-in and sign-up cost a password hash each (tens of milliseconds of CPU), so failures are counted per account
 * and per client address, in the rate limits' counters (shared through Redis when it is configured). A request is
 * charged before its password is checked and refunded when it succeeds, so concurrent guesses cannot all slip
 * under the limit and people who type their password right are never counted.
 */
export class AttemptLimits {
  constructor(
    private readonly store: CounterStore,
    private readonly clock: Clock,
    private readonly perAddress: number | null,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Charges one attempt; throws 429 TOO_MANY_SIGN_IN_ATTEMPTS when the address or the account is over. */
  async charge(address: string, email: string | null): Promise<() => Promise<void>> {
    const now = this.clock.now().getTime();
    const resetAtMs = (Math.floor(now / WINDOW_MS) + 1) * WINDOW_MS;
    const charges: Charge[] = [];
    if (this.perAddress !== null) charges.push({ key: `auth:addr:${address}:${resetAtMs}`, limit: this.perAddress, amount: 1, resetAtMs });
    if (email !== null) charges.push({ key: `auth:acct:${email}:${resetAtMs}`, limit: FAILURES_PER_ACCOUNT, amount: 1, resetAtMs });
    if (charges.length === 0) return async () => {};
    let allowed: boolean;
    try {
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
      await this.store.refund(charges).catch((error: unknown) => this.log.error({ err: error }, 'sign-in counter refund failed'));
    };
  }
}
