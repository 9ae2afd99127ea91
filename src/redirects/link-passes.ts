import { createHmac, timingSafeEqual } from 'node:crypto';
import { sourceOf } from '../net/address-source.js';

/** How long a right password lets a browser through a link: a working day, not for ever. */
export const PASS_SECONDS = 12 * 60 * 60;
/** Wrong passwords one address may try on one link per window, before it must wait. */
export const PASSWORD_ATTEMPTS = 10;
const WINDOW_MS = 15 * 60_000;
/** Address-and-link pairs remembered; past it the oldest are forgotten (an attacker needs as many addresses). */
const PAIRS_REMEMBERED = 50_000;

/**
 * Password-protected links: the pass a browser gets for the right password (a cookie per link, an HMAC of the link
 * and its password's hash, so a new password ends every pass at once and no server state is kept per browser), and
 * the bound on wrong guesses per address and link.
 */
export class LinkPasses {
  private readonly failures = new Map<string, { count: number; resetAtMs: number }>();

  constructor(private readonly secret: string) {}

  cookieName(linkId: string): string {
    return `snip_pass_${linkId}`;
  }

  token(linkId: string, passwordHash: string): string {
    return createHmac('sha256', this.secret).update(`${linkId}\n${passwordHash}`).digest('base64url');
  }

  /** Whether a Cookie header carries this link's pass. */
  holds(cookieHeader: string | undefined, linkId: string, passwordHash: string): boolean {
    if (!cookieHeader) return false;
    const name = `${this.cookieName(linkId)}=`;
    const expected = Buffer.from(this.token(linkId, passwordHash));
    for (const part of cookieHeader.split(';')) {
      const cookie = part.trim();
      if (!cookie.startsWith(name)) continue;
      const given = Buffer.from(cookie.slice(name.length));
      if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
    }
    return false;
  }

  /** Seconds until `address` may guess again on this link; 0 when it may now. */
  waitSeconds(address: string, linkId: string, nowMs: number): number {
    const entry = this.failures.get(`${sourceOf(address)}|${linkId}`);
    if (!entry || entry.resetAtMs <= nowMs || entry.count < PASSWORD_ATTEMPTS) return 0;
    return Math.ceil((entry.resetAtMs - nowMs) / 1000);
  }

  failed(address: string, linkId: string, nowMs: number): void {
    const key = `${sourceOf(address)}|${linkId}`;
    const entry = this.failures.get(key);
    if (entry && entry.resetAtMs > nowMs) {
      entry.count += 1;
      return;
    }
    if (this.failures.size >= PAIRS_REMEMBERED) this.failures.delete(this.failures.keys().next().value!);
    this.failures.set(key, { count: 1, resetAtMs: nowMs + WINDOW_MS });
  }
}
