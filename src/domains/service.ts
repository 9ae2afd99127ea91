import { randomBytes } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { limitsOf, type Plans } from '../plans.js';
import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';
import { isUniqueViolation } from '../db/database.js';
import { AppError, errors, requireChange } from '../errors.js';
import type { EventBus } from '../events/bus.js';
import type { Dns } from '../net/dns.js';
import { checkNotFoundPage, type NotFoundPage } from './not-found-page.js';
import type { DomainRow, DomainsRepository } from './repository.js';
import { checkDomain, normalHost, pendingCutoff } from './rules.js';

export interface DomainItem {
  domain: string;
  status: DomainRow['status'];
  sslStatus: 'pending' | 'active';
  createdAt: string;
  linkCount: number;
  isDefault: boolean;
  notFoundPage: NotFoundPage | null;
  /** The records to create, as when the domain was added: a pending domain's owner can look them up again. */
  txtRecord: DnsRecords['txtRecord'];
  cnameRecord: DnsRecords['cnameRecord'];
}

interface DnsRecords {
  txtRecord: { name: string; type: 'TXT'; value: string };
  /** Named for the usual case; an A or AAAA record when Snip's address is an IP address (pointerRecord). */
  cnameRecord: { name: string; type: 'CNAME' | 'A' | 'AAAA'; value: string };
}

export interface AddedDomain extends DnsRecords {
  domain: string;
  status: DomainRow['status'];
  verificationToken: string;
}

/** What a request on a custom host needs: whose domain it is and what its unknown paths show. */
export interface ActiveDomain {
  hostname: string;
  accountId: string;
  notFoundPage: NotFoundPage | null;
}

const notFound = () => errors.domainNotFound();
const txtName = (domain: string) => `_snip-verify.${domain}`;
const txtValue = (token: string) => `snip-verify=${token}`;
const ACTIVE_CACHE_MS = 10_000;

const pageOf = (row: DomainRow): NotFoundPage | null => (row.not_found_page ? (JSON.parse(row.not_found_page) as NotFoundPage) : null);

/**
 * The record that points a custom domain at Snip: a CNAME to the CNAME target, a host name. A CNAME cannot name an IP
 * address, so when the target is one (BASE_URL on an IP address and no CNAME_TARGET) the record is an A or AAAA record.
 */
function pointerRecord(domain: string, target: string): DnsRecords['cnameRecord'] {
  const bare = target.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return { name: domain, type: 'CNAME', value: target };
  return { name: domain, type: ipaddr.parse(bare).kind() === 'ipv6' ? 'AAAA' : 'A', value: bare };
}

const recordsOf = (domain: string, token: string, cnameTarget: string): DnsRecords => ({
  txtRecord: { name: txtName(domain), type: 'TXT', value: txtValue(token) },
  cnameRecord: pointerRecord(domain, cnameTarget),
});

const itemOf = (row: DomainRow, linkCount: number, cnameTarget: string): DomainItem => ({
  domain: row.hostname,
  status: row.status,
  sslStatus: row.status === 'active' ? 'active' : 'pending',
  createdAt: row.created_at,
  linkCount,
  isDefault: Number(row.is_default) === 1,
  notFoundPage: pageOf(row),
  ...recordsOf(row.hostname, row.verification_token, cnameTarget),
});

/**
 * Custom domains and the state machine of spec 3.1: added (pending_txt) -> TXT record found (verified) ->
 * activated (active). DNS is asked through the Dns port, so DNS_RESOLVER can point it anywhere.
 *
 * Squatting (issue 16): a pending claim owns nothing. Several accounts may hold pending claims on one hostname,
 * each with its own token; the first to prove control by DNS owns it, the others' pending claims go, and from then
 * on adds by others are 409 DOMAIN_TAKEN. A pending claim expires after PENDING_CLAIM_TTL_MS (rules.ts).
 */
export class DomainsService {
  /** Active custom domains by host, for the redirect; changes through this instance clear it at once. */
  private readonly active = new Map<string, { domain: ActiveDomain | null; until: number }>();

  constructor(
    private readonly repo: DomainsRepository,
    private readonly plans: Plans,
    private readonly dns: Dns,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    /** Snip's own hosts (BASE_URL's and the CNAME target): never a custom domain. */
    private readonly ownHosts: ReadonlySet<string>,
    private readonly cnameTarget: string,
  ) {}

  async list(caller: Caller): Promise<{ domains: DomainItem[]; monthlyPrice: number }> {
    const rows = await this.repo.list(caller.accountId, this.cutoff());
    return { domains: rows.map((r) => itemOf(r, Number(r.link_count), this.cnameTarget)), monthlyPrice: 0 };
  }

