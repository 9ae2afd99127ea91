import type { FastifyBaseLogger } from 'fastify';
import type { ClickRecorder } from '../clicks/recorder.js';
import type { CapturedVisit } from '../clicks/visit.js';
import type { JournalWrite } from '../clicks/journal-write.js';
import type { GeoIp } from '../clicks/geoip.js';
import { software, visitorKind } from '../clicks/user-agent.js';
import type { Platform } from '../web2app/app-targets.js';
import type { Clock } from '../clock.js';
import type { EventBus } from '../events/bus.js';
import { toLink, type Link } from '../links/link.js';
import type { LinkKey } from '../links/link-key.js';
import type { LinksRepository } from '../links/repository.js';
import { cacheKeysOf, legacyCacheKey, LinkCache, type CachedLink } from './link-cache.js';
import type { SocialPreview } from '../links/input.js';
import { compileRouting, route, variantBucket, type Routed, type RoutingVisitor } from '../links/routing.js';
import { verifyPassword } from '../sessions/passwords.js';
import { isPreviewBot } from './link-pages.js';
import type { LinkPasses } from './link-passes.js';


/** Who is visiting, as far as the redirect needs to know. */
export interface Visitor {
  /** False for requests that must never count (HEAD). */
  counts: boolean;
  ip: string;
  userAgent: string;
  referer: string | undefined;
  /** The request's query string (without `?`): a phone's app session keeps its parameters; query rules read it. */
  query?: string;
  /** The Accept-Language header, for language rules. */
  acceptLanguage?: string;
  /** The Cookie header, read only for a password-protected link (its pass, src/redirects/link-passes.ts). */
  cookie?: string;
  /** Set when this very request gave the link's right password. */
  passed?: boolean;
}

/** Why a visit does not redirect: the page shown and its status are chosen by the adapter. */
export type RedirectOutcome =
  | { kind: 'redirect'; url: string }
  /** A phone visiting a link with an app target: a page that opens the app, or else the store; both carry snip_sid (unless the address is past its session bound). */
  | { kind: 'app'; deepLink: string; storeUrl: string }
  | { kind: 'not_found' }
  | { kind: 'scheduled' }
  | { kind: 'expired' }
  | { kind: 'limit_reached' }
  /** The server's operator disabled the link: a page saying so, never the destination. */
  | { kind: 'disabled' }
  | { kind: 'geo_blocked' }
  /** A capped link asked for by a request that does not count (HEAD, a bot): its destination is not shown. */
  | { kind: 'limited_use' }
  /** `url` is null for a capped link: its warning page does not show the destination either. */
  | { kind: 'unsafe'; url: string | null; threats: string[] }
  /** A password-protected link without a pass: its form (`wrong` after a wrong password; `waitSeconds` past the guesses allowed). */
  | { kind: 'password'; wrong: boolean; waitSeconds: number }
  /** A link-preview bot visiting a link with a social preview: the preview's page. */
  | { kind: 'social'; preview: SocialPreview }
  /** An expired or used-up link with a fallback: a 302 there. */
  | { kind: 'fallback'; url: string };

/** Where the redirect learns which destinations were scanned unsafe (src/trust). */
export interface UnsafeDestinations {
  unsafeThreats(linkId: string, url: string): Promise<string[] | null>;
}

/** What partner links (src/affiliate) and app targets (src/web2app) add to a redirect. */
export interface RedirectTargets {
  /** True for the partner link of an active CPA program: its clicks carry a click id. */
  needsClickId(partnershipId: string): Promise<boolean>;
  issueClickId(partnershipId: string): string;
  /** Opens a web2app session for a phone's click from `address`; answers its id, or null past the address's bound. */
  openAppSession(link: { id: string; accountId: string; code: string }, platform: Platform, deepLink: string, params: Record<string, string>, address: string): Promise<string | null>;
}

const PLATFORMS_BY_OS: Record<string, Platform> = { iOS: 'ios', Android: 'android' };

/** A visit decided from the cache: its answer, and the journal write of its click to wait for before answering. */
export interface Decided {
  outcome: RedirectOutcome;
  journaled: JournalWrite | null;
}

const NOT_FOUND: RedirectOutcome = { kind: 'not_found' };
const SCHEDULED: RedirectOutcome = { kind: 'scheduled' };
const EXPIRED: RedirectOutcome = { kind: 'expired' };
const DISABLED: RedirectOutcome = { kind: 'disabled' };

/**
 * Whether a visit counts (a GET by a person) or is an AI agent's (counted apart, src/clicks/agents.ts); HEAD
 * requests and other bots are neither.
 */
