import { isRole, type Caller, type Role } from '../caller.js';
import type { Clock } from '../clock.js';
import type { EventBus } from '../events/bus.js';
import { isUniqueViolation } from '../db/database.js';
import { errors } from '../errors.js';
import { newId } from '../ids.js';
import { withoutControlCharacters } from '../control-characters.js';
import { generateApiKey, hashApiKey, looksLikeApiKey } from './api-keys.js';
import { namespaceCandidates, normalizeNamespace } from './namespace-rules.js';
import { TIERS, isTier, limitsOf, type PlanLimits, type Plans, type Tier } from '../plans.js';
import type { AccountRow, AccountsRepository, ApiKeyRow, DeletedCounts } from './repository.js';

export interface Account {
  id: string;
  email: string;
  tier: Tier;
  namespace: string | null;
  role: Role;
  createdAt: string;
  /** Set while an operator has disabled the account. */
  disabledAt: string | null;
}

export interface Profile extends Omit<Account, 'disabledAt'> {
  limits: PlanLimits;
}

/** A prefix the account holds (spec 4.3 `set_namespace`, `delete_namespace`). */
export interface NamespaceInfo {
  namespace: string;
  /** The prefix new custom-slug links get (the account's `namespace`). */
  current: boolean;
  /** Links under this prefix; a prefix with links cannot be released. */
  linkCount: number;
  createdAt: string;
}

export interface ApiKeyInfo {
  id: string;
  prefix: string;
  createdAt: string;
  /** What its owner called it; null when unnamed. */
  name: string | null;
  /** When it was last used (to the minute); null when never. */
  lastUsedAt: string | null;
  /** Extra scopes (`admin`); absent for an ordinary key. */
  scopes?: string[];
}

/** An account as an operator lists it. */
export interface AccountSummary extends Account {
  linkCount: number;
}

/** A key as an operator lists it: never the secret or its hash, only the short display prefix. */
export interface ApiKeyListing extends ApiKeyInfo {
  /** When the key was revoked; null while it works. */
  revokedAt: string | null;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function parseTier(raw: string): Tier {
  const tier = raw.trim().toLowerCase();
  if (!isTier(tier)) throw errors.invalidTier(TIERS);
  return tier;
}

function parseEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !EMAIL_PATTERN.test(email)) throw errors.invalidEmail();
  return email;
}

const toAccount = (row: AccountRow): Account => ({
  id: row.id,
  email: row.email,
  tier: isTier(row.tier) ? row.tier : 'free',
  namespace: row.namespace,
  role: isRole(row.role) ? row.role : 'member',
  createdAt: row.created_at,
  disabledAt: row.disabled_at,
});

const toKeyInfo = (row: ApiKeyRow): ApiKeyInfo => ({
  id: row.id,
  prefix: row.prefix,
  createdAt: row.created_at,
  name: row.name,
  lastUsedAt: row.last_used_at,
  ...(row.scopes ? { scopes: row.scopes.split(' ') } : {}),
});

/** A key's name as its owner typed it: one line, trimmed, 1-100 characters. */
function keyName(raw: string): string {
  const name = withoutControlCharacters(raw.trim());
  if (name.length === 0 || name.length > 100) throw errors.invalidKeyName();
  return name;
}

/** The caller an account is, whichever way it calls (a key, a session, an OAuth grant add what is theirs). */
export const callerOf = (account: Account): Omit<Caller, 'keyId'> => ({
  accountId: account.id,
  email: account.email,
  tier: account.tier,
  namespace: account.namespace,
  role: account.role,
});

export class AccountsService {
  constructor(
    private readonly repo: AccountsRepository,
    private readonly clock: Clock,
    private readonly plans: Plans,
    /** Where a deleted account is announced: the redirect caches (of every instance) drop its links. */
    private readonly bus?: EventBus,
  ) {}

  /** A new account with its namespace and first key; `passwordHash` (sign-up) is stored in the same transaction. */
  async createAccount(input: { email: string; tier: string; passwordHash?: string }): Promise<Account & { apiKey: string }> {
    const email = parseEmail(input.email);
    const tier = parseTier(input.tier);
    if (await this.repo.findByEmail(email)) throw errors.emailTaken(email);
    const createdAt = this.clock.now().toISOString();
    for (const namespace of namespaceCandidates(email)) {
      if (await this.repo.namespaceOwner(namespace)) continue;
      const account: AccountRow = { id: newId('acct'), email, tier, namespace, created_at: createdAt, overage_limit_cents: null, password_hash: input.passwordHash ?? null, role: 'member', disabled_at: null, disabled_reason: null };
      const generated = generateApiKey();
      const key = this.keyRow(account.id, generated, createdAt);
      try {
        account.role = await this.repo.insertAccount(account, key);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (await this.repo.findByEmail(email)) throw errors.emailTaken(email);
        continue; // another account took the namespace in between; try the next candidate
      }
      return { ...toAccount(account), apiKey: generated.key };
    }
    throw errors.namespaceExhausted();
  }

