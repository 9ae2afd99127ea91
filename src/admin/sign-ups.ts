import type { Clock } from '../clock.js';
import { errors } from '../errors.js';
import { isTier, TIERS, type Tier } from '../plans.js';
import { auditEntry, type Actor } from './audit.js';
import { looksLikeToken, oneTimeToken, tokenId } from './one-time.js';
import type { AdminRepository } from './repository.js';

export const SIGN_UP_MODES = ['open', 'invite', 'closed'] as const;
export type SignUpMode = (typeof SIGN_UP_MODES)[number];

export interface SignUpSettings {
  mode: SignUpMode;
  /** The plan an account made by sign-up gets (an invite may name another). */
  tier: Tier;
}

/** A plan named as people type it (`Pro`, ` pro `); INVALID_TIER otherwise. */
function tierOf(raw: string): Tier {
  const tier = raw.trim().toLowerCase();
  if (!isTier(tier)) throw errors.invalidTier(TIERS);
  return tier;
}

const INVITE_DAYS = 7;
const RESET_HOURS = 24;
const KEYS = { mode: 'sign-ups.mode', tier: 'sign-ups.tier' } as const;

/** A sign-up let in: the plan it gets, and what to do once its account exists or failed to be made. */
export interface AdmittedSignUp {
  tier: Tier;
  /** The account was made: the invite (if any) records who used it. */
  made(accountId: string): Promise<void>;
  /** The account could not be made (the email is taken, ...): the invite may be used again. */
  failed(): Promise<void>;
}

/**
 * Who may make an account from the sign-up page, and the one-time links the operator hands out (invites and password
 * resets). The settings start as SIGNUP says and are the operator's to change from the Admin area; the first account
 * of an empty database may always sign up, unless sign-ups are closed (it becomes the operator, src/accounts).
 */
export class SignUps {
  constructor(
    private readonly repo: AdminRepository,
    private readonly clock: Clock,
    private readonly defaults: SignUpSettings,
    private readonly baseUrl: string,
  ) {}

  async settings(): Promise<SignUpSettings> {
    const [mode, tier] = await Promise.all([this.repo.setting(KEYS.mode), this.repo.setting(KEYS.tier)]);
    return {
      mode: (SIGN_UP_MODES as readonly string[]).includes(mode ?? '') ? (mode as SignUpMode) : this.defaults.mode,
      tier: tier && isTier(tier) ? tier : this.defaults.tier,
    };
  }

  /** What the sign-up page needs to know before showing its form. */
  async options(): Promise<{ mode: SignUpMode; firstAccount: boolean }> {
    const [{ mode }, accounts] = await Promise.all([this.settings(), this.repo.accountCount()]);
    return { mode, firstAccount: accounts === 0 };
  }

  async update(actor: Actor, input: { mode: SignUpMode; tier: string }): Promise<SignUpSettings> {
    const settings = { mode: input.mode, tier: tierOf(input.tier) };
    await this.repo.putSettings({ [KEYS.mode]: settings.mode, [KEYS.tier]: settings.tier }, auditEntry(actor, this.clock.now(), 'sign-ups.update', null, { ...settings }));
    return settings;
  }

  async createInvite(actor: Actor, tierRaw: string | undefined): Promise<{ url: string; expiresAt: string; tier: Tier }> {
    const tier = tierRaw === undefined ? (await this.settings()).tier : tierOf(tierRaw);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + INVITE_DAYS * 86_400_000).toISOString();
    const { token, id } = oneTimeToken();
    await this.repo.insertInvite(
      { id, created_by: actor.name, tier, created_at: now.toISOString(), expires_at: expiresAt, used_at: null, used_by: null },
      auditEntry(actor, now, 'invite.create', null, { tier, expiresAt }),
    );
    return { url: `${this.baseUrl}/app/sign-up?invite=${token}`, expiresAt, tier };
  }

  /**
   * Lets a sign-up in, or refuses it with SIGNUP_CLOSED, INVITE_REQUIRED or INVALID_INVITE. An invite is taken here,
   * before the account is made, so two sign-ups with one invite cannot both get in; `failed` gives it back.
   */
  async admit(invite: string | undefined): Promise<AdmittedSignUp> {
    const { mode, tier } = await this.settings();
    if (mode === 'closed') throw errors.signupClosed();
    const open = { tier, made: async () => {}, failed: async () => {} };
    if (invite === undefined || invite === '') {
      if (mode === 'open' || (await this.repo.accountCount()) === 0) return open;
      throw errors.inviteRequired();
    }
    if (!looksLikeToken(invite)) throw errors.invalidInvite();
    const id = tokenId(invite);
    const invited = await this.repo.takeInvite(id, this.clock.now().toISOString());
    if (!invited) throw errors.invalidInvite();
    return {
      tier: isTier(invited) ? invited : tier,
      made: (accountId) => this.repo.inviteUsedBy(id, accountId),
      failed: () => this.repo.giveBackInvite(id),
    };
  }

  async createReset(actor: Actor, account: { id: string; email: string }): Promise<{ url: string; expiresAt: string }> {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + RESET_HOURS * 3_600_000).toISOString();
    const { token, id } = oneTimeToken();
    await this.repo.insertReset(
      { id, account_id: account.id, created_by: actor.name, created_at: now.toISOString(), expires_at: expiresAt, used_at: null },
      auditEntry(actor, now, 'account.password-reset', account.email, { expiresAt }),
    );
    return { url: `${this.baseUrl}/app/reset-password?token=${token}`, expiresAt };
  }

  /** Uses a reset link: answers the account it is for, or refuses with INVALID_RESET_TOKEN. */
  async takeReset(token: string): Promise<string> {
    const accountId = looksLikeToken(token) ? await this.repo.takeReset(tokenId(token), this.clock.now().toISOString()) : undefined;
    if (!accountId) throw errors.invalidResetToken();
    return accountId;
  }
}
