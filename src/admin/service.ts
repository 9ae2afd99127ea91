import type { AccountsService } from '../accounts/service.js';
import { isRole, type Role } from '../caller.js';
import type { Clock } from '../clock.js';
import type { EventBus } from '../events/bus.js';
import type { AuditLogTable } from '../db/schema.js';
import { errors } from '../errors.js';
import type { LinkKey } from '../links/link-key.js';
import { toLink, type Link } from '../links/link.js';
import type { LinkPresenter } from '../links/presenters.js';
import type { LinksRepository } from '../links/repository.js';
import { isTier, TIERS, type Tier } from '../plans.js';
import { auditEntry, type Actor, type AuditAction } from './audit.js';
import type { AdminAccountRow, AdminRepository } from './repository.js';
import type { SignUps } from './sign-ups.js';

export interface AdminAccount {
  id: string;
  email: string;
  tier: Tier;
  role: Role;
  namespace: string | null;
  createdAt: string;
  disabledAt: string | null;
  disabledReason: string | null;
  linkCount: number;
}

export interface AdminLink {
  id: string;
  shortUrl: string;
  url: string;
  owner: { id: string; email: string };
  createdAt: string;
  clicks: number;
  disabledAt: string | null;
  disabledReason: string | null;
}

export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  action: string;
  target: string | null;
  detail: Record<string, unknown> | null;
}

export interface ServerStatus {
  version: string;
  database: 'sqlite' | 'postgres';
  redis: 'connected' | 'unavailable' | 'not configured';
  journalLag: number;
  webhookBacklog: number;
  accounts: number;
  links: number;
}

/** What the status panel reads from the running process. */
export interface ProcessState {
  version: string;
  database: 'sqlite' | 'postgres';
  /** null without REDIS_URL. */
  redis(): Promise<boolean | null>;
  /** Click records taken but not yet committed. */
  journalLag(): number;
}

const toAdminAccount = (row: AdminAccountRow): AdminAccount => ({
  id: row.id,
  email: row.email,
  tier: isTier(row.tier) ? row.tier : 'free',
  role: isRole(row.role) ? row.role : 'member',
  namespace: row.namespace,
  createdAt: row.created_at,
  disabledAt: row.disabled_at,
  disabledReason: row.disabled_reason,
  linkCount: row.links,
});

const REASON_MAX = 500;

/** A reason as the operator typed it: one line, trimmed, at most 500 characters. */
function reasonOf(raw: string | undefined, required: boolean): string | null {
  // eslint-disable-next-line no-control-regex
  const reason = (raw ?? '').replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  if (reason.length > REASON_MAX || (required && reason === '')) throw errors.invalidReason(REASON_MAX);
  return reason === '' ? null : reason;
}

/**
 * The operator's admin operations: accounts (plan, role, disable, reset, delete), abuse (disable a link), the
 * server's status and the audit log. Every change writes its audit entry with who did it, in the change's transaction
 * where the change is this service's own.
 */
export class AdminService {
  constructor(
    private readonly repo: AdminRepository,
    private readonly accounts: AccountsService,
    private readonly links: LinksRepository,
    private readonly present: LinkPresenter,
    readonly signUps: SignUps,
    private readonly process: ProcessState,
    private readonly clock: Clock,
    private readonly bus: EventBus,
  ) {}

  async listAccounts(input: { q?: string; limit?: number; offset?: number }): Promise<{ accounts: AdminAccount[]; total: number }> {
    const { rows, total } = await this.repo.searchAccounts((input.q ?? '').trim(), input.limit ?? 50, input.offset ?? 0);
    return { accounts: rows.map(toAdminAccount), total };
  }

  async account(id: string): Promise<AdminAccount> {
    return toAdminAccount(await this.requireAccount(id));
  }

  /** The account of an email, for the CLI, which names accounts by email. */
  async accountIdOf(email: string): Promise<string> {
    return (await this.accounts.requireByEmail(email)).id;
  }

