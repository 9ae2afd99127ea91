import { errors as oauthErrors } from 'oidc-provider';

/** What one anonymous registration (RFC 7591) may carry at most: anyone may register, so what is kept is bounded. */
export const REGISTRATION_BOUNDS = {
  /** The whole JSON body, in bytes. */
  bodyBytes: 16 * 1024,
  redirectUris: 10,
  /** Each URI (redirect_uris, client_uri), in characters. */
  uriLength: 1000,
  clientNameLength: 200,
  scopeLength: 1000,
  /** grant_types, response_types. */
  listLength: 10,
} as const;

/**
 * The client metadata Snip reads or answers with; everything else a registration sends is dropped, including what the
 * library would otherwise keep and act on (`sector_identifier_uri`, which it fetches; `jwks_uri`; `response_modes`;
 * logos, policies, contacts, `post_logout_redirect_uris`). The library adds back its own defaults.
 */
const KEPT_METADATA = new Set([
  'client_id',
  'client_id_issued_at',
  'client_secret',
  'client_secret_expires_at',
  'client_name',
  'client_uri',
  'redirect_uris',
  'scope',
  'grant_types',
  'response_types',
  'token_endpoint_auth_method',
  'application_type',
]);

export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Schemes a browser handles itself (or hands to any app it likes): never an application's private-use scheme. */
const NOT_APP_SCHEMES = new Set(['javascript:', 'vbscript:', 'data:', 'blob:', 'file:', 'about:', 'filesystem:', 'view-source:', 'ftp:', 'ws:', 'wss:', 'intent:', 'android-app:', 'mailto:', 'tel:', 'sms:']);

/**
 * Where an authorization response may go (OAuth 2.1, MCP's authorization rules, RFC 8252): https anywhere; plain http
 * only to this machine (a native app's loopback listener); or a native app's private-use scheme (`cursor://…`,
 * `com.example.app:/cb`). Plain http to any other host would carry the code over the network in the clear.
 */
export function redirectTargetAllowed(uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname);
  return !NOT_APP_SCHEMES.has(url.protocol);
}

const tooLong = (value: unknown, max: number) => typeof value === 'string' && value.length > max;

/**
 * Applies Snip's rules to a registration's metadata while the library builds it (its `extraClientMetadata` validator
 * hook, where `metadata` is the object being built): drops what Snip does not use, and refuses what is larger than
 * `REGISTRATION_BOUNDS` or a redirect URI `redirectTargetAllowed` refuses. The library's own checks run after.
 * Throws the library's InvalidClientMetadata (`invalid_redirect_uri` for a redirect URI, RFC 7591).
 */
export function applyRegistrationRules(metadata: Record<string, unknown>): void {
  for (const key of Object.keys(metadata)) if (!KEPT_METADATA.has(key)) delete metadata[key];
  const refuse = (description: string) => {
    throw new oauthErrors.InvalidClientMetadata(description);
  };
  const bounds = REGISTRATION_BOUNDS;
  if (tooLong(metadata.client_name, bounds.clientNameLength)) refuse(`client_name must be at most ${bounds.clientNameLength} characters`);
  if (tooLong(metadata.client_uri, bounds.uriLength)) refuse(`client_uri must be at most ${bounds.uriLength} characters`);
  if (tooLong(metadata.scope, bounds.scopeLength)) refuse(`scope must be at most ${bounds.scopeLength} characters`);
  for (const list of ['grant_types', 'response_types'] as const) {
    const value = metadata[list];
    if (Array.isArray(value) && value.length > bounds.listLength) refuse(`${list} must have at most ${bounds.listLength} members`);
  }
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris)) return;
  if (uris.length > bounds.redirectUris) refuse(`redirect_uris must have at most ${bounds.redirectUris} members`);
  for (const uri of uris) {
    if (typeof uri !== 'string') continue;
    if (uri.length > bounds.uriLength) refuse(`redirect_uris must each be at most ${bounds.uriLength} characters`);
    if (!redirectTargetAllowed(uri)) refuse('redirect_uris must use https, http to a loopback address (127.0.0.1, [::1], localhost), or a private-use scheme of a native app');
  }
}
