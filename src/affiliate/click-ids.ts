import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '../ids.js';

const SIGNATURE_LENGTH = 22;
const PATTERN = /^(prt_[A-Za-z0-9]+)\.([A-Za-z0-9]{12})\.([A-Za-z0-9_-]{22})$/;

/**
 * Click ids (`snip_cid`) for CPA partner links: `<partnership>.<random>.<signature>`. The redirect mints one per
 * counted click with no database write; a reported conversion proves its click id with the signature, and the
 * conversions table (keyed by click id) makes each convert at most once.
 */
export class ClickIds {
  constructor(private readonly secret: string) {}

  issue(partnershipId: string): string {
    const body = `${partnershipId}.${randomBase62(12)}`;
    return `${body}.${this.sign(body)}`;
  }

  /** The partnership a genuine click id belongs to; null for anything this installation did not mint. */
  partnershipOf(clickId: string): string | null {
    const match = PATTERN.exec(clickId);
    if (!match) return null;
    const expected = Buffer.from(this.sign(`${match[1]}.${match[2]}`));
    const given = Buffer.from(match[3]!);
    return expected.length === given.length && timingSafeEqual(expected, given) ? match[1]! : null;
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url').slice(0, SIGNATURE_LENGTH);
  }
}
