import { generateKeyPairSync, randomBytes } from 'node:crypto';
import Provider, { errors as oauthErrors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Clock } from '../clock.js';
import { oauthAdapter } from './adapter.js';
import type { OAuthRepository } from './repository.js';
import { parseScopes, SCOPE_NAMES } from './scopes.js';
import { errorPage } from './pages.js';
import { applyRegistrationRules, LOOPBACK_HOSTS, redirectTargetAllowed } from './client-rules.js';

/** Where the authorization server answers, under BASE_URL; the well-known documents name them (src/oauth/routes.ts). */
export const OAUTH_PATHS = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  interaction: '/oauth/interaction',
} as const;

/** Lifetimes in seconds (docs/decisions.md): access tokens are short, a connection lasts while it is used. */
export const OAUTH_TTL = {
  accessToken: 15 * 60,
  authorizationCode: 60,
  refreshToken: 30 * 86_400,
  /** A connection in use (its refresh token rotating) lasts at most this long before the owner is asked again. */
  grant: 365 * 86_400,
  interaction: 60 * 60,
} as const;

export interface OAuthSecrets {
  /** The P-256 key the server signs with (ID tokens, should a client ask for them): one per installation. */
  signingKey: string;
  /** Keys of the server's own cookies (the interaction a browser is in). */
  cookieKey: string;
}