  async add(caller: Caller, raw: unknown): Promise<AddedDomain> {
    const domain = checkDomain(raw, this.ownHosts);
    const cutoff = this.cutoff();
    const limit = limitsOf(this.plans, caller).domains;
    const token = randomBytes(16).toString('hex');
    try {
      // Check, count and insert under the account's lock, so parallel adds cannot pass the plan's maximum together.
      // Only a verified or active claim of another account blocks; expired pending claims are dropped first.
      await this.repo.exclusive(caller.accountId, async (repo) => {
        await repo.dropExpired(cutoff, { accountId: caller.accountId });
        await repo.dropExpired(cutoff, { hostname: domain });
        if (await repo.findOwn(domain, caller.accountId)) throw errors.domainExists();
        if (await repo.findClaimed(domain)) throw errors.domainTaken();
        if (limit !== null && (await repo.count(caller.accountId, cutoff)) >= limit) {
          throw errors.domainLimitReached(limit);
        }
        await repo.insert({
        hostname: domain,
        account_id: caller.accountId,
        status: 'pending_txt',
        verification_token: token,
        is_default: 0,
        not_found_page: null,
        created_at: this.clock.now().toISOString(),
        verified_at: null,
        activated_at: null,
      });
      });
    } catch (error) {
      if (error instanceof AppError || !isUniqueViolation(error)) throw error;
      if (await this.repo.findOwn(domain, caller.accountId)) throw errors.domainExists();
      throw errors.domainTaken();
    }
    return {
      domain,
      status: 'pending_txt',
      verificationToken: token,
      ...recordsOf(domain, token, this.cnameTarget),
    };
  }

  /**
   * Looks for the caller's TXT record. The first account to find its record owns the hostname: the other accounts'
   * pending claims are removed in the same transaction. A verify that races the winner's (its claim still there)
   * answers 409 DOMAIN_TAKEN; from then on the name is not the caller's, and a verify of it is 404 DOMAIN_NOT_FOUND
   * like any other name the caller holds no claim on (spec §7), whoever else holds it.
   */
  async verify(caller: Caller, raw: string): Promise<{ verified: boolean; status: DomainRow['status']; hint: string }> {
    const row = await this.owned(caller, raw);
    if (row.status !== 'pending_txt') return { verified: true, status: row.status, hint: 'The domain is verified.' };
    if (await this.takenByOther(caller, row.hostname)) return this.lost(caller, row.hostname);
    const name = txtName(row.hostname);
    const expected = txtValue(row.verification_token);
    const records = await this.dns.txt(name).catch(() => null);
    if (records?.includes(expected)) {
      // Only from pending_txt: a slow lookup must not undo an activation that happened meanwhile.
      let updated: boolean;
      try {
        updated = await this.repo.verifyPending(row.hostname, caller.accountId, this.clock.now().toISOString());
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        return this.lost(caller, row.hostname);
      }
      if (!updated) {
        const now = await this.repo.findOwn(row.hostname, caller.accountId);
        if (!now) return this.lost(caller, row.hostname);
        return { verified: true, status: now.status, hint: 'The domain is verified.' };
      }
      return { verified: true, status: 'verified', hint: 'TXT record found. Activate the domain to start using it.' };
    }
    const seen = records === null ? 'The DNS lookup failed; try again shortly. ' : records.length > 0 ? `Found ${records.map((r) => `"${r}"`).join(', ')} instead. ` : '';
    return {
      verified: false,
      status: 'pending_txt',
      hint: `No TXT record ${name} with the value ${expected} was found. ${seen}DNS changes can take up to 48 hours to propagate.`,
    };
  }

  async activate(caller: Caller, raw: string): Promise<{ success: true; domain: string; status: 'active'; billing: { free: boolean } }> {
    const row = await this.owned(caller, raw);
    if (row.status === 'pending_txt') throw errors.domainNotVerified();
    if (row.status === 'verified') await this.repo.update(row.hostname, caller.accountId, { status: 'active', activated_at: this.clock.now().toISOString() });
    this.forget(row.hostname);
    return { success: true, domain: row.hostname, status: 'active', billing: { free: true } };
  }

