import { hash } from 'node:crypto';
import { sourceOf } from '../net/address-source.js';
import { dayOf } from './day.js';

/**
 * How many distinct user agents (and, apart, referring hosts) one address may bring in a day before the rest of
 * what it sends counts as one: a person or an office shows far fewer, while a script rotating made-up values
 * would otherwise write a visitor row (or a referrer rollup) per request.
 */
export const DISTINCT_PER_ADDRESS = 1_000;

const MEMO_CAPACITY = 10_000;
/** Addresses whose counts are kept; past it they start again (an attacker needs this many addresses to do that). */
const ADDRESSES_COUNTED = 20_000;

/**
 * Counts unique visitors without storing an IP: sha256 over a salt that changes every UTC day, the IP and the
 * user agent. Today's hashes of recent visitors are remembered, since the hash runs on the redirect path.
 *
 * An address is its IPv4 address or its IPv6 /64 (src/net/address-source.ts): `address` is its day's hash with no
 * user agent, what rotating user agents cannot change (affiliate payouts count it). Past DISTINCT_PER_ADDRESS user
 * agents in a day, an address's further ones are all that one address visitor; the same bound keeps one address
 * from bringing more than DISTINCT_PER_ADDRESS referring hosts (`referrer`).
 */
export class VisitorHasher {
  private salt: { day: string; value: string } = { day: '', value: '' };
  private readonly visitors = new Map<string, string>();
  /**
   * Distinct user agents and referrers each address brought today, by `<kind>|<address>`. Kept when the memo is
   * reset (a value seen again after that counts again, so a busy address reaches the bound a little early), so that
   * addresses filling the memo cannot reset their own counts.
   */
  private readonly brought = new Map<string, number>();

  constructor(private readonly secret: string) {}

  of(ip: string, userAgent: string, atMs: number): string {
    this.roll(atMs);
    const key = `${ip}|${userAgent}`;
    const visitor = this.visitors.get(key);
    if (visitor !== undefined) return visitor;
    if (!this.admits('v', ip)) return this.address(ip, atMs);
    return this.remember(key, hash('sha256', `${this.salt.value}|${key}`).slice(0, 32));
  }

  /** The address alone, hashed with the day's salt: one value for every user agent it sends. */
  address(ip: string, atMs: number): string {
    this.roll(atMs);
    const key = `@${ip}`;
    return this.visitors.get(key) ?? this.remember(key, hash('sha256', `${this.salt.value}|@${sourceOf(ip)}`).slice(0, 32));
  }

  /** The referring host as counted: null once the address brought DISTINCT_PER_ADDRESS others today. */
  referrer(ip: string, host: string | null, atMs: number): string | null {
    if (host === null) return null;
    this.roll(atMs);
    const key = `r|${ip}|${host}`;
    if (this.visitors.has(key)) return host;
    if (!this.admits('r', ip)) return null;
    this.remember(key, host);
    return host;
  }

  /**
   * Whether the address may bring one more distinct value of `kind`, counting it if so. A refused value is not
   * remembered, so one address rotating values does not crowd everyone else out of the memo.
   */
  private admits(kind: 'v' | 'r', ip: string): boolean {
    const key = `${kind}|${sourceOf(ip)}`;
    const n = this.brought.get(key) ?? 0;
    if (n >= DISTINCT_PER_ADDRESS) return false;
    if (n === 0 && this.brought.size >= ADDRESSES_COUNTED) this.brought.clear();
    this.brought.set(key, n + 1);
    return true;
  }

  private remember(key: string, value: string): string {
    if (this.visitors.size >= MEMO_CAPACITY) this.visitors.clear();
    this.visitors.set(key, value);
    return value;
  }

  private roll(atMs: number): void {
    const day = dayOf(atMs);
    if (this.salt.day === day) return;
    this.salt = { day, value: hash('sha256', `${this.secret}:${day}`) };
    this.visitors.clear();
    this.brought.clear();
  }
}