  async setPlan(actor: Actor, id: string, tierRaw: string): Promise<AdminAccount> {
    const tier = tierRaw.trim().toLowerCase();
    if (!isTier(tier)) throw errors.invalidTier(TIERS);
    const account = await this.requireAccount(id);
    if (account.tier === tier) return toAdminAccount(account);
    await this.change(id, { tier }, this.entry(actor, 'account.plan', account.email, { from: account.tier, to: tier }));
    return this.account(id);
  }

  async setRole(actor: Actor, id: string, roleRaw: string): Promise<AdminAccount> {
    if (!isRole(roleRaw)) throw errors.invalidRole(['member', 'operator']);
    const account = await this.requireAccount(id);
    if (roleRaw === 'member' && actor.id === id) throw errors.ownAccount();
    if (account.role === roleRaw) return toAdminAccount(account);
    await this.change(id, { role: roleRaw }, this.entry(actor, 'account.role', account.email, { from: account.role, to: roleRaw }), { keepAnOperator: roleRaw === 'member' });
    return this.account(id);
  }

  /** Its keys, sessions and OAuth grants stop at once (sessions end; keys and grants are refused while disabled); its links keep redirecting. */
  async disable(actor: Actor, id: string, reasonRaw?: string): Promise<AdminAccount> {
    if (actor.id === id) throw errors.ownAccount();
    const account = await this.requireAccount(id);
    const reason = reasonOf(reasonRaw, false);
    const at = this.clock.now().toISOString();
    await this.change(id, { disabled_at: account.disabled_at ?? at, disabled_reason: reason }, this.entry(actor, 'account.disable', account.email, { reason }), {
      endSessions: true,
      keepAnOperator: account.role === 'operator',
    });
    return this.account(id);
  }

  async enable(actor: Actor, id: string): Promise<AdminAccount> {
    const account = await this.requireAccount(id);
    if (account.disabled_at === null) return toAdminAccount(account);
    await this.change(id, { disabled_at: null, disabled_reason: null }, this.entry(actor, 'account.enable', account.email));
    return this.account(id);
  }

  async passwordReset(actor: Actor, id: string): Promise<{ url: string; expiresAt: string }> {
    const account = await this.requireAccount(id);
    // Its link would be used up for nothing: a disabled account cannot sign in.
    if (account.disabled_at !== null) throw errors.accountDisabled();
    return this.signUps.createReset(actor, account);
  }

  async deleteAccount(actor: Actor, id: string): Promise<{ deleted: true; links: number; apiKeys: number; clicks: number }> {
    if (actor.id === id) throw errors.ownAccount();
    // An operator in the browser cannot delete their own account, so another operator stays; the CLI may delete any.
    const account = await this.requireAccount(id);
    const { deleted } = await this.accounts.deleteAccount(account.email);
    await this.repo.audit(this.entry(actor, 'account.delete', account.email, { ...deleted }));
    return { deleted: true, ...deleted };
  }

  /** A link by its short URL (on the default host or a custom domain) or its short path (`abc123`, `ns/slug`). */
  async findLink(raw: string): Promise<AdminLink> {
    const row = await this.links.find(keyOf(raw));
    if (!row) throw errors.notFound();
    return this.adminLink(toLink(row));
  }

  async disableLink(actor: Actor, id: string, reasonRaw: string): Promise<AdminLink> {
    const reason = reasonOf(reasonRaw, true)!;
    const link = await this.requireLink(id);
    // Through the links' own update and its event, so the redirect caches of every instance drop it at once.
    const at = this.clock.now().toISOString();
    const row = await this.links.update(link, { disabled_at: link.disabledAt ?? at, disabled_reason: reason, updated_at: at });
    if (!row) throw errors.notFound();
    this.bus.emit('link.updated', { link: toLink(row), previous: link });
    await this.repo.audit(this.entry(actor, 'link.disable', this.present.shortUrl(link), { reason, owner: (await this.accounts.accountById(link.accountId))?.email ?? null }));
    return this.adminLink(toLink(row));
  }