function classify(visitor: Visitor): { count: boolean; agent: string | null } {
  if (!visitor.counts) return NOT_COUNTED;
  const kind = visitorKind(visitor.userAgent);
  return kind.agent !== null ? { count: false, agent: kind.agent } : kind.bot ? NOT_COUNTED : COUNTED;
}
const NOT_COUNTED = { count: false, agent: null } as const;
const COUNTED = { count: true, agent: null } as const;

/** The app target for the visitor's phone on a link, if the link has one for that platform. */
function appTarget(link: CachedLink, visitor: Visitor) {
  if (link.appLinks === null) return undefined;
  const platform = PLATFORMS_BY_OS[software(visitor.userAgent).os];
  const target = platform ? link.appLinks[platform] : undefined;
  return platform && target ? { platform, target } : undefined;
}

/** `url` with one query parameter set; a URL that will not parse (none passed the rules) gets it appended. */
function withParam(url: string, name: string, value: string): string {
  try {
    const parsed = new URL(url);
    parsed.searchParams.set(name, value);
    return parsed.toString();
  } catch {
    return `${url}${url.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(value)}`;
  }
}

/** The link's parameters for an app: the destination's query, then the visit's own (which win); never Snip's. */
function paramsOf(destination: string, query: string | undefined): Record<string, string> {
  const params: Record<string, string> = {};
  const add = (search: URLSearchParams) => {
    for (const [key, value] of search) if (!key.startsWith('snip_') && Object.keys(params).length < 50) params[key] = value.slice(0, 1000);
  };
  add(new URL(destination).searchParams);
  if (query) add(new URLSearchParams(query));
  return params;
}

const MISS_TTL_MS = 2_000;
const MISS_CAPACITY = 10_000;

const cacheKey = (key: LinkKey): string => ('code' in key ? key.code : 'legacyPath' in key ? legacyCacheKey(key.legacyPath) : `${key.namespace}/${key.slug}`);


const toCached = (link: Link, loadedAtMs: number, unsafe: string[] | null, clickIdFor: string | null): CachedLink => ({
  unsafe,
  disabled: link.disabledAt !== null,
  routing: compileRouting(link.rules, link.variants),
  passwordHash: link.passwordHash,
  fallback: link.expiredUrl === null ? null : { kind: 'fallback', url: link.expiredUrl },
  social: link.socialPreview,
  appLinks: link.appLinks,
  clickIdFor,
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
  redirect: { kind: 'redirect', url: link.url },
  blockedCountries: link.blockedCountries.length > 0 ? new Set(link.blockedCountries) : null,
});

/** What a click records of where it went: the routed URL, for links with rules or variants only (byDestination). */
const destinationOf = (link: CachedLink, routed: Routed): string | undefined => (link.routing === null ? undefined : routed.url);

