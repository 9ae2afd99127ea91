import type { FastifyBaseLogger } from 'fastify';
import type { ClickRecorder } from '../clicks/recorder.js';
import type { GeoIp } from '../clicks/geoip.js';
import { isBot } from '../clicks/user-agent.js';
import type { Clock } from '../clock.js';
import type { EventBus } from '../events/bus.js';
import { fullPathOf, toLink, type Link } from '../links/link.js';
import type { LinkKey, LinksRepository } from '../links/repository.js';
import { LinkCache, type CachedLink } from './link-cache.js';

/** Who is visiting, as far as the redirect needs to know. */
export interface Visitor {
  /** False for requests that must never count (HEAD). */
  counts: boolean;
  ip: string;
  userAgent: string;
  referer: string | undefined;
}

/** Why a visit does not redirect: the page shown and its status are chosen by the adapter. */
export type RedirectOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'not_found' }
  | { kind: 'scheduled' }
  | { kind: 'expired' }
  | { kind: 'limit_reached' }
  | { kind: 'geo_blocked' }
  /** A capped link asked for by a request that does not count (HEAD, a bot): its destination is not shown. */
  | { kind: 'limited_use' }
  /** `url` is null for a capped link: its warning page does not show the destination either. */
  | { kind: 'unsafe'; url: string | null; threats: string[] };

/** Where the redirect learns which destinations were scanned unsafe (src/trust). */
export interface UnsafeDestinations {
  unsafeThreats(linkId: string, url: string): Promise<string[] | null>;
}

const MISS_TTL_MS = 2_000;
const MISS_CAPACITY = 10_000;

const cacheKey = (key: LinkKey): string => ('code' in key ? key.code : `${key.namespace}/${key.slug}`);

const keysOf = (link: Pick<Link, 'code' | 'namespace' | 'slug'>): string[] => {
  const path = fullPathOf(link);
  return path ? [link.code, path] : [link.code];
};

const toCached = (link: Link, loadedAtMs: number, unsafe: string[] | null): CachedLink => ({
  unsafe,
  domain: link.domain,
  loadedAtMs,
  id: link.id,
  accountId: link.accountId,
  code: link.code,
  namespace: link.namespace,
  slug: link.slug,
  url: link.url,
  maxClicks: link.maxClicks,
  expiresAtMs: link.expiresAt ? Date.parse(link.expiresAt) : null,
  activeFromMs: link.activeFrom ? Date.parse(link.activeFrom) : null,
  exhausted: link.maxClicks !== null && link.clicks >= link.maxClicks,
  blockedCountries: link.blockedCountries.length > 0 ? new Set(link.blockedCountries) : null,
});

const summaryOf = ({ id, accountId, code, namespace, slug, url, domain }: CachedLink) => ({ id, accountId, code, namespace, slug, url, domain });

/** The hot path: one cached lookup, one click count, one answer. */
export class RedirectService {
  private readonly cache = new LinkCache();
  /**
   * Recently asked-for paths that name no link, so a scanner probing random codes costs a map lookup, not a
   * query. Kept briefly; creating a link here clears its paths at once.
   */
  private readonly misses = new Map<string, number>();
  /** Bumped by every invalidation, so a lookup that raced one does not cache what it read. */
  private generation = 0;

  constructor(
    private readonly repo: LinksRepository,
    private readonly clicks: ClickRecorder,
    private readonly bus: EventBus,
    private readonly clock: Clock,
    private readonly geo: GeoIp,
    private readonly trust: UnsafeDestinations,
    private readonly log: FastifyBaseLogger,
  ) {
    bus.on('link.scanned', ({ link }) => this.invalidate(keysOf(link)));
    // Rare, and it moves many links back to the default host at once: start afresh.
    bus.on('domain.deleted', () => this.invalidateAll());
    // Any change to a link drops it from the cache before the changing request answers.
    bus.on('link.updated', ({ previous, link }) => this.invalidate([...keysOf(previous), ...keysOf(link)]));
    bus.on('link.deleted', ({ link }) => this.invalidate(keysOf(link)));
    bus.on('link.created', ({ link }) => {
      this.invalidate(keysOf(link));
      for (const k of keysOf(link)) this.misses.delete(k);
    });
  }

