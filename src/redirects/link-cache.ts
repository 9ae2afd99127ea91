import { fullPathOf, type Link } from '../links/link.js';
import type { AppLinks } from '../web2app/app-targets.js';
import type { SocialPreview } from '../links/input.js';
import type { CompiledRouting } from '../links/routing.js';

/** The cache key of an imported path; `~` keeps it apart from codes and `<prefix>/<slug>` keys. */
export const legacyCacheKey = (legacyPath: string): string => `~${legacyPath}`;

/** The cache keys of a link: its code, namespace/slug for a namespaced link, its imported path for one that has it. */
export const cacheKeysOf = (link: Pick<Link, 'code' | 'namespace' | 'slug'> & { legacyPath?: string | null }): string[] => {
  const keys = [link.code];
  const path = fullPathOf(link);
  if (path) keys.push(path);
  if (link.legacyPath) keys.push(legacyCacheKey(link.legacyPath));
  return keys;
};

/** What the redirect needs to know about a link, kept in memory. */
export interface CachedLink {
  id: string;
  accountId: string;
  code: string;
  namespace: string | null;
  slug: string | null;
  url: string;
  maxClicks: number | null;
  expiresAtMs: number | null;
  activeFromMs: number | null;
  /** Countries refused with a 451 page; null when the link blocks nobody (the usual case: no GeoIP lookup). */
  blockedCountries: ReadonlySet<string> | null;
  /** The custom domain the link is served on (as well as the default host); null for the default host only. */
  domain: string | null;
  /** Disabled by the server's operator: every visit gets the page saying so. */
  disabled: boolean;
  /** Threats of a destination scanned unsafe (visitors get a warning page); null when it may redirect. */
  unsafe: string[] | null;
  /** App targets for phones (web2app); null for most links. */
  appLinks: AppLinks | null;
  /** The partnership of a CPA partner link, whose clicks carry a click id; null for other links. */
  clickIdFor: string | null;
  /** Rules and variants made ready to decide visits (src/links/routing.ts); null for most links. */
  routing: CompiledRouting | null;
  /** The hash of the link's password; null when it has none. */
  passwordHash: string | null;
  /** The answer for an ended link with an expiredUrl; null: its 410 page. */
  fallback: { kind: 'fallback'; url: string } | null;
  /** What link-preview bots are shown; null when none. */
  social: SocialPreview | null;
  /** The answer of a plain redirect to the destination, made once per cache fill. */
  redirect: { kind: 'redirect'; url: string };
  /** Set once a capped link is seen at its cap, so later visits skip the database. */
  exhausted: boolean;
  loadedAtMs: number;
}

/**
 * Changes made through this instance invalidate its cache at once, and through Redis every other instance's
 * (src/runtime/cache-sync.ts); the time limit bounds how long an instance without Redis, or cut off from it, can serve
 * a link that was changed or deleted elsewhere.
 */
export const CACHE_TTL_MS = 10_000;

/**
 * A bounded map in front of the link store: when full, the oldest entry goes (an evicted hot link costs one read to
 * come back, cheaper over time than an LRU's bookkeeping on every redirect). The age limit is checked here, against
 * the service's clock, so a test's clock governs it like every other time rule.
 */
export class LinkCache {
  private readonly entries = new Map<string, CachedLink>();

  constructor(private readonly capacity = 50_000) {}

  get(key: string, nowMs: number): CachedLink | undefined {
    const entry = this.entries.get(key);
    if (entry && nowMs - entry.loadedAtMs > CACHE_TTL_MS) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(key: string, entry: CachedLink): void {
    if (this.entries.size >= this.capacity && !this.entries.has(key)) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
  }

  delete(keys: string[]): void {
    for (const key of keys) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
