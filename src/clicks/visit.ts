/**
 * A counted visit as the redirect captures it: everything the analytics need except what is derived later
 * (browser, OS, device from the user agent). No raw IP: `visitor` is already the salted hash.
 */
export interface Visit {
  linkId: string;
  accountId: string;
  atMs: number;
  visitor: string;
  /**
   * The address alone, hashed the same way (src/clicks/visitor-hash.ts): what rotating user agents cannot change.
   * Affiliate payouts count it; '' for agents, and for visits journaled before it was kept.
   */
  address: string;
  country: string | null;
  region: string | null;
  city: string | null;
  userAgent: string;
  referrer: string | null;
  /** The URL a link's rules or A/B split sent the visitor to; null for a link without routing. */
  destination: string | null;
  /** True when the redirect already counted the click on the link (capped links count synchronously). */
  counted: boolean;
  /**
   * The AI agent that followed the link (src/clicks/agents.ts): such a visit is counted apart, in agent_clicks,
   * and is never a click of the link, a tracked click or a `link.click` event. Null for people.
   */
  agent: string | null;
}

/** What the redirect hands over for a counted visit. */
export interface CapturedVisit {
  linkId: string;
  accountId: string;
  ip: string;
  userAgent: string;
  referer: string | undefined;
  counted: boolean;
  /** The AI agent that followed the link; null (or absent) for a person. */
  agent?: string | null;
  /** Where the link's rules or A/B split sent the visitor; absent for a link without routing. */
  destination?: string;
}