  async enableLink(actor: Actor, id: string): Promise<AdminLink> {
    const link = await this.requireLink(id);
    if (link.disabledAt === null) return this.adminLink(link);
    const row = await this.links.update(link, { disabled_at: null, disabled_reason: null, updated_at: this.clock.now().toISOString() });
    if (!row) throw errors.notFound();
    this.bus.emit('link.updated', { link: toLink(row), previous: link });
    await this.repo.audit(this.entry(actor, 'link.enable', this.present.shortUrl(link)));
    return this.adminLink(toLink(row));
  }

  /** An operator action another service carried out (the CLI's `users set-password`, `keys create --admin`), for the log. */
  async record(actor: Actor, action: AuditAction, target: string | null, detail: Record<string, unknown> | null = null): Promise<void> {
    await this.repo.audit(this.entry(actor, action, target, detail));
  }

  async status(): Promise<ServerStatus> {
    const [counts, redis] = await Promise.all([this.repo.counts(), this.process.redis()]);
    return {
      version: this.process.version,
      database: this.process.database,
      redis: redis === null ? 'not configured' : redis ? 'connected' : 'unavailable',
      journalLag: this.process.journalLag(),
      ...counts,
    };
  }

  /** The newest entries first; `before` is the id of the last entry of the previous page. */
  async audit(input: { limit?: number; before?: string }): Promise<{ entries: AuditEntry[]; next: string | null }> {
    const limit = input.limit ?? 50;
    const before = input.before ? await this.repo.auditEntry(input.before) : undefined;
    if (input.before && !before) throw errors.invalidCursor();
    const rows = await this.repo.auditPage(limit + 1, before ? { at: before.at, id: before.id } : null);
    const page = rows.slice(0, limit);
    return {
      entries: page.map((row) => ({ id: row.id, at: row.at, actor: row.actor, action: row.action, target: row.target, detail: row.detail === null ? null : (JSON.parse(row.detail) as Record<string, unknown>) })),
      next: rows.length > limit ? page[page.length - 1]!.id : null,
    };
  }

  private entry(actor: Actor, action: AuditAction, target: string | null, detail: Record<string, unknown> | null = null): AuditLogTable {
    return auditEntry(actor, this.clock.now(), action, target, detail);
  }

  private async change(id: string, change: Parameters<AdminRepository['changeAccount']>[1], audit: AuditLogTable, options?: Parameters<AdminRepository['changeAccount']>[3]) {
    const result = await this.repo.changeAccount(id, change, audit, options);
    if (result === 'missing') throw errors.accountNotFound();
    if (result === 'last-operator') throw errors.lastOperator();
  }

  private async requireAccount(id: string): Promise<AdminAccountRow> {
    const account = await this.repo.findAccount(id);
    if (!account) throw errors.accountNotFound();
    return account;
  }

  private async requireLink(id: string): Promise<Link> {
    const row = await this.links.findById(id);
    if (!row) throw errors.notFound();
    return toLink(row);
  }

  private async adminLink(link: Link): Promise<AdminLink> {
    const owner = await this.accounts.accountById(link.accountId);
    return {
      id: link.id,
      shortUrl: this.present.shortUrl(link),
      url: link.url,
      owner: { id: link.accountId, email: owner?.email ?? '' },
      createdAt: link.createdAt,
      clicks: link.clicks,
      disabledAt: link.disabledAt,
      disabledReason: link.disabledReason,
    };
  }
}

/** The short path of a short URL or of a path as typed: the code, or namespace/slug. */
function keyOf(raw: string): LinkKey {
  let path = raw.trim();
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      throw errors.notFound();
    }
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(path.replace(/^\/+|\/+$/g, ''));
  } catch {
    throw errors.notFound();
  }
  const parts = decoded.split('/');
  if (parts.length === 1 && parts[0]) return { code: parts[0] };
  if (parts.length === 2 && parts[0] && parts[1]) return { namespace: parts[0].toLowerCase(), slug: parts[1] };
  throw errors.notFound();
}
