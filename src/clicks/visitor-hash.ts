import { hash } from 'node:crypto';
import { dayOf } from './day.js';

/**
 * Counts unique visitors without storing an IP: sha256 over a salt that changes every UTC day, the IP and the
 * user agent. Today's hashes of recent visitors are remembered, since the hash runs on the redirect path.
 */
export class VisitorHasher {
  private salt: { day: string; value: string } = { day: '', value: '' };
  private readonly visitors = new Map<string, string>();

  constructor(private readonly secret: string) {}

  of(ip: string, userAgent: string, atMs: number): string {
    const day = dayOf(atMs);
    if (this.salt.day !== day) {
      this.salt = { day, value: hash('sha256', `${this.secret}:${day}`) };
      this.visitors.clear();
    }
    const key = `${ip}|${userAgent}`;
    let visitor = this.visitors.get(key);
    if (visitor === undefined) {
      if (this.visitors.size >= 10_000) this.visitors.clear();
      visitor = hash('sha256', `${this.salt.value}|${key}`).slice(0, 32);
      this.visitors.set(key, visitor);
    }
    return visitor;
  }
}
