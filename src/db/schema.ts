import type { Generated } from 'kysely';

/** Timestamps are stored as ISO 8601 UTC strings on both dialects, so they compare and sort as text. */
export interface AccountsTable {
  id: string;
  email: string;
  tier: string;
  namespace: string | null;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  prefix: string;
  key_hash: string;
  created_at: string;
  revoked_at: string | null;
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
}

export interface UsageCountersTable {
  key: string;
  count: number;
  expires_at: string;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  namespaces: NamespacesTable;
  links: LinksTable;
  usage_counters: UsageCountersTable;
}
