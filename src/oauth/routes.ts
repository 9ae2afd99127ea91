import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type Provider from 'oidc-provider';
import { bind, callerOf } from '../http/access.js';
import { DateTime, errorResponses, Nullable, SuccessMessage } from '../schema/shapes.js';
import { authorizationServer } from './mount.js';
import { OAUTH_OPERATIONS as ops } from './operations.js';
import { OAUTH_PATHS } from './provider.js';
import { SCOPE_NAMES } from './scopes.js';
import type { OAuthService } from './service.js';

const open = { auth: 'none' } as const;
const tags = ['oauth'];

/** RFC 9728: where the MCP endpoint's tokens come from, and what they may carry. */
export const resourceMetadataPath = (resourcePath: string) => `/.well-known/oauth-protected-resource${resourcePath}`;

const ResourceMetadata = Type.Object({
  resource: Type.String(),
  authorization_servers: Type.Array(Type.String()),
  scopes_supported: Type.Array(Type.String()),
  bearer_methods_supported: Type.Array(Type.String()),
  resource_name: Type.String(),
  resource_documentation: Type.String(),
});

const ServerMetadata = Type.Object({
  issuer: Type.String(),
  authorization_endpoint: Type.String(),
  token_endpoint: Type.String(),
  registration_endpoint: Type.String(),
  revocation_endpoint: Type.String(),
  jwks_uri: Type.String(),
  scopes_supported: Type.Array(Type.String()),
  response_types_supported: Type.Array(Type.String()),
  response_modes_supported: Type.Array(Type.String()),
  grant_types_supported: Type.Array(Type.String()),
  code_challenge_methods_supported: Type.Array(Type.String()),
  token_endpoint_auth_methods_supported: Type.Array(Type.String()),
  revocation_endpoint_auth_methods_supported: Type.Array(Type.String()),
  authorization_response_iss_parameter_supported: Type.Boolean(),
  service_documentation: Type.String(),
});

const Connection = Type.Object({
  id: Type.String(),
  clientId: Type.String(),
  clientName: Type.String(),
  clientUri: Nullable(Type.String()),
  scopes: Type.Array(Type.String()),
  connectedAt: DateTime(),
  expiresAt: Nullable(DateTime()),
});

const SURFACES = [
  { surface: 'A', base: '/api/v1/oauth/connections' },
  { surface: 'B', base: '/api/oauth/connections' },
] as const;

/**
 * OAuth 2.1 for the MCP endpoint: the discovery documents (RFC 9728, RFC 8414), the authorization server itself
 * under /oauth (src/oauth/mount.ts), and the account's connected applications over A and B. The server metadata is
 * the list of what is on: the mount routes nothing else to the library, and the library has nothing else turned on.
 */
export const oauthRoutes =
  (oauth: OAuthService, provider: Provider, baseUrl: string): FastifyPluginAsyncTypebox =>
  async (app) => {
    const resourceMetadata = {
      resource: oauth.resource,
      authorization_servers: [baseUrl],
      scopes_supported: SCOPE_NAMES,
      bearer_methods_supported: ['header'],
      resource_name: 'Snip MCP',
      resource_documentation: `${baseUrl}/docs`,
    };
    const authMethods = ['none', 'client_secret_basic', 'client_secret_post'];
    const serverMetadata = {
      issuer: baseUrl,
      authorization_endpoint: `${baseUrl}${OAUTH_PATHS.authorization}`,
      token_endpoint: `${baseUrl}${OAUTH_PATHS.token}`,
      registration_endpoint: `${baseUrl}${OAUTH_PATHS.registration}`,
      revocation_endpoint: `${baseUrl}${OAUTH_PATHS.revocation}`,
      jwks_uri: `${baseUrl}${OAUTH_PATHS.jwks}`,
      scopes_supported: SCOPE_NAMES,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: authMethods,
      revocation_endpoint_auth_methods_supported: authMethods,
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${baseUrl}/docs`,
    };
    const cached = { 'cache-control': 'public, max-age=3600', 'access-control-allow-origin': '*' };

    for (const [url, operationId] of [
      [resourceMetadataPath(''), 'getProtectedResourceMetadata'],
      [resourceMetadataPath(new URL(oauth.resource).pathname), 'getMcpProtectedResourceMetadata'],
    ] as const) {
      app.get(url, { config: { access: open }, schema: { tags, operationId, summary: 'OAuth protected-resource metadata of the MCP endpoint (RFC 9728)', description: 'For MCP clients, no key: where the MCP endpoint gets its access tokens (the authorization server) and which scopes it knows. A 401 from /mcp points here.', response: { 200: ResourceMetadata } } }, async (_request, reply) =>
        reply.headers(cached).send(resourceMetadata),
      );
    }
    app.get(
      '/.well-known/oauth-authorization-server',
      { config: { access: open }, schema: { tags, operationId: 'getAuthorizationServerMetadata', summary: 'OAuth authorization server metadata (RFC 8414)', description: "For MCP clients, no key: the addresses of Snip's OAuth authorization server (registration, authorization, token, revocation) and what it supports, such as the authorization code grant with PKCE (S256).", response: { 200: ServerMetadata } } },
      async (_request, reply) => reply.headers(cached).send(serverMetadata),
    );

    await app.register(authorizationServer(provider, oauth, baseUrl));

    for (const { surface, base } of SURFACES) {
      const surfaceTags = [`connected applications (${surface})`];
      app.get(
        base,
        { config: bind(ops.listConnections, surface), schema: { tags: surfaceTags, summary: 'The applications connected to the account by OAuth (MCP clients), newest first', description: 'Lists the applications (MCP clients) the account let in through OAuth, newest first, with the scopes each was given and when its access ends. Any plan may call it.', response: { 200: Type.Object({ connections: Type.Array(Connection) }) } } },
        async (request) => ({ connections: await oauth.connections(callerOf(request)) }),
      );
      app.delete(
        `${base}/:id`,
        {
          config: bind(ops.disconnect, surface),
          schema: { tags: surfaceTags, summary: 'Disconnect an application: its tokens stop working at once', description: "Takes back an application's access to the account: its access and refresh tokens stop working at once, and it must be authorized again to return.", params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }), response: { 200: SuccessMessage, ...errorResponses(404) } },
        },
        async (request) => {
          await oauth.disconnect(callerOf(request), request.params.id);
          return { success: true, message: 'Application disconnected' };
        },
      );
    }
  };