  /**
   * Resolves a visit. HEAD requests (`counts` false) and bots are not counted: they neither use up a click cap
   * nor make a click record. They are redirected on uncapped links only: a capped link (`maxClicks`) shows its
   * destination only to a visit that counts, so link-preview bots can neither burn nor read a one-time link.
   * `customDomain`: the active custom domain the request came to, which serves only its own links.
   */
  async visit(key: LinkKey, visitor: Visitor, customDomain: string | null = null): Promise<RedirectOutcome> {
    const count = visitor.counts && !isBot(visitor.userAgent);
    const now = this.clock.now().getTime();
    const link = this.cache.get(cacheKey(key), now) ?? (await this.load(key, now));
    if (!link || (customDomain !== null && link.domain !== customDomain)) return { kind: 'not_found' };
    if (link.activeFromMs !== null && now < link.activeFromMs) return { kind: 'scheduled' };
    if (link.expiresAtMs !== null && now >= link.expiresAtMs) return { kind: 'expired' };
    if (link.blockedCountries !== null) {
      const country = this.geo.lookup(visitor.ip)?.country;
      if (country && link.blockedCountries.has(country)) {
        // Announced like a click would be: not for HEAD requests or bots. The outbox row is written before the
        // answer; a failure to write it is logged and never refuses the visitor.
        if (count) await this.announceGeoBlocked(link, country);
        return { kind: 'geo_blocked' };
      }
    }
    if (link.unsafe !== null) return { kind: 'unsafe', url: link.maxClicks === null ? link.url : null, threats: link.unsafe };
    if (link.maxClicks === null) {
      if (count) await this.clicks.record({ ...visitor, linkId: link.id, accountId: link.accountId, counted: false });
      return { kind: 'redirect', url: link.url };
    }
    return this.visitCapped(key, link, count, visitor);
  }

  private async visitCapped(key: LinkKey, link: CachedLink, count: boolean, visitor: Visitor): Promise<RedirectOutcome> {
    if (link.exhausted) return { kind: 'limit_reached' };
    if (!count) {
      // Not counted, so not shown the destination: a used-up link still answers 410, one with clicks left a page.
      const row = await this.repo.findById(link.id);
      if (!row) return { kind: 'not_found' };
      if (Number(row.clicks) < link.maxClicks!) return { kind: 'limited_use' };
      link.exhausted = true;
      return { kind: 'limit_reached' };
    }
    const clicks = await this.repo.claimCappedClick(summaryOf(link));
    if (clicks === undefined) {
      const row = await this.repo.findById(link.id);
      if (!row) {
        this.cache.delete([cacheKey(key)]);
        return { kind: 'not_found' };
      }
      link.exhausted = true;
      return { kind: 'limit_reached' };
    }
    await this.clicks.record({ ...visitor, linkId: link.id, accountId: link.accountId, counted: true });
    if (clicks >= link.maxClicks!) {
      link.exhausted = true;
      this.bus.emit('link.limit_reached', { link: summaryOf(link) });
    }
    return { kind: 'redirect', url: link.url };
  }

  private async announceGeoBlocked(link: CachedLink, country: string): Promise<void> {
    try {
      await this.repo.announceGeoBlocked(summaryOf(link), country);
    } catch (err) {
      this.log.error({ err, linkId: link.id }, 'could not write a link.geo_blocked event');
    }
    this.bus.emit('link.geo_blocked', { link: summaryOf(link), country });
  }

  private invalidateAll(): void {
    this.generation += 1;
    this.cache.clear();
  }

  private invalidate(keys: string[]): void {
    this.generation += 1;
    this.cache.delete(keys);
  }

  private async load(key: LinkKey, nowMs: number): Promise<CachedLink | undefined> {
    const k = cacheKey(key);
    const missUntil = this.misses.get(k);
    if (missUntil !== undefined && nowMs < missUntil) return undefined;
    const generation = this.generation;
    const row = await this.repo.find(key);
    // A change that landed while the row was read may make the row stale: answer with it, but do not keep it.
    const unsafe = row ? await this.trust.unsafeThreats(row.id, row.url) : null;
    if (generation !== this.generation) return row ? toCached(toLink(row), nowMs, unsafe) : undefined;
    if (!row) {
      if (this.misses.size >= MISS_CAPACITY) this.misses.clear();
      this.misses.set(k, nowMs + MISS_TTL_MS);
      return undefined;
    }
    const cached = toCached(toLink(row), nowMs, unsafe);
    this.cache.set(cacheKey(key), cached);
    return cached;
  }
}