  async update(caller: Caller, raw: string, input: { setDefault?: unknown; notFoundPage?: unknown }): Promise<DomainItem> {
    requireChange(input);
    const row = await this.owned(caller, raw);
    if (input.setDefault !== undefined && typeof input.setDefault !== 'boolean') throw errors.invalidSetDefault();
    if (input.setDefault === true && row.status !== 'active') throw errors.domainNotActive('Only an active domain can be the default');
    if (input.notFoundPage !== undefined) {
      const page = checkNotFoundPage(input.notFoundPage, new Set([...this.ownHosts, row.hostname]));
      await this.repo.update(row.hostname, caller.accountId, { not_found_page: page === null ? null : JSON.stringify(page) });
    }
    if (input.setDefault === true) await this.repo.setDefault(caller.accountId, row.hostname);
    if (input.setDefault === false && Number(row.is_default) === 1) await this.repo.setDefault(caller.accountId, null);
    this.forget(row.hostname);
    return (await this.list(caller)).domains.find((d) => d.domain === row.hostname)!;
  }

  async delete(caller: Caller, raw: string): Promise<void> {
    const row = await this.owned(caller, raw);
    await this.repo.delete(row.hostname, caller.accountId);
    this.forget(row.hostname);
    // A pending claim has no links and serves no requests: nothing to drop from the redirect cache.
    if (row.status !== 'pending_txt') this.bus.emit('domain.deleted', { hostname: row.hostname });
  }

  /** Availability for anyone: a valid, unreserved name no account has verified (pending claims do not count). */
  async check(raw: string): Promise<{ hostname: string; available: boolean }> {
    let domain: string;
    try {
      domain = checkDomain(raw, this.ownHosts);
    } catch (error) {
      if (error instanceof AppError && error.code === 'RESERVED_DOMAIN') return { hostname: normalHost(raw), available: false };
      throw error;
    }
    return { hostname: domain, available: !(await this.repo.findClaimed(domain)) };
  }

  /** For link creation: the requested domain if it is the account's and active, else the account's default. */
  async domainFor(accountId: string, requested: string | undefined): Promise<string | null> {
    if (requested === undefined) return this.repo.defaultOf(accountId);
    const row = await this.repo.findOwn(normalHost(requested), accountId);
    if (!row || this.expired(row)) throw notFound();
    if (row.status !== 'active') throw errors.domainNotActive();
    return row.hostname;
  }

  /**
   * The active custom domain a request's Host names, or null (Snip's own host, or anything else). Answered
   * without a promise when known, since every redirect on a host other than BASE_URL's asks.
   */
  activeDomain(host: string): ActiveDomain | null | Promise<ActiveDomain | null> {
    const now = Date.now();
    const cached = this.active.get(host);
    if (cached && cached.until > now) return cached.domain;
    return this.loadActive(host, now);
  }

  private async loadActive(host: string, now: number): Promise<ActiveDomain | null> {
    const row = this.ownHosts.has(host) ? undefined : await this.repo.findClaimed(host);
    const domain = row?.status === 'active' ? { hostname: row.hostname, accountId: row.account_id, notFoundPage: pageOf(row) } : null;
    if (this.active.size > 10_000) this.active.clear();
    this.active.set(host, { domain, until: now + ACTIVE_CACHE_MS });
    return domain;
  }

  /** Drops what this instance cached of a domain (or of every domain): it changed, here or on another instance. */
  dropCached(hostname: string | 'all'): void {
    if (hostname === 'all') this.active.clear();
    else this.active.delete(hostname);
  }

  private forget(hostname: string): void {
    this.dropCached(hostname);
    this.bus.emit('domain.changed', { hostname });
  }

  /** The created_at before which a pending claim has expired. */
  private cutoff(): string {
    return pendingCutoff(this.clock.now());
  }

  private expired(row: DomainRow): boolean {
    return row.status === 'pending_txt' && row.created_at < this.cutoff();
  }

  /** Whether another account has verified (or activated) the hostname. */
  private async takenByOther(caller: Caller, hostname: string): Promise<boolean> {
    const owner = await this.repo.findClaimed(hostname);
    return owner !== undefined && owner.account_id !== caller.accountId;
  }

  /** The caller's pending claim lost the hostname to another account (a verify racing the winner's): it goes, and this verify is 409 DOMAIN_TAKEN. */
  private async lost(caller: Caller, hostname: string): Promise<never> {
    const own = await this.repo.findOwn(hostname, caller.accountId);
    if (own?.status === 'pending_txt') await this.repo.delete(hostname, caller.accountId);
    throw errors.domainTaken();
  }

  /**
   * The caller's live claim on the domain, else 404 DOMAIN_NOT_FOUND (an expired pending claim is dropped on the
   * way): a name another account holds, pending or verified, is not the caller's either, and answers the same.
   */
  private async owned(caller: Caller, raw: string): Promise<DomainRow> {
    const hostname = normalHost(raw);
    const row = await this.repo.findOwn(hostname, caller.accountId);
    if (row && !this.expired(row)) return row;
    if (row) await this.repo.dropExpired(this.cutoff(), { hostname });
    throw notFound();
  }
}