/** What the recorder is handed of a visit: only what it records (no spread of the visitor, on the hot path). */
const captured = (link: CachedLink, visitor: Visitor, counted: boolean, agent: string | null, destination: string | undefined): CapturedVisit => ({
  linkId: link.id,
  accountId: link.accountId,
  ip: visitor.ip,
  userAgent: visitor.userAgent,
  referer: visitor.referer,
  counted,
  agent,
  destination,
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
    private readonly targets: RedirectTargets,
    private readonly log: FastifyBaseLogger,
    private readonly passes: LinkPasses,
  ) {
    bus.on('link.scanned', ({ link }) => this.invalidate(cacheKeysOf(link)));
    // Rare, and it moves many links back to the default host at once: start afresh.
    bus.on('domain.deleted', () => this.invalidateAll());
    bus.on('affiliate.program_updated', () => this.invalidateAll());
    // Any change to a link drops it from the cache before the changing request answers.
    bus.on('link.updated', ({ previous, link }) => this.invalidate([...cacheKeysOf(previous), ...cacheKeysOf(link)]));
    bus.on('link.deleted', ({ link }) => this.invalidate(cacheKeysOf(link)));
    bus.on('link.created', ({ link }) => this.forget(cacheKeysOf(link)));
    bus.on('account.deleted', () => this.invalidateAll());
  }

  /** Drops what this instance cached of these links (or of every link), misses included: another instance changed them. */
  forget(keys: string[] | 'all'): void {
    if (keys === 'all') {
      this.invalidateAll();
      this.misses.clear();
      return;
    }
    this.invalidate(keys);
    for (const k of keys) this.misses.delete(k);
  }

  /**
   * Resolves a visit. HEAD requests (`counts` false) and bots are not counted: they neither use up a click cap
   * nor make a click record. They are redirected on uncapped links only: a capped link (`maxClicks`) shows its
   * destination only to a visit that counts, so link-preview bots can neither burn nor read a one-time link.
   * `customDomain`: the active custom domain the request came to, which serves only its own links.
   */
  async visit(key: LinkKey, visitor: Visitor, customDomain: string | null = null): Promise<RedirectOutcome> {
    const now = this.clock.now().getTime();
    const link = this.cache.get(cacheKey(key), now) ?? (await this.load(key, now));
    if (!link) return NOT_FOUND;
    const outcome = await this.visitLink(key, link, visitor, customDomain, now);
    // An ended link with a fallback sends its visitors there (the fast path's decision already does).
    return link.fallback !== null && (outcome.kind === 'expired' || outcome.kind === 'limit_reached') ? link.fallback : outcome;
  }

  private async visitLink(key: LinkKey, link: CachedLink, visitor: Visitor, customDomain: string | null, now: number): Promise<RedirectOutcome> {
    const decided = this.decideFor(link, visitor, customDomain, now);
    if (decided !== undefined) {
      if (decided.journaled !== null) await decided.journaled;
      return decided.outcome;
    }
    const { count, agent } = classify(visitor);
    // An ended link has nothing left to protect or block: its fallback or 410 comes first, as for an expired one.
    if (link.exhausted) return { kind: 'limit_reached' };
    if (link.blockedCountries !== null) {
      const country = this.geo.lookup(visitor.ip)?.country;
      if (country && link.blockedCountries.has(country)) {
        // Announced like a click would be: not for HEAD requests or bots. The outbox row is written before the
        // answer; a failure to write it is logged and never refuses the visitor.
        if (count) await this.announceGeoBlocked(link, country);
        return { kind: 'geo_blocked' };
      }
    }
    // A protected link shows nothing of where it leads, to bots and HEAD requests either, before the password.
    if (link.passwordHash !== null && !visitor.passed && !this.passes.holds(visitor.cookie, link.id, link.passwordHash)) {
      return { kind: 'password', wrong: false, waitSeconds: 0 };
    }
    if (link.unsafe !== null) return { kind: 'unsafe', url: link.maxClicks === null ? link.url : null, threats: link.unsafe };
    if (link.social !== null && !count && isPreviewBot(visitor.userAgent)) return { kind: 'social', preview: link.social };
    if (link.maxClicks === null) {
      const routed = this.routed(link, visitor);
      if (count || agent !== null) await this.clicks.record(captured(link, visitor, false, agent, destinationOf(link, routed)));
      return count ? this.destination(link, visitor, routed) : { kind: 'redirect', url: routed.url };
    }
    return this.visitCapped(key, link, count, visitor);
  }

  /**
   * The visit of a cached link (on the active custom domain `customDomain`, or null), decided without waiting: the
   * server's fast path (src/redirects/fast-path.ts) answers from it before Fastify routes the request. Undefined when
   * the link is not cached or the visit needs more (then `visit` decides); never a side effect in that case.
   */
  decideCached(code: string, visitor: Visitor, customDomain: string | null): Decided | undefined {
    const now = this.clock.now().getTime();
    const link = this.cache.get(code, now);
    return link === undefined ? undefined : this.decideFor(link, visitor, customDomain, now);
  }

  /**
   * What a visit of `link` answers when that needs no database work: not active yet, expired, or an uncapped
   * link's redirect (its click journaled, see `journaled`). Undefined for the rest: blocked countries (a GeoIP
   * lookup and perhaps an event), unsafe destinations, click caps, and a phone's visit of a link with app targets.
   */
  private decideFor(link: CachedLink, visitor: Visitor, customDomain: string | null, now: number): Decided | undefined {
    if (customDomain !== null && link.domain !== customDomain) return { outcome: NOT_FOUND, journaled: null };
    if (link.disabled) return { outcome: DISABLED, journaled: null };
    if (link.activeFromMs !== null && now < link.activeFromMs) return { outcome: SCHEDULED, journaled: null };
    if (link.expiresAtMs !== null && now >= link.expiresAtMs) return { outcome: link.fallback ?? EXPIRED, journaled: null };
    if (link.blockedCountries !== null || link.unsafe !== null || link.maxClicks !== null || link.passwordHash !== null) return undefined;
    const { count, agent } = classify(visitor);
    if (link.social !== null && !count && isPreviewBot(visitor.userAgent)) return { outcome: { kind: 'social', preview: link.social }, journaled: null };
    const routed = link.routing === null ? null : route(link.routing, link.url, this.routingVisitor(link, visitor));
    // A rule or a variant decides where the visit goes; app targets are the default destination's.
    if (count && (routed === null || routed.reason === 'destination') && appTarget(link, visitor) !== undefined) return undefined;
    const journaled = count || agent !== null ? this.clicks.record(captured(link, visitor, false, agent, routed?.url)) : null;
    // A click id is minted for counted clicks of a CPA partner link; every other visit gets the link's own answer.
    const outcome =
      count && link.clickIdFor !== null
        ? { kind: 'redirect' as const, url: withParam(link.url, 'snip_cid', this.targets.issueClickId(link.clickIdFor)) }
        : routed === null || routed.url === link.url
          ? link.redirect
          : { kind: 'redirect' as const, url: routed.url };
    return { outcome, journaled };
  }

  /**
   * Where a counted visit goes: a phone to its app target (through a web2app session), a partner link of a CPA
   * program to the destination with a fresh click id; everyone else to the destination as it is.
   */
  private async destination(link: CachedLink, visitor: Visitor, routed: Routed): Promise<RedirectOutcome> {
    if (routed.reason !== 'destination') return { kind: 'redirect', url: routed.url };
    const app = appTarget(link, visitor);
    if (app !== undefined) {
      try {
        const sid = await this.targets.openAppSession(link, app.platform, app.target.deepLink, paramsOf(link.url, visitor.query), visitor.ip);
        // No session (the address is past its bound): the same page, without one.
        const tagged = (url: string) => (sid === null ? url : withParam(url, 'snip_sid', sid));
        return { kind: 'app', deepLink: tagged(app.target.deepLink), storeUrl: tagged(app.target.storeUrl) };
      } catch (err) {
        // The visitor still gets where the link goes: the web page instead of the app.
        this.log.error({ err, linkId: link.id }, 'could not open a web2app session');
      }
    }
    if (link.clickIdFor !== null) return { kind: 'redirect', url: withParam(link.url, 'snip_cid', this.targets.issueClickId(link.clickIdFor)) };
    return { kind: 'redirect', url: link.url };
  }

  /** Where the link's rules and variants send this visitor (the destination when it has neither). */
  private routed(link: CachedLink, visitor: Visitor): Routed {
    return link.routing === null ? { url: link.url, reason: 'destination' } : route(link.routing, link.url, this.routingVisitor(link, visitor));
  }

  private routingVisitor(link: CachedLink, visitor: Visitor): RoutingVisitor {
    return {
      software: () => software(visitor.userAgent),
      country: () => this.geo.lookup(visitor.ip)?.country ?? undefined,
      acceptLanguage: visitor.acceptLanguage,
      query: visitor.query ?? '',
      address: visitor.ip,
      bucket: () => variantBucket(link.id, visitor.ip, visitor.userAgent),
    };
  }

  /**
   * A password given on a protected link's form: the right one visits the link as this request (counted once) and
   * answers the pass that lets the browser through for a while; a wrong one answers the form again, and past
   * PASSWORD_ATTEMPTS wrong ones per address and link, the wait.
   */
  async submitPassword(key: LinkKey, visitor: Visitor, password: string, customDomain: string | null): Promise<{ outcome: RedirectOutcome; pass?: { name: string; value: string } }> {
    const now = this.clock.now().getTime();
    const link = this.cache.get(cacheKey(key), now) ?? (await this.load(key, now));
    if (!link || link.disabled || link.passwordHash === null || (customDomain !== null && link.domain !== customDomain)) return { outcome: await this.visit(key, visitor, customDomain) };
    const wait = this.passes.waitSeconds(visitor.ip, link.id, now);
    if (wait > 0) return { outcome: { kind: 'password', wrong: true, waitSeconds: wait } };
    if (!(await verifyPassword(password, link.passwordHash))) {
      // The next guess past the bound is refused with the wait; this one is answered with the form again.
      this.passes.failed(visitor.ip, link.id, now);
      return { outcome: { kind: 'password', wrong: true, waitSeconds: 0 } };
    }
    const outcome = await this.visit(key, { ...visitor, passed: true }, customDomain);
    return { outcome, pass: { name: this.passes.cookieName(link.id), value: this.passes.token(link.id, link.passwordHash) } };
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
    const routed = this.routed(link, visitor);
    await this.clicks.record(captured(link, visitor, true, null, destinationOf(link, routed)));
    if (clicks >= link.maxClicks!) {
      link.exhausted = true;
      this.bus.emit('link.limit_reached', { link: summaryOf(link) });
    }
    return this.destination(link, visitor, routed);
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
    const clickIdFor = row?.partnership_id && (await this.targets.needsClickId(row.partnership_id)) ? row.partnership_id : null;
    if (generation !== this.generation) return row ? toCached(toLink(row), nowMs, unsafe, clickIdFor) : undefined;
    if (!row) {
      if (this.misses.size >= MISS_CAPACITY) this.misses.clear();
      this.misses.set(k, nowMs + MISS_TTL_MS);
      return undefined;
    }
    const cached = toCached(toLink(row), nowMs, unsafe, clickIdFor);
    this.cache.set(cacheKey(key), cached);
    return cached;
  }
}
