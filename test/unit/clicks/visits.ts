import type { AccountClickState } from '../../../src/clicks/repository.js';
import type { Visit } from '../../../src/clicks/visit.js';

export const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0';
export const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/** A person's visit with every field set; `overrides` change what a case is about. */
export function visit(overrides: Partial<Visit> = {}): Visit {
  return {
    linkId: 'link-1',
    accountId: 'acct-1',
    atMs: Date.parse('2026-05-20T10:15:00Z'),
    visitor: 'visitor-1',
    address: 'address-1',
    country: 'DE',
    region: 'BE',
    city: 'Berlin',
    userAgent: FIREFOX,
    referrer: 'news.example',
    destination: null,
    counted: false,
    agent: null,
    ...overrides,
  };
}

/** An account's row as a click batch reads it: `tracked` clicks so far in the cycle. */
export const account = (id: string, tier: string, tracked: number, extra: Partial<AccountClickState> = {}): AccountClickState => ({
  account_id: id,
  tier,
  role: 'member',
  tracked_clicks: tracked,
  overage_limit_cents: null,
  grace_started_at: null,
  ...extra,
});
