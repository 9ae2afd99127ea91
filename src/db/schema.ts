import type { Generated } from 'kysely';

/** Timestamps are stored as ISO 8601 UTC strings on both dialects, so they compare and sort as text. */
export interface AccountsTable {
  id: string;
  email: string;
  tier: string;
  namespace: string | null;
  created_at: string;
  overage_limit_cents: number | null;
  /** scrypt hash of the dashboard password (src/sessions/passwords.ts); null: the account signs in with keys only. */
  password_hash: string | null;
  /** `member` or `operator` (src/access/roles.ts); the first account of a database is the operator's. */
  role: Generated<string>;
  /** Set while an operator has disabled the account: its keys, sessions and OAuth grants are refused. */
  disabled_at: Generated<string | null>;
  disabled_reason: Generated<string | null>;
}

/** A signed-in browser; `id` is the SHA-256 of the cookie's token, so a copy of the table signs nobody in. */
export interface SessionsTable {
  id: string;
  account_id: string;
  created_at: string;
  expires_at: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  prefix: string;
  key_hash: string;
  created_at: string;
  revoked_at: string | null;
  mcp_client_name: Generated<string | null>;
  /** What its owner called it (the dashboard's key list). */
  name: Generated<string | null>;
  /** Updated at most once a minute (src/accounts/service.ts). */
  last_used_at: Generated<string | null>;
  /** Space-separated extra scopes; `admin` lets an operator's key call the admin operations. */
  scopes: Generated<string | null>;
}

export interface NamespacesTable {
  prefix: string;
  account_id: string;
  created_at: string;
}

export interface LinksTable {
  id: string;
  account_id: string;
  code: string;
  namespace: string | null;
  slug: string | null;
  url: string;
  clicks: Generated<number>;
  max_clicks: number | null;
  expires_at: string | null;
  active_from: string | null;
  created_at: string;
  updated_at: string;
  import_key: string | null;
  expiry_notified: Generated<number>;
  blocked_countries: string | null;
  folder_id: string | null;
  domain: string | null;
  /** Where the link was made: api, mcp, cli or dashboard. */
  source: Generated<string>;
  /** The MCP client's name, for links made over MCP. */
  client_name: Generated<string | null>;
  /** JSON of the link's app targets (src/web2app/app-links.ts); null when none. */
  app_links: Generated<string | null>;
  /** The affiliate partnership this link is the partner link of. */
  partnership_id: Generated<string | null>;
  /** JSON of the link's redirect rules and A/B variants (src/links/routing.ts); null when none. */
  rules: Generated<string | null>;
  variants: Generated<string | null>;
  /** The scrypt hash of the link's password (src/sessions/passwords.ts); null when it has none. */
  password_hash: Generated<string | null>;
  expired_url: Generated<string | null>;
  /** JSON of the link's social preview; null when none. */
  social_preview: Generated<string | null>;
  /** Set when an operator disabled the link: visitors get a page saying so, and its owner cannot re-enable it. */
  disabled_at: Generated<string | null>;
  disabled_reason: Generated<string | null>;
  /** `<host>/<path>` of an imported short path that is not a Snip code (host empty for BASE_URL's); null for most links. */
  legacy_path: Generated<string | null>;
  /** The short URL the link had at the shortener it was imported from. */
  imported_from: Generated<string | null>;
  /** The source's click total not recorded as Snip clicks, shown apart from them. */
  imported_clicks: Generated<number>;
  title: Generated<string | null>;
}

export type DomainStatus = 'pending_txt' | 'verified' | 'active';

export interface DomainsTable {
  hostname: string;
  account_id: string;
  status: DomainStatus;
  verification_token: string;
  is_default: number;
  not_found_page: string | null;
  created_at: string;
  verified_at: string | null;
  activated_at: string | null;
}

export interface FoldersTable {
  id: string;
  account_id: string;
  name: string;
  color: string | null;
  created_at: string;
}

export interface QrSettingsTable {
  account_id: string;
  /** Six hex digits, no '#'. */
  color: string;
  bg_color: string;
  size: number;
  /** L, M, Q or H. */
  error_correction: string;
  margin: number;
  updated_at: string;
}

export interface LinkScansTable {
  link_id: string;
  score: number | null;
  status: string | null;
  /** Comma-separated threat types; empty when none. */
  threats: Generated<string>;
  source: string | null;
  /** The destination this verdict is for. */
  url: string;
  scanned_at: string | null;
  attempts: Generated<number>;
}

export interface UsageCountersTable {
  key: string;
  count: number;
  expires_at: string;
}

export interface ClicksTable {
  id: string;
  link_id: string;
  account_id: string;
  at: string;
  country: string | null;
  region: string | null;
  city: string | null;
  browser: string;
  os: string;
  device: string;
  referrer: string | null;
  visitor: string;
  grace_cycle: string | null;
}

export interface ClickRollupsTable {
  link_id: string;
  account_id: string;
  day: string;
  dimension: string;
  value: string;
  grace_cycle: string;
  clicks: number;
}

export interface ClickVisitorsTable {
  link_id: string;
  day: string;
  visitor: string;
}

