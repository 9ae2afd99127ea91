import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';
import { errors } from '../errors.js';
import { randomBase62, secretHash as hashOf } from '../ids.js';
import type { Platform } from './app-targets.js';
import { PeriodicSweep, type SweepFailures } from '../runtime/periodic-sweep.js';
import type { Web2appRepository, Web2appSessionRow } from './repository.js';

/** How long an app has to claim the click that sent its user to the store (spec: short-lived; Snip: 24 h). */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
/** Expired sessions are kept this long for the owner to look up, then deleted. */
const KEEP_EXPIRED_MS = 7 * 24 * 60 * 60 * 1000;
const SWEEP_MS = 60 * 60 * 1000;
const ID_PATTERN = /^w2a_[A-Za-z0-9]{32}$/;


export interface ClaimedSession {
  shortCode: string;
  platform: Platform;
  deepLink: string;
  params: Record<string, string>;
}

/** How many sessions one address may open (src/access/address-limits.ts): past the bound, no session is stored. */
export interface SessionBound {
  mayStore(address: string, kind: 'web2app'): Promise<boolean>;
}

export interface Web2appSession {
  id: string;
  shortCode: string;
  platform: Platform;
  claimed: boolean;
  claimedAt: string | null;
  createdAt: string;
  expiresAt: string;
}

/**
 * Deferred deep linking: a phone click on a link with app targets opens a session (an unguessable id, only its
 * hash stored) tying the click to the app target and the link's parameters; the app, once installed and opened,
 * claims it exactly once.
 */
export class Web2appService {
  private readonly sweeps = new PeriodicSweep(() => this.sweep(), SWEEP_MS);

  constructor(
    private readonly repo: Web2appRepository,
    private readonly clock: Clock,
    private readonly bound: SessionBound,
  ) {}

  /** Sweeps expired sessions hourly (the server's background work; the CLI never runs it). */
  start(failures: SweepFailures): void {
    this.sweeps.start(failures);
  }

  stop(): void {
    this.sweeps.stop();
  }

  /**
   * Opens a session for a click from `address`; answers its id, which the visitor's deep link and store URL carry as
   * `snip_sid`. Null when the address has opened as many as it may this hour: the visitor still gets the app page,
   * only without a session, so a phone (or a script posing as one) cannot make Snip store rows without bound.
   */
  async open(link: { id: string; accountId: string; code: string }, platform: Platform, deepLink: string, params: Record<string, string>, address: string): Promise<string | null> {
    if (!(await this.bound.mayStore(address, 'web2app'))) return null;
    const id = `w2a_${randomBase62(32)}`;
    const now = this.clock.now();
    await this.repo.insert({
      id_hash: hashOf(id),
      link_id: link.id,
      account_id: link.accountId,
      short_code: link.code,
      platform,
      deep_link: deepLink,
      params: JSON.stringify(params),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
      claimed_at: null,
    });
    return id;
  }

  /** The app's claim: once. A second claim is 409; an unknown or expired id 404. */
  async claim(id: string): Promise<ClaimedSession> {
    if (!ID_PATTERN.test(id)) throw errors.web2appSessionNotFound();
    const now = this.clock.now().toISOString();
    const row = await this.repo.claim(hashOf(id), now);
    if (row) return { shortCode: row.short_code, platform: row.platform as Platform, deepLink: row.deep_link, params: JSON.parse(row.params) as Record<string, string> };
    const existing = await this.repo.find(hashOf(id));
    if (!existing || existing.expires_at <= now) throw errors.web2appSessionNotFound();
    throw errors.web2appSessionClaimed();
  }

  /** A session of one of the caller's links; anyone else's is the 404 of an unknown one. */
  async get(caller: Caller, id: string): Promise<Web2appSession> {
    const row = ID_PATTERN.test(id) ? await this.repo.find(hashOf(id)) : undefined;
    if (!row || row.account_id !== caller.accountId) throw errors.web2appSessionNotFound();
    return present(id, row);
  }

  /** Drops sessions that expired a week ago. */
  sweep(): Promise<number> {
    return this.repo.deleteExpired(new Date(this.clock.now().getTime() - KEEP_EXPIRED_MS).toISOString());
  }
}

const present = (id: string, row: Web2appSessionRow): Web2appSession => ({
  id,
  shortCode: row.short_code,
  platform: row.platform as Platform,
  claimed: row.claimed_at !== null,
  claimedAt: row.claimed_at,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});
