import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Account, AccountsService } from '../accounts/service.js';
import { isRole, type Caller } from '../caller.js';
import { isTier } from '../plans.js';
import type { Clock } from '../clock.js';
import { errors } from '../errors.js';
import type { AttemptLimits } from './attempt-limits.js';
import { checkNewPassword, decoyHash, hashPassword, verifyPassword } from './passwords.js';
import type { SessionRow, SessionsRepository } from './repository.js';

/** How long a sign-in lasts; signing out, a password change or the operator's reset ends it sooner. */
export const SESSION_DAYS = 30;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * The CSRF token of a session, derived from its secret token: a page of Snip's reads it from the session answer,
 * a page elsewhere can neither read the cookie nor the answer, so it cannot make one.
 */
export const csrfTokenOf = (token: string): string => sha256(`csrf:${token}`);

export interface SignedIn {
  /** The cookie's value; only its hash is stored. */
  token: string;
  csrfToken: string;
  account: Pick<Account, 'id' | 'email' | 'tier' | 'namespace' | 'role'>;
  expiresAt: Date;
}

/** Who may sign up, and the operator's one-time links (src/admin/sign-ups.ts). */
export interface SignUpGate {
  /** Refuses a sign-up (SIGNUP_CLOSED, INVITE_REQUIRED, INVALID_INVITE) or answers its plan and what to do after. */
  admit(invite: string | undefined): Promise<{ tier: string; made(accountId: string): Promise<void>; failed(): Promise<void> }>;
  options(): Promise<{ mode: 'open' | 'invite' | 'closed'; firstAccount: boolean }>;
  /** The account a password reset link is for, using the link up; INVALID_RESET_TOKEN otherwise. */
  takeReset(token: string): Promise<string>;
}

export interface SessionCaller extends Caller {
  sessionId: string;
}

type AccountFields = { id: string; email: string; tier: string; namespace: string | null; role?: string };

const publicAccount = (a: AccountFields) => ({
  id: a.id,
  email: a.email,
  tier: isTier(a.tier) ? a.tier : ('free' as const),
  namespace: a.namespace,
  role: a.role && isRole(a.role) ? a.role : ('member' as const),
});

/**
 * Sign-up, sign-in and sessions for the dashboard. A session is one more way to be a `Caller`: the operations,
 * their tier rules and limits are the same as for an API key (src/access/policy.ts says what differs).
 */
export class SessionsService {
  constructor(
    private readonly repo: SessionsRepository,
    private readonly accounts: AccountsService,
    private readonly limits: AttemptLimits,
    private readonly clock: Clock,
    private readonly gate: SignUpGate,
  ) {}

  /** An account of the sign-up plan (or the invite's) with its namespace and first key, as `users create` makes, signed in. */
  async signUp(input: { email: string; password: string; invite?: string }, address: string): Promise<SignedIn> {
    checkNewPassword(input.password);
    // Every sign-up is counted, not only failures: each costs a hash and makes an account.
    await this.limits.charge(address, null);
    const admitted = await this.gate.admit(input.invite);
    let account: Awaited<ReturnType<AccountsService['createAccount']>>;
    try {
      account = await this.accounts.createAccount({ email: input.email, tier: admitted.tier, passwordHash: await hashPassword(input.password) });
    } catch (error) {
      await admitted.failed();
      throw error;
    }
    await admitted.made(account.id);
    return this.open(account);
  }

  /** Sets a new password with the operator's one-time reset link; every session of the account ends, this browser signs in. */
  async resetPassword(input: { token: string; password: string }, address: string): Promise<SignedIn> {
    checkNewPassword(input.password);
    await this.limits.charge(address, null);
    const account = await this.accounts.accountById(await this.gate.takeReset(input.token));
    if (!account) throw errors.invalidResetToken();
    if (account.disabledAt !== null) throw errors.accountDisabled();
    const next = this.newSession(account.id);
    await this.repo.replacePassword(account.id, await hashPassword(input.password), next.row);
    return this.signedIn(next, account);
  }