/** New secrets for an installation, stored once in `settings` and shared by every instance. */
export const newOAuthSecrets = (): { signingKey: () => string; cookieKey: () => string } => ({
  signingKey: () => JSON.stringify(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' })),
  cookieKey: () => randomBytes(32).toString('base64url'),
});

/**
 * RFC 8252 7.3: a native app listens on a loopback port it picks when it starts, so a registered loopback redirect
 * URI matches with any port; everything else about it (scheme, host, path, query) must be exactly as registered.
 */
export function loopbackMatches(requested: string, registered: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(requested);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return false;
  const withoutPort = (u: URL) => `${u.protocol}//${u.hostname}${u.pathname}${u.search}${u.hash}`;
  return registered.some((value) => {
    try {
      const allowed = new URL(value);
      return allowed.protocol === 'http:' && LOOPBACK_HOSTS.has(allowed.hostname) && withoutPort(allowed) === withoutPort(url);
    } catch {
      return false;
    }
  });
}

/**
 * The OAuth 2.1 authorization server for the MCP endpoint (panva's oidc-provider, mounted under /oauth by
 * src/oauth/mount.ts). Public clients register themselves (RFC 7591), use the code flow with PKCE S256 only, and get
 * opaque access tokens bound to the MCP endpoint (RFC 8707) and refresh tokens that rotate on every use; a reused
 * refresh token or code revokes its whole grant. Sign-in and consent are Snip's own pages (src/oauth/interactions.ts).
 *
 * Only what the server metadata (src/oauth/routes.ts) names is on: every feature the library turns on by default that
 * Snip does not document is off (docs/security.md lists what is kept), and the mount routes nothing else to it.
 */
export function createOAuthProvider(options: {
  baseUrl: string;
  repo: OAuthRepository;
  clock: Clock;
  secrets: OAuthSecrets;
  /**
   * Whether the account may use its grants: false for an unknown account and for one an operator disabled, so that
   * neither a code nor a refresh token gets it a token (invalid_grant; the refresh token is not used up, and works
   * again once the account is enabled).
   */
  accountExists: (id: string) => Promise<boolean>;
}): Provider {
  const { baseUrl, repo, clock, secrets } = options;
  const resource = `${baseUrl}/mcp`;
  const scope = SCOPE_NAMES.join(' ');
  // The library's cookies (the interaction a browser is in) are Secure wherever Snip is served over https. The mount
  // tells the library every request is for BASE_URL's scheme and host (src/oauth/mount.ts), so it never refuses one.
  const cookie = { httpOnly: true, sameSite: 'lax', secure: baseUrl.startsWith('https:') } as const;
  const configuration: Configuration = {
    adapter: oauthAdapter(repo, clock),
    jwks: { keys: [{ ...JSON.parse(secrets.signingKey), use: 'sig', alg: 'ES256', kid: 'snip-1' }] },
    // One fast-to-make EC key (an RSA one costs a noticeable pause at every first start); clients default to it.
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    cookies: { keys: [secrets.cookieKey], long: cookie, short: cookie },
    routes: {
      authorization: OAUTH_PATHS.authorization,
      token: OAUTH_PATHS.token,
      registration: OAUTH_PATHS.registration,
      revocation: OAUTH_PATHS.revocation,
      jwks: OAUTH_PATHS.jwks,
      // The features these belong to are off (below) and the mount routes none of them: any request there is a 404.
      end_session: '/oauth/session/end',
      userinfo: '/oauth/me',
      introspection: '/oauth/introspect',
      pushed_authorization_request: '/oauth/par',
      code_verification: '/oauth/device',
      device_authorization: '/oauth/device/auth',
      backchannel_authentication: '/oauth/backchannel',
      challenge: '/oauth/challenge',
    },
    // Declared so that clients may register and request them; each is granted for the MCP endpoint only.
    scopes: ['openid', 'offline_access', ...SCOPE_NAMES],
    responseTypes: ['code'],
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    // The registration rules (src/oauth/client-rules.ts) run here, while the library builds a registration's metadata.
    // A desktop client (Cursor: cursor://...) registers an app-scheme redirect URI and often leaves out
    // application_type, whose default (web) allows only http(s): such a client is taken for the native app it is.
    extraClientMetadata: {
      properties: ['snip_client_kind'],
      validator: (ctx, key, _value, metadata) => {
        if (key !== 'snip_client_kind' || ctx?.oidc?.route !== 'registration') return;
        applyRegistrationRules(metadata);
        const asked = (ctx.oidc.body as { application_type?: unknown } | undefined)?.application_type;
        const uris = Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris : [];
        if (asked === undefined && uris.some((uri) => typeof uri === 'string' && !/^https?:/i.test(uri))) metadata.application_type = 'native';
      },
    },
    clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', id_token_signed_response_alg: 'ES256' },
    // The library fetches a client's sector_identifier_uri to check it; Snip drops it from registrations and never fetches.
    sectorIdentifierUriValidate: () => false,
    pkce: { required: () => true },
    ttl: {
      AccessToken: OAUTH_TTL.accessToken,
      AuthorizationCode: OAUTH_TTL.authorizationCode,
      RefreshToken: OAUTH_TTL.refreshToken,
      Grant: OAUTH_TTL.grant,
      Interaction: OAUTH_TTL.interaction,
      Session: OAUTH_TTL.interaction,
      IdToken: 60 * 60,
    },
    issueRefreshToken: () => true,
    rotateRefreshToken: () => true,
    // A connection is its grant, which lasts while it is used and ends when the owner disconnects it; no token depends
    // on the library's browser session, which is never kept (src/oauth/adapter.ts).
    expiresWithSession: () => false,
    // Every authorization asks for consent, on a page that needs the dashboard's session: a connection is never
    // made silently, and signing out of Snip is enough to stop new ones.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return typeof grantId === 'string' ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    findAccount: async (_ctx, id) => ((await options.accountExists(id)) ? { accountId: id, claims: () => ({ sub: id }) } : undefined),
    interactions: { url: (_ctx, interaction) => `${OAUTH_PATHS.interaction}/${interaction.uid}` },
    // Browser-based MCP clients call the token and revocation endpoints from their own origin (registration: mount.ts).
    clientBasedCORS: () => true,
    features: {
      devInteractions: { enabled: false },
      // No RFC 7592 management of a registration: no registration access token to store for each anonymous client.
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      registrationManagement: { enabled: false },
      // A client revokes its own tokens only; another's is answered 200 as an unknown one is (RFC 7009), and left alone.
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new oauthErrors.InvalidTarget(`the only resource here is ${resource}`);
          return { scope, audience: resource, accessTokenTTL: OAUTH_TTL.accessToken, accessTokenFormat: 'opaque' };
        },
      },
      // On by default in the library, and not Snip's: RP-initiated logout (it redirected to any URI a client
      // registered), pushed authorization requests, DPoP-bound tokens (the MCP endpoint takes bearer tokens), userinfo.
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
      userinfo: { enabled: false },
      // Off by default; named so that turning one on is a visible change.
      introspection: { enabled: false },
      deviceFlow: { enabled: false },
      ciba: { enabled: false },
      clientCredentials: { enabled: false },
      claimsParameter: { enabled: false },
      requestObjects: { enabled: false },
      jwtResponseModes: { enabled: false },
      backchannelLogout: { enabled: false },
      richAuthorizationRequests: { enabled: false },
      rpMetadataChoices: { enabled: false },
      encryption: { enabled: false },
      mTLS: { enabled: false },
      fapi: { enabled: false },
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = errorPage(String(out.error), typeof out.error_description === 'string' ? out.error_description : '');
    },
  };
  const provider = new Provider(baseUrl, configuration);
  // The mount (src/oauth/mount.ts) sets X-Forwarded-Proto and -Host to BASE_URL's on every request it hands over:
  // the library reads them instead of what the client sent.
  provider.proxy = true;
  const Client = provider.Client.prototype;
  const exact = Client.redirectUriAllowed;
  // Also for registrations stored before the rules: a code never goes to plain http off this machine.
  Client.redirectUriAllowed = function (this: InstanceType<typeof provider.Client>, value: string) {
    return redirectTargetAllowed(value) && (exact.call(this, value) || loopbackMatches(value, this.redirectUris ?? []));
  };
  const modeAllowed = Client.responseModeAllowed;
  // The metadata lists only `query`. The library knows form_post and fragment too (fragment is its default for the
  // response types that carry a token): a request for either is refused here with the library's own error, sent back
  // by query as every answer is, never as a form_post page or in a fragment.
  Client.responseModeAllowed = function (this: InstanceType<typeof provider.Client>, mode, ...rest) {
    if (mode === undefined || mode === 'query') return modeAllowed.call(this, mode, ...rest);
    const params = Provider.ctx?.oidc.params as { response_mode?: unknown; response_type?: unknown } | undefined;
    const asked = params?.response_mode !== undefined;
    if (params) Object.assign(params, { response_mode: undefined, response_type: 'code' });
    throw asked ? new oauthErrors.UnsupportedResponseMode() : new oauthErrors.UnsupportedResponseType();
  };
  provider.use(defaultScope(provider, scope));
  return provider;
}

/**
 * An authorization request that names none of Snip's scopes (no `scope`, or only `openid offline_access`) also asks
 * for what the client registered, or else for every scope: the consent page lists them, and a token without one could
 * call no tool. (A POST to the authorization endpoint is left as it is; the consent page refuses one that asks for
 * nothing of Snip's.)
 */
function defaultScope(provider: Provider, all: string) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    if (ctx.method === 'GET' && ctx.path === OAUTH_PATHS.authorization && typeof ctx.query.client_id === 'string') {
      const asked = typeof ctx.query.scope === 'string' ? ctx.query.scope.trim() : '';
      if (parseScopes(asked).length === 0) {
        const client = await provider.Client.find(ctx.query.client_id).catch(() => undefined);
        const registered = parseScopes(client?.scope).join(' ');
        ctx.query = { ...ctx.query, scope: [asked, registered || all].filter(Boolean).join(' ') };
      }
    }
    await next();
  };
}