  /** Every account, oldest first, with its link count (operator `users list`). */
  async listAccounts(): Promise<AccountSummary[]> {
    return (await this.repo.listWithLinkCounts()).map((row) => ({ ...toAccount(row), linkCount: row.links }));
  }

  /** Every key of the account, revoked ones too, oldest first (operator `keys list`). */
  async keysOf(emailRaw: string): Promise<{ email: string; keys: ApiKeyListing[] }> {
    const account = await this.requireByEmail(emailRaw);
    const keys = await this.repo.listAllKeys(account.id);
    return { email: account.email, keys: keys.map((row) => ({ ...toKeyInfo(row), revokedAt: row.revoked_at })) };
  }

  /**
   * Deletes the account and everything it owns (links, clicks, keys, webhooks, folders, domains, ...; see
   * `AccountsRepository.deleteAccount`), for good. Its namespaces and domains become free to claim.
   */
  async deleteAccount(emailRaw: string): Promise<Account & { deleted: DeletedCounts }> {
    const account = await this.requireByEmail(emailRaw);
    const counts = await this.repo.deleteAccount(account.id);
    if (!counts) throw errors.accountNotFound('No account with that email');
    this.bus?.emit('account.deleted', { accountId: account.id });
    return { ...toAccount(account), deleted: counts };
  }

  async setTier(emailRaw: string, tierRaw: string): Promise<Account> {
    const account = await this.requireByEmail(emailRaw);
    const tier = parseTier(tierRaw);
    await this.repo.setTier(account.id, tier);
    return { ...toAccount(account), tier };
  }

  async requireByEmail(emailRaw: string): Promise<AccountRow> {
    const account = await this.repo.findByEmail(parseEmail(emailRaw));
    if (!account) throw errors.accountNotFound('No account with that email');
    return account;
  }

