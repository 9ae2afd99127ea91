import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type Provider from 'oidc-provider';
import type { AccountsService } from '../accounts/service.js';
import type { Caller } from '../caller.js';
import type { Clock } from '../clock.js';
import { errors } from '../errors.js';
import { withoutControlCharacters } from '../control-characters.js';
import type { OAuthRepository } from './repository.js';
import { PeriodicSweep, type SweepFailures } from '../runtime/periodic-sweep.js';
import type { CounterStore } from '../usage/counters.js';
import { RegistrationLimits, type RegistrationBudget } from './registration-limits.js';
import { parseScopes, type Scope } from './scopes.js';

/** An application connected to an account by OAuth, as the dashboard lists it. */
export interface Connection {
  id: string;
  clientId: string;
  clientName: string;
  clientUri: string | null;
  scopes: Scope[];
  connectedAt: string;
  expiresAt: string | null;
}

/** An authorization in progress, as the sign-in and consent pages need it. */
export interface PendingAuthorization {
  uid: string;
  clientId: string;
  clientName: string;
  clientUri: string | null;
  /** Where the application gets its answer: its redirect URI's host, or its scheme for an app. */
  redirectTo: string;
  /** Snip's scopes the request asks for; empty when it asks for none Snip has (the page then says so). */
  scopes: Scope[];
}

type Raw = { req: IncomingMessage; res: ServerResponse };

/**
 * A registration no account has connected is dropped after this long (a day: an authorization takes minutes); one
 * with a connection is kept while the connection lasts. A client that comes back later registers again.
 */
const UNUSED_CLIENT_MS = 24 * 3_600_000;

/** A name a client registered, as shown to people: one line, bounded; its id when it gave none. */
const displayName = (name: unknown, fallback: string): string => {
  const text = typeof name === 'string' ? withoutControlCharacters(name).trim().slice(0, 100) : '';
  return text === '' ? fallback : text;
};