export interface AccountUsageTable {
  account_id: string;
  cycle: string;
  tracked_clicks: number;
  grace_started_at: string | null;
}

export interface JournalCheckpointsTable {
  journal_id: string;
  segment: number;
  offset: number;
}

export interface AgentClicksTable {
  link_id: string;
  account_id: string;
  day: string;
  agent: string;
  clicks: number;
}

export interface Web2appSessionsTable {
  id_hash: string;
  link_id: string;
  account_id: string;
  short_code: string;
  platform: string;
  deep_link: string;
  /** JSON object of string parameters. */
  params: string;
  created_at: string;
  expires_at: string;
  claimed_at: string | null;
}

export interface AffiliateProgramsTable {
  id: string;
  account_id: string;
  name: string;
  url: string;
  commission_type: string;
  commission_cents: number;
  currency: string;
  public: number;
  status: string;
  created_at: string;
  updated_at: string;
}

export interface AffiliatePartnershipsTable {
  id: string;
  program_id: string;
  account_id: string;
  program_account_id: string;
  link_id: string | null;
  created_at: string;
}

export interface AffiliateConversionsTable {
  click_id: string;
  program_id: string;
  partnership_id: string;
  account_id: string;
  amount_cents: number | null;
  commission_cents: number;
  created_at: string;
}

/** A click a CPC program pays for: one per visitor address per program per day (migration 0014). */
export interface AffiliatePaidClicksTable {
  program_id: string;
  day: string;
  address: string;
  partnership_id: string;
  link_id: string;
  /** The program owner's account. */
  account_id: string;
  created_at: string;
}

/**
 * One record of the OAuth authorization server (src/oauth/adapter.ts): `model` is its kind (Client, Grant,
 * AccessToken, RefreshToken, AuthorizationCode, Session, Interaction, ...), `id` its id or, for a secret, the id's hash.
 */
export interface OAuthRecordsTable {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  account_id: string | null;
  client_id: string | null;
  created_at: string;
  expires_at: string | null;
  consumed_at: string | null;
}

export interface InvitesTable {
  /** SHA-256 of the invite's token. */
  id: string;
  created_by: string;
  /** The plan the account made with it gets. */
  tier: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  used_by: string | null;
}

export interface PasswordResetsTable {
  /** SHA-256 of the reset link's token. */
  id: string;
  account_id: string;
  created_by: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface AuditLogTable {
  id: string;
  at: string;
  /** The operator's account; null for the CLI. */
  actor_id: string | null;
  /** Who, as shown: the operator's email, or `cli`. */
  actor: string;
  action: string;
  target: string | null;
  /** JSON of what changed. */
  detail: string | null;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface WebhooksTable {
  id: string;
  account_id: string;
  url: string;
  name: string;
  events: string;
  secret: string;
  enabled: number;
  created_at: string;
  last_delivery_at: string | null;
  last_status: number | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'abandoned';

export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  account_id: string;
  event: string;
  body: string;
  status: DeliveryStatus;
  attempts: Generated<number>;
  next_attempt_at: string | null;
  locked_until: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

/**
 * The event outbox: a change's webhook events, written in the change's own transaction. The relay turns each row
 * into deliveries for the webhooks subscribed when it runs, and deletes it in that same transaction.
 */
export interface OutboxEventsTable {
  id: string;
  account_id: string;
  event: string;
  /** The delivery body, serialised once when the event happened. */
  body: string;
  created_at: string;
}

export interface LinkTagsTable {
  link_id: string;
  account_id: string;
  tag: string;
  tag_key: string;
  created_at: string;
}

export interface UtmTemplatesTable {
  id: string;
  account_id: string;
  name: string;
  name_key: string;
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_term: string | null;
  utm_content: string | null;
  created_at: string;
}

export interface SavedViewsTable {
  id: string;
  account_id: string;
  name: string;
  name_key: string;
  filters: string;
  created_at: string;
  updated_at: string;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  oauth_records: OAuthRecordsTable;
  namespaces: NamespacesTable;
  links: LinksTable;
  usage_counters: UsageCountersTable;
  clicks: ClicksTable;
  click_rollups: ClickRollupsTable;
  click_visitors: ClickVisitorsTable;
  account_usage: AccountUsageTable;
  journal_checkpoints: JournalCheckpointsTable;
  settings: SettingsTable;
  invites: InvitesTable;
  password_resets: PasswordResetsTable;
  audit_log: AuditLogTable;
  agent_clicks: AgentClicksTable;
  web2app_sessions: Web2appSessionsTable;
  affiliate_programs: AffiliateProgramsTable;
  affiliate_partnerships: AffiliatePartnershipsTable;
  affiliate_conversions: AffiliateConversionsTable;
  affiliate_paid_clicks: AffiliatePaidClicksTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  outbox_events: OutboxEventsTable;
  folders: FoldersTable;
  qr_settings: QrSettingsTable;
  link_scans: LinkScansTable;
  domains: DomainsTable;
  link_tags: LinkTagsTable;
  utm_templates: UtmTemplatesTable;
  saved_views: SavedViewsTable;
}
