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
]);

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