const httpUrlOrNull = (value: unknown): string | null => (typeof value === 'string' && /^https?:\/\//i.test(value) ? value.slice(0, 500) : null);

function whereTo(redirectUri: unknown): string {
  try {
    const url = new URL(String(redirectUri));
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : url.protocol;
  } catch {
    return 'the application';
  }
}

/**
 * OAuth 2.1 for the MCP endpoint, over the authorization server (src/oauth/provider.ts): who an access token
 * belongs to, the account's connected applications, and the outcome of the consent page. An access token is one more
 * way to be a `Caller`: the account's tier is read on every call, as for a key, and its scopes narrow the tools.
 */
export class OAuthService {
  private readonly sweeps = new PeriodicSweep(() => this.sweep(), 60 * 60_000);
  private readonly registrations: RegistrationLimits;

  constructor(
    private readonly provider: Provider,
    private readonly repo: OAuthRepository,
    private readonly accounts: AccountsService,
    private readonly clock: Clock,
    /** The MCP endpoint's URL: the only resource (RFC 8707) tokens are issued for. */
    readonly resource: string,
    /** Registrations are counted in the rate limits' counters (src/oauth/registration-limits.ts). */
    limits: { counters: CounterStore; budget: RegistrationBudget; log: FastifyBaseLogger },
  ) {
    this.registrations = new RegistrationLimits(limits.counters, clock, (since) => repo.countUnusedClients(since), UNUSED_CLIENT_MS, limits.budget, limits.log);
  }

  /** Admits one registration (RFC 7591) from `address`, or throws 429 RATE_LIMITED: anyone may register, within bounds. */
  admitRegistration(address: string): Promise<void> {
    return this.registrations.admit(address);
  }

  /**
   * The caller an access token stands for on the MCP endpoint; null when it is unknown, expired, revoked or for
   * elsewhere. A live token of a disabled account throws 403 ACCOUNT_DISABLED, as the account's keys do: refreshing
   * or connecting again would not help, and the token works again if the operator enables the account.
   */
  async authenticate(token: string): Promise<Caller | null> {
    if (token.length < 20 || token.length > 200) return null;
    const accessToken = await this.provider.AccessToken.find(token);
    if (!accessToken || accessToken.isExpired || !accessToken.accountId || !accessToken.clientId) return null;
    const audience = [accessToken.aud ?? []].flat();
    if (!audience.includes(this.resource)) return null;
    // The grant is checked too: a token written by a request that lost a race with the grant's revocation dies with it.
    const [grant, account, client] = await Promise.all([
      this.provider.Grant.find(accessToken.grantId),
      this.accounts.accountById(accessToken.accountId),
      this.provider.Client.find(accessToken.clientId),
    ]);
    if (!grant || !account || !client) return null;
    // A disabled account's grants stop at once (and work again if the operator enables it).
    if (account.disabledAt !== null) throw errors.accountDisabled();
    return {
      accountId: account.id,
      email: account.email,
      tier: account.tier,
      namespace: account.namespace,
      role: account.role,
      keyId: `oauth:${accessToken.grantId}`,
      via: 'mcp',
      clientName: displayName(client.clientName, accessToken.clientId),
      scopes: new Set(parseScopes(accessToken.scope)),
    };
  }

  async connections(caller: Caller): Promise<Connection[]> {
    const rows = await this.repo.listGrants(caller.accountId, this.clock.now().toISOString());
    return rows.map((row) => {
      const grant = JSON.parse(row.payload) as { clientId: string; resources?: Record<string, string> };
      const client = row.client_payload ? (JSON.parse(row.client_payload) as { client_name?: unknown; client_uri?: unknown }) : {};
      return {
        id: row.id,
        clientId: grant.clientId,
        clientName: displayName(client.client_name, grant.clientId),
        clientUri: httpUrlOrNull(client.client_uri),
        scopes: parseScopes(grant.resources?.[this.resource]),
        connectedAt: row.created_at,
        expiresAt: row.expires_at,
      };
    });
  }

  /** Disconnects an application: its grant and every token under it stop at once. */
  async disconnect(caller: Caller, id: string): Promise<void> {
    if (!(await this.repo.revokeGrant(caller.accountId, id))) throw errors.connectionNotFound();
  }

  /** The authorization a browser is in (its interaction cookie must match `uid`); null when it is gone or not this browser's. */
  async pending(raw: Raw, uid: string): Promise<PendingAuthorization | null> {
    const details = await this.provider.interactionDetails(raw.req, raw.res).catch(() => null);
    if (!details || details.uid !== uid) return null;
    const clientId = String(details.params.client_id);
    const client = await this.provider.Client.find(clientId);
    if (!client) return null;
    // Exactly what the request asks (src/oauth/provider.ts fills in a default): what is shown is what is granted.
    const requested = parseScopes(typeof details.params.scope === 'string' ? details.params.scope : undefined);
    return {
      uid,
      clientId,
      clientName: displayName(client.clientName, clientId),
      clientUri: httpUrlOrNull(client.clientUri),
      redirectTo: whereTo(details.params.redirect_uri),
      scopes: requested,
    };
  }

  /**
   * The answer of the consent page, as the URL the browser goes on to: back to the application with a code (Allow)
   * or with `error=access_denied` (Deny). Allowing replaces the account's earlier connection of the same application.
   */
  async decide(raw: Raw, pending: PendingAuthorization, accountId: string, allow: boolean): Promise<string> {
    if (!allow) {
      return this.provider.interactionResult(raw.req, raw.res, { error: 'access_denied', error_description: 'The account owner denied access' }, { mergeWithLastSubmission: false });
    }
    const details = await this.provider.interactionDetails(raw.req, raw.res);
    const grant = new this.provider.Grant({ accountId, clientId: pending.clientId });
    // The server counts every scope it knows as asked of it too (src/oauth/provider.ts declares them so that clients
    // may register them): granting them there as well is what ends its consent prompt. Tokens carry the resource's.
    const requested = typeof details.params.scope === 'string' ? details.params.scope.split(' ') : [];
    grant.addOIDCScope([...requested.filter((scope) => scope === 'openid' || scope === 'offline_access'), ...pending.scopes]);
    grant.addResourceScope(this.resource, pending.scopes);
    const grantId = await grant.save();
    for (const older of await this.repo.olderGrants(accountId, pending.clientId, grantId)) await this.repo.revokeGrant(accountId, older);
    return this.provider.interactionResult(raw.req, raw.res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
  }

  /** Drops expired codes, tokens and interactions, and registrations nobody connected within a day; answers how many went. */
  sweep(): Promise<number> {
    const now = this.clock.now();
    return this.repo.sweep(now.toISOString(), new Date(now.getTime() - UNUSED_CLIENT_MS).toISOString());
  }

  /** Sweeps every hour (the server's background work). */
  start(failures: SweepFailures): void {
    this.sweeps.start(failures);
  }

  stop(): void {
    this.sweeps.stop();
  }
}