  /** Resolves a bearer token to its caller; the account (and tier) is read fresh on every call. */
  async authenticate(token: string | undefined): Promise<Caller> {
    if (!token) throw errors.apiKeyRequired();
    if (!looksLikeApiKey(token)) throw errors.invalidApiKey();
    const row = await this.repo.findByKeyHash(hashApiKey(token));
    if (!row) throw errors.invalidApiKey();
    if (row.disabled_at !== null) throw errors.accountDisabled();
    const account = toAccount(row);
    const now = this.clock.now();
    // A key's last use is for its owner's list, not an access log: once a minute is precise enough and spares the writes.
    if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) >= 60_000) await this.repo.touchKey(row.key_id, now.toISOString());
    return {
      ...callerOf(account),
      keyId: row.key_id,
      clientName: row.mcp_client_name,
      ...(row.key_scopes ? { keyScopes: new Set(row.key_scopes.split(' ')) } : {}),
    };
  }

  /**
   * Remembers the MCP client a key introduced itself as (initialize's clientInfo.name), for the calls of later,
   * stateless POSTs; answers the name as kept (one line, at most 100 characters), or null for none given.
   */
  async rememberMcpClient(keyId: string, raw: unknown): Promise<string | null> {
    if (typeof raw !== 'string') return null;
    const clientName = withoutControlCharacters(raw.trim()).slice(0, 100);
    if (clientName === '') return null;
    // Only a real key remembers it; the operator's and a session's callers have no key row.
    if (keyId.startsWith('key_')) await this.repo.setMcpClientName(keyId, clientName);
    return clientName;
  }

  /** The account row for a sign-in by email, password hash included; undefined for an email no account has. */
  async findForSignIn(email: string): Promise<AccountRow | undefined> {
    const trimmed = email.trim().toLowerCase();
    if (trimmed.length > 254 || !EMAIL_PATTERN.test(trimmed)) return undefined;
    return this.repo.findByEmail(trimmed);
  }

  /** The account acting without a key: the operator CLI works on an account's behalf this way. */
  async callerFor(emailRaw: string): Promise<Caller> {
    return { ...callerOf(toAccount(await this.requireByEmail(emailRaw))), keyId: 'operator' };
  }

  /** The account of that id, or null when there is none (any longer). */
  async accountById(accountId: string): Promise<Account | null> {
    const row = await this.repo.findById(accountId);
    return row ? toAccount(row) : null;
  }

  async profile(accountId: string): Promise<Profile> {
    const row = await this.repo.findById(accountId);
    if (!row) throw errors.accountNotFound();
    const { disabledAt: _disabled, ...account } = toAccount(row);
    return { ...account, limits: limitsOf(this.plans, account) };
  }

  /** `scopes`: extra scopes (`admin`, for an operator's key that calls the admin operations; the CLI's `keys create --admin`). */
  async createKey(accountId: string, options: { name?: string; scopes?: string[] } = {}): Promise<ApiKeyInfo & { apiKey: string }> {
    const generated = generateApiKey();
    const row = this.keyRow(accountId, generated, this.clock.now().toISOString());
    row.name = options.name === undefined ? null : keyName(options.name);
    row.scopes = options.scopes && options.scopes.length > 0 ? options.scopes.join(' ') : null;
    await this.repo.insertKey(row);
    return { ...toKeyInfo(row), apiKey: generated.key };
  }

  async listKeys(accountId: string): Promise<ApiKeyInfo[]> {
    return (await this.repo.listKeys(accountId)).map(toKeyInfo);
  }

  /** Revokes one of the account's keys; someone else's key id is reported as unknown. */
  async revokeKey(accountId: string, keyId: string): Promise<void> {
    const key = await this.repo.findKey({ id: keyId });
    if (!key || key.account_id !== accountId || key.revoked_at) {
      throw errors.keyNotFound('No active API key with that id');
    }
    await this.repo.revokeKey(key.id, this.clock.now().toISOString());
  }

  /** Operator revocation by the key's value or id. */
  async revokeKeyAsOperator(keyOrId: string): Promise<ApiKeyInfo & { accountId: string }> {
    const key = await this.repo.findKey(looksLikeApiKey(keyOrId) ? { keyHash: hashApiKey(keyOrId) } : { id: keyOrId });
    if (!key || key.revoked_at) throw errors.keyNotFound();
    await this.repo.revokeKey(key.id, this.clock.now().toISOString());
    return { ...toKeyInfo(key), accountId: key.account_id };
  }

  async claimNamespace(accountId: string, raw: string): Promise<{ namespace: string }> {
    const prefix = normalizeNamespace(raw);
    let claimed: boolean;
    try {
      claimed = await this.repo.claimNamespace(accountId, prefix, this.clock.now().toISOString());
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      claimed = false;
    }
    if (!claimed) throw errors.namespaceTaken(prefix);
    return { namespace: prefix };
  }

  /**
   * Every prefix the account holds (a claimed prefix stays the account's after it claims another, so the links
   * under it keep their paths), oldest first, which one is current, and how many links use each.
   */
  async namespaces(accountId: string): Promise<NamespaceInfo[]> {
    const account = await this.repo.findById(accountId);
    if (!account) throw errors.accountNotFound();
    const held = await this.repo.namespacesOf(accountId);
    return held.map((n) => ({ namespace: n.prefix, current: n.prefix === account.namespace, linkCount: n.links, createdAt: n.created_at }));
  }

  /**
   * Gives up a prefix the account holds, so anyone may claim it again. Refused for the current namespace (400
   * NAMESPACE_IN_USE: claim another first) and while links use it (409 NAMESPACE_HAS_LINKS: their paths would pass
   * to the next owner); a prefix the account does not hold is 404 NAMESPACE_NOT_FOUND, whoever holds it.
   */
  async releaseNamespace(accountId: string, raw: string): Promise<{ namespace: string }> {
    const prefix = raw.trim().toLowerCase();
    // The delete checks every rule in one statement; when it deletes nothing, the reads below say why. A rule
    // that no longer holds on reading (the current namespace changed meanwhile) means another attempt.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await this.repo.releaseNamespace(accountId, prefix)) return { namespace: prefix };
      if ((await this.repo.namespaceOwner(prefix)) !== accountId) {
        throw errors.namespaceNotFound(prefix);
      }
      if ((await this.repo.findById(accountId))?.namespace === prefix) {
        throw errors.namespaceInUse(prefix);
      }
      const links = await this.repo.namespaceLinkCount(prefix);
      if (links > 0) {
        throw errors.namespaceHasLinks(prefix, links);
      }
    }
    throw errors.namespaceBusy(prefix);
  }

  private keyRow(accountId: string, generated: ReturnType<typeof generateApiKey>, createdAt: string): ApiKeyRow {
    return {
      id: newId('key'),
      account_id: accountId,
      prefix: generated.displayPrefix,
      key_hash: generated.hash,
      created_at: createdAt,
      revoked_at: null,
      mcp_client_name: null,
      name: null,
      last_used_at: null,
      scopes: null,
    };
  }
}
