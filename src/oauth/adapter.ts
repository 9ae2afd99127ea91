import { errors as oauthErrors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Clock } from '../clock.js';
import { secretHash } from '../ids.js';
import type { OAuthRepository } from './repository.js';

/**
 * Records whose id is a bearer secret: a code, a token, an interaction's cookie. Only the id's hash is stored, and the
 * payload's own copy of it (`jti`) is left out; a copy of the table redeems nothing.
 */
const SECRET_IDS = new Set(['AccessToken', 'RefreshToken', 'AuthorizationCode', 'RegistrationAccessToken', 'Interaction', 'ClientCredentials', 'DeviceCode', 'BackchannelAuthenticationRequest', 'PushedAuthorizationRequest']);

/**
 * The library's own browser session is never stored: Snip's dashboard session is the only sign-in (every authorization
 * signs in and asks for consent on Snip's pages), no token is bound to the library's session (src/oauth/provider.ts),
 * and nothing of the library's logout remains. So no request, a GET to any address included, writes a session row.
 */
const NOT_KEPT = new Set(['Session']);

/** Ids and uids are URL-safe text the server made; anything else (a NUL byte, a megabyte) is no record's, unread. */
const plausibleId = (id: unknown): id is string => typeof id === 'string' && /^[\x21-\x7e]{1,512}$/.test(id);

/**
 * oidc-provider's storage interface over `oauth_records` (one adapter per model). Expiry is read by Snip's clock, so
 * a record is gone for the server exactly when its row says so.
 */
export function oauthAdapter(repo: OAuthRepository, clock: Clock) {
  return class SnipOAuthAdapter implements Adapter {
    private readonly secret: boolean;
    private readonly kept: boolean;

    constructor(private readonly model: string) {
      this.secret = SECRET_IDS.has(model);
      this.kept = !NOT_KEPT.has(model);
    }

    private key(id: string): string {
      return this.secret ? secretHash(id) : id;
    }

    private now(): string {
      return clock.now().toISOString();
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      if (!this.kept) return;
      const now = clock.now();
      const stored = this.secret ? { ...payload, jti: undefined } : payload;
      const grantId = this.model === 'Grant' ? id : (payload.grantId ?? null);
      await repo.upsert({
        model: this.model,
        id: this.key(id),
        payload: JSON.stringify(stored),
        grant_id: grantId,
        uid: payload.uid ?? null,
        account_id: payload.accountId ?? null,
        client_id: this.model === 'Client' ? id : (payload.clientId ?? null),
        created_at: now.toISOString(),
        expires_at: typeof expiresIn === 'number' ? new Date(now.getTime() + expiresIn * 1000).toISOString() : null,
        consumed_at: payload.consumed ? new Date(payload.consumed * 1000).toISOString() : null,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (!this.kept || !plausibleId(id)) return undefined;
      const row = await repo.find(this.model, this.key(id), this.now());
      return row ? this.payloadOf(row, id) : undefined;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      if (!this.kept || !plausibleId(uid)) return undefined;
      const row = await repo.find(this.model, uid, this.now(), 'uid');
      return row ? (JSON.parse(row.payload) as AdapterPayload) : undefined;
    }

    async findByUserCode(): Promise<undefined> {
      return undefined;
    }

    /**
     * Marks a code or refresh token used. Two requests racing with one of them both read it unused; the row decides
     * which consumed it, and the other is treated as the reuse it is: the family is revoked.
     */
    async consume(id: string): Promise<void> {
      if (await repo.consume(this.model, this.key(id), this.now())) return;
      const row = await repo.find(this.model, this.key(id), this.now());
      if (row?.grant_id && row.account_id) await repo.revokeGrant(row.account_id, row.grant_id);
      throw new oauthErrors.InvalidGrant('grant already used');
    }

    async destroy(id: string): Promise<void> {
      await repo.destroy(this.model, this.key(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await repo.revokeByGrantId(this.model, grantId);
    }

    private payloadOf(row: { payload: string; consumed_at: string | null }, id: string): AdapterPayload {
      const payload = JSON.parse(row.payload) as AdapterPayload;
      if (this.secret) payload.jti = id;
      if (row.consumed_at) payload.consumed = Math.floor(new Date(row.consumed_at).getTime() / 1000);
      return payload;
    }
  };
}
