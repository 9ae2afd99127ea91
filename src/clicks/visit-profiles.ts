import type { GeoIp } from './geoip.js';
import { referrerHost } from './user-agent.js';
import type { CapturedVisit } from './visit.js';
import { profileOf, type VisitProfile } from './visit-profile.js';
import type { VisitorHasher } from './visitor-hash.js';

/** Profiles remembered; past it they start again (made-up user agents or referrers cannot grow it). */
const CAPACITY = 10_000;
/** Longer user agents and referrers are rare and attacker-made: their visits get a profile of their own. */
const LONGEST_REMEMBERED = 1_024;
const HOUR_MS = 3_600_000;

/**
 * The profiles of this UTC hour's visits (src/clicks/visit-profile.ts), by user agent, address and link (with the
 * referrer and destination when there are any): a repeat visit gets the same profile back from three map lookups,
 * with no key built, no hash, no place looked up and no user agent parsed. They start again every hour, so a profile's
 * day, hour and billing cycle hold for every visit it is given to.
 */
export class VisitProfiles {
  private readonly byUserAgent = new Map<string, Map<string, Map<string, VisitProfile>>>();
  private size = 0;
  private hourFromMs = 0;
  private hourToMs = -1;

  constructor(
    private readonly visitors: VisitorHasher,
    private readonly geo: Pick<GeoIp, 'lookup'>,
  ) {}

  of(c: CapturedVisit, atMs: number): VisitProfile {
    if (atMs < this.hourFromMs || atMs >= this.hourToMs) this.startHour(atMs);
    const agent = c.agent ?? null;
    const link = c.referer === undefined && c.destination === undefined ? c.linkId : `${c.linkId}\n${c.referer ?? ''}\n${c.destination ?? ''}`;
    if (c.userAgent.length + link.length > LONGEST_REMEMBERED) return this.profile(c, agent, atMs);
    // An agent's visit has no visitor: every address shares its profile.
    const who = agent === null ? c.ip : '';
    let byAddress = this.byUserAgent.get(c.userAgent);
    if (byAddress === undefined) this.byUserAgent.set(c.userAgent, (byAddress = new Map()));
    let byLink = byAddress.get(who);
    if (byLink === undefined) byAddress.set(who, (byLink = new Map()));
    let profile = byLink.get(link);
    // A link handed to another account, or a user agent judged differently, makes a new profile.
    if (profile === undefined || profile.accountId !== c.accountId || profile.agent !== agent) {
      if (this.size >= CAPACITY) {
        this.byUserAgent.clear();
        this.size = 0;
        return this.of(c, atMs);
      }
      profile = this.profile(c, agent, atMs);
      if (!byLink.has(link)) this.size += 1;
      byLink.set(link, profile);
    }
    return profile;
  }

  /** What the visit records (src/clicks/recorder.ts): an agent's visit only by agent and day, a person's in full. */
  private profile(c: CapturedVisit, agent: string | null, atMs: number): VisitProfile {
    const person = agent === null;
    const place = person ? this.geo.lookup(c.ip) : null;
    return profileOf(
      {
        linkId: c.linkId,
        accountId: c.accountId,
        visitor: person ? this.visitors.of(c.ip, c.userAgent, atMs) : '',
        address: person ? this.visitors.address(c.ip, atMs) : '',
        destination: c.destination ?? null,
        country: place?.country ?? null,
        region: place?.region ?? null,
        city: place?.city ?? null,
        userAgent: c.userAgent,
        referrer: person ? this.visitors.referrer(c.ip, referrerHost(c.referer), atMs) : null,
        agent,
      },
      atMs,
    );
  }

  private startHour(atMs: number): void {
    this.hourFromMs = atMs - (atMs % HOUR_MS);
    this.hourToMs = this.hourFromMs + HOUR_MS;
    this.byUserAgent.clear();
    this.size = 0;
  }
}
