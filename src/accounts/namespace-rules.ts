import { errors } from '../errors.js';
import { randomBase62 } from '../ids.js';

/**
 * First path segments that belong to Snip itself (API, MCP, docs, dashboard and pages to come). A namespace
 * can never take one, so `/<prefix>/<slug>` never shadows a route.
 */
export const RESERVED_PATHS = new Set([
  'api', 'mcp', 'openapi', 'openapi.yaml', 'openapi.json', 'healthz', 'health', 'readyz', 'metrics',
  'dashboard', 'app', 'admin', 'login', 'logout', 'signin', 'signup', 'register', 'auth', 'oauth', 'authorize',
  'token', 'account', 'accounts', 'settings', 'user', 'users', 'keys', 'docs', 'doc', 'static', 'assets',
  'public', 'favicon.ico', 'robots.txt', '.well-known', 'qr', 'stats', 'ns', 'preview', 'link-scan', 'links',
  'domains', 'folders', 'webhooks', 'bulk', 'analytics', 'help', 'about', 'pricing', 'terms', 'privacy',
  'status', 'www', 'snip',
  // Issue 16 (class 7): names the service, browsers and crawlers use or may use at the top level, and names that
  // pass for the service's own pages. `.well-known` and `favicon.ico` cannot be namespaces (the pattern refuses the
  // dot); their look-alikes can.
  'well-known', 'favicon', 'apple-touch-icon', 'manifest', 'robots', 'sitemap', 'security', 'humans', 'ads',
  'livez', 'ping', 'version', 'swagger', 'redoc', 'reference', 'graphql', 'webhook', 'v1', 'v2', 'v3',
  'cdn', 'img', 'images', 'js', 'css', 'fonts', 'media', 'files', 'uploads', 'downloads', 'home', 'index',
  'new', 'create', 'shorten', 'link', 'short', 'redirect', 'go', 'scan', 'trust', 'report', 'abuse',
  'support', 'contact', 'legal', 'blog', 'billing', 'checkout', 'subscription', 'usage', 'export', 'exports',
  'import', 'tags', 'templates', 'views', 'sso', 'saml', 'oidc', 'oauth2', 'callback', 'root', 'system',
  'internal', 'administrator', 'postmaster', 'hostmaster', 'webmaster', 'mail', 'email', 'official', 'staff',
]);

/**
 * How many prefixes other than the current one an account keeps (issue 16, class 7: hoarding). An old prefix is
 * kept only while links use it, so those links keep their paths and nobody else can put links beside them; a
 * change of namespace releases every old prefix without links. A change that would leave the account holding more
 * than this many old prefixes (each still with links) is refused until one is emptied and released.
 */
export const MAX_OLD_NAMESPACES = 3;

/**
 * The bound on old prefixes, checked in the transaction of a namespace change after the old prefixes without links
 * were released: `old` are the account's other prefixes, oldest first, with their link counts. Over the bound, 409
 * NAMESPACE_HAS_LINKS names the oldest (release it first, once its links are deleted).
 */
export function checkOldNamespaces(old: readonly { prefix: string; links: number }[]): void {
  if (old.length > MAX_OLD_NAMESPACES) throw errors.namespaceHasLinks(old[0]!.prefix, old[0]!.links);
}

const NAMESPACE_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,28}[a-z0-9])$/;

export function isReservedPath(segment: string): boolean {
  return RESERVED_PATHS.has(segment.toLowerCase());
}

/** Namespaces are 3-30 lowercase letters, digits and inner hyphens; case is folded on the way in. */
export function normalizeNamespace(raw: string): string {
  const prefix = raw.trim().toLowerCase();
  if (!NAMESPACE_PATTERN.test(prefix)) {
    throw errors.invalidNamespace();
  }
  if (isReservedPath(prefix)) throw errors.reservedNamespace(prefix);
  return prefix;
}

/** Candidate namespaces for a new account, from its email's local part, then with random suffixes. */
export function namespaceCandidates(email: string): string[] {
  let base = email.split('@')[0]!.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 24);
  base = base.replace(/-+$/, '');
  if (base.length < 3) base = `user-${base}`.replace(/-+$/, '');
  const withSuffix = () => `${base}-${randomBase62(4).toLowerCase()}`;
  const first = isReservedPath(base) || !NAMESPACE_PATTERN.test(base) ? [] : [base];
  return [...first, withSuffix(), withSuffix(), withSuffix(), withSuffix()];
}
