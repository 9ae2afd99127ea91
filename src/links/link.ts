import { parseAppLinks, type AppLinks } from '../web2app/app-targets.js';
import type { LinkRow } from './link-row.js';
import type { SocialPreview } from './input.js';
import type { Rule, Variant } from './routing.js';

/** Where a link was made (agent links): the REST API with a key, the MCP endpoint, the operator CLI, or the dashboard. */
export const LINK_SOURCES = ['api', 'mcp', 'cli', 'dashboard'] as const;
export type LinkSource = (typeof LINK_SOURCES)[number];

/** A short link as services hand it around. */
export interface Link {
  id: string;
  accountId: string;
  code: string;
  namespace: string | null;
  slug: string | null;
  url: string;
  clicks: number;
  maxClicks: number | null;
  expiresAt: string | null;
  activeFrom: string | null;
  createdAt: string;
  updatedAt: string;
  /** Countries whose visitors get a 451 page instead of the redirect; empty when none. */
  blockedCountries: string[];
  /** The custom domain of the short URL; null for the default host. */
  domain: string | null;
  /** The account's folder the link is filed in; null when none. */
  folderId: string | null;
  source: LinkSource;
  /** The MCP client that made it (initialize's clientInfo.name); null for other sources or an unnamed client. */
  clientName: string | null;
  /** App targets for iPhone and Android visitors (web2app); null when none. */
  appLinks: AppLinks | null;
  /** The affiliate partnership whose partner link this is; null for other links. */
  partnershipId: string | null;
  /** Redirect rules, first match wins (src/links/routing.ts); null when none. */
  rules: Rule[] | null;
  /** An A/B split of the destination; null when none. */
  variants: Variant[] | null;
  /** The scrypt hash of the link's password; null when it has none. Never presented: reads say passwordProtected. */
  passwordHash: string | null;
  /** Where an expired or used-up link sends visitors; null: its 410 page. */
  expiredUrl: string | null;
  /** What link-preview bots are shown; null when none. */
  socialPreview: SocialPreview | null;
  /** Why the server's operator disabled the link; null while it works. Visitors get a page saying it was disabled. */
  disabledReason: string | null;
  disabledAt: string | null;
  /** `<host>/<path>` of an imported short path that is not a Snip code, which answers as before (src/imports). */
  legacyPath: string | null;
  /** The short URL it had at the shortener it was imported from; null for links made on Snip. */
  importedFrom: string | null;
  /** Clicks the source counted before the import that are not Snip clicks (shown apart from `clicks`). */
  importedClicks: number;
  /** The name the link was given (imports bring it from the source); null when none. */
  title: string | null;
  /** The link's tags in display order; set where a link is read to be shown (LinksService get, list, update). */
  tags?: string[];
}

export const toLink = (row: LinkRow): Link => ({
  id: row.id,
  accountId: row.account_id,
  code: row.code,
  namespace: row.namespace,
  slug: row.slug,
  url: row.url,
  clicks: Number(row.clicks),
  maxClicks: row.max_clicks === null ? null : Number(row.max_clicks),
  expiresAt: row.expires_at,
  activeFrom: row.active_from,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  blockedCountries: row.blocked_countries ? row.blocked_countries.split(',') : [],
  domain: row.domain,
  folderId: row.folder_id,
  source: row.source as LinkSource,
  clientName: row.client_name,
  appLinks: parseAppLinks(row.app_links),
  partnershipId: row.partnership_id,
  rules: parseJson<Rule[]>(row.rules),
  variants: parseJson<Variant[]>(row.variants),
  passwordHash: row.password_hash,
  expiredUrl: row.expired_url,
  socialPreview: parseJson<SocialPreview>(row.social_preview),
  disabledReason: row.disabled_at === null ? null : (row.disabled_reason ?? ''),
  disabledAt: row.disabled_at,
  legacyPath: row.legacy_path,
  importedFrom: row.imported_from,
  importedClicks: Number(row.imported_clicks ?? 0),
  title: row.title,
});

const parseJson = <T>(stored: string | null): T | null => (stored === null ? null : (JSON.parse(stored) as T));

/** `<prefix>/<slug>` for namespaced links, else null. */
export const fullPathOf = (link: Pick<Link, 'namespace' | 'slug'>): string | null =>
  link.namespace && link.slug ? `${link.namespace}/${link.slug}` : null;