  /** What the sign-up page shows: whether it is open, and whether this is the server's first account. */
  signUpOptions(): ReturnType<SignUpGate['options']> {
    return this.gate.options();
  }

  async signIn(input: { email: string; password: string }, address: string): Promise<SignedIn> {
    const email = input.email.trim().toLowerCase();
    const succeeded = await this.limits.charge(address, email);
    const account = await this.accounts.findForSignIn(email);
    // An unknown email or an account without a password costs the same hash as a wrong password.
    const matches = await verifyPassword(input.password, account?.password_hash ?? (await decoyHash()));
    if (!account || !account.password_hash || !matches) throw errors.badCredentials();
    await succeeded();
    if (account.disabled_at !== null) throw errors.accountDisabled();
    return this.open(account);
  }

  /** The caller of a session cookie; null when the token is unknown, expired or ended. */
  async authenticate(token: string): Promise<SessionCaller | null> {
    if (token.length < 20 || token.length > 100) return null;
    const row = await this.repo.findLive(sha256(token), this.clock.now().toISOString());
    if (!row || row.disabled_at !== null) return null;
    const account = publicAccount(row);
    return { accountId: account.id, email: account.email, tier: account.tier, namespace: account.namespace, role: account.role, keyId: 'session', via: 'session', sessionId: row.session_id };
  }

  /** True when `given` is the CSRF token of the session `token` opened (compared in constant time). */
  csrfMatches(token: string, given: string | undefined): boolean {
    if (!given) return false;
    const expected = Buffer.from(csrfTokenOf(token));
    const actual = Buffer.from(given);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }

  async signOut(token: string): Promise<void> {
    await this.repo.delete(sha256(token));
  }

  /** What the dashboard learns of its session: the account and the CSRF token to send with changes. */
  async describe(caller: Caller, token: string) {
    const profile = await this.accounts.profile(caller.accountId);
    return { account: publicAccount(profile), csrfToken: csrfTokenOf(token) };
  }

  /** Changes the password after checking the current one; every other session ends, this browser gets a new one. */
  async changePassword(caller: Caller, input: { currentPassword: string; newPassword: string }, address: string): Promise<SignedIn> {
    checkNewPassword(input.newPassword);
    const account = await this.accounts.findForSignIn(caller.email);
    if (!account) throw errors.sessionRequired();
    const succeeded = await this.limits.charge(address, account.email);
    if (!account.password_hash || !(await verifyPassword(input.currentPassword, account.password_hash))) throw errors.wrongPassword();
    await succeeded();
    const next = this.newSession(account.id);
    await this.repo.replacePassword(account.id, await hashPassword(input.newPassword), next.row);
    return this.signedIn(next, account);
  }

  /** Operator CLI `users set-password`: sets the password and signs the account out everywhere. */
  async setPasswordAsOperator(email: string, password: string): Promise<{ email: string; passwordSet: true; sessionsEnded: number }> {
    checkNewPassword(password);
    const account = await this.accounts.requireByEmail(email);
    const ended = await this.repo.replacePassword(account.id, await hashPassword(password), null);
    return { email: account.email, passwordSet: true, sessionsEnded: ended };
  }

  private async open(account: AccountFields): Promise<SignedIn> {
    await this.repo.deleteExpired(account.id, this.clock.now().toISOString());
    const next = this.newSession(account.id);
    await this.repo.insert(next.row);
    return this.signedIn(next, account);
  }

  private newSession(accountId: string): { token: string; row: SessionRow } {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const expires = new Date(now.getTime() + SESSION_DAYS * 86_400_000);
    return { token, row: { id: sha256(token), account_id: accountId, created_at: now.toISOString(), expires_at: expires.toISOString() } };
  }

  private signedIn(next: { token: string; row: SessionRow }, account: AccountFields): SignedIn {
    return { token: next.token, csrfToken: csrfTokenOf(next.token), account: publicAccount(account), expiresAt: new Date(next.row.expires_at) };
  }
}
