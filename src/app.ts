import { affiliateRoutes } from './affiliate/routes.js';
import { agentLinkRoutes } from './agentlinks/routes.js';
import { web2appRoutes } from './web2app/routes.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import pino from 'pino';
import { accountRoutesB } from './accounts/routes-b.js';
import type { Config } from './config.js';
import { proxyTrust } from './http/trust-proxy.js';
import { fastRedirects } from './redirects/fast-path.js';
import { answerClientError, serverWith } from './http/server.js';
import { createCore, type Core, type CoreOptions } from './core.js';
import { registerAccess } from './http/access.js';
import { registerErrorHandling } from './http/error-handler.js';
import { watchDeclaredCodes, watchToolCodes } from './http/declared-codes.js';
import { registerValidation } from './http/validators.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerOpenApi } from './http/openapi.js';
import { linkRoutesA } from './links/routes-a.js';
import { linkRoutesB } from './links/routes-b.js';
import { bulkRoutes } from './links/bulk-routes.js';
import { importRoutes } from './imports/routes.js';
import { analyticsRoutes } from './analytics/routes.js';
import { redirectRoutes } from './redirects/routes.js';
import { folderRoutes } from './folders/routes.js';
import type { LinkKey } from './links/link-key.js';
import { previewPage } from './trust/pages.js';
import { errors } from './errors.js';
import { linkScanRoutes } from './trust/routes.js';
import { domainRoutes } from './domains/routes.js';
import { mcpRoutes } from './mcp/routes.js';
import { refusalOf } from './mcp/json-rpc.js';
import { webhookRoutes } from './webhooks/routes.js';
import { qrRoutes } from './qr/routes.js';
import { tagRoutes } from './tags/routes.js';
import { utmTemplateRoutes } from './utm/routes.js';
import { savedViewRoutes } from './views/routes.js';
import { exportRoutes } from './exports/routes.js';
import { homeRoutes } from './http/home.js';
import { registerAddressLimits } from './http/address-limits.js';
import { HostPolicy } from './http/hosts.js';
import fastifyCookie from '@fastify/cookie';
import { dashboardRoutes } from './http/dashboard.js';
import { registerCompression } from './http/compression.js';
import { sessionRoutes } from './sessions/routes.js';
import { adminRoutes } from './admin/routes.js';
import { sessionTokenOf } from './sessions/cookie.js';
import { looksLikeApiKey } from './accounts/api-keys.js';
import { oauthRoutes, resourceMetadataPath } from './oauth/routes.js';
import { interactionRoutes } from './oauth/interactions.js';
import { SCOPES } from './oauth/scopes.js';


const Readiness = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('unavailable')]),
  database: Type.Union([Type.Literal('ok'), Type.Literal('down')]),
  redis: Type.Union([Type.Literal('ok'), Type.Literal('down'), Type.Literal('none')], { description: 'none: REDIS_URL is not set' }),
});

export interface App {
  app: FastifyInstance;
  core: Core;
}

/** The composition root: builds the core services and the HTTP surfaces over them. Does not listen. */
export async function buildApp(config: Config, options: CoreOptions = {}): Promise<App> {
  const logger: FastifyBaseLogger = pino({ level: config.logLevel });
  // Cached redirects are answered before Fastify routes them (src/redirects/fast-path.ts), once the core exists;
  // at debug level every request goes through Fastify, whose hooks log it.
  let fastPath: ReturnType<typeof fastRedirects> | null = null;
  const app = Fastify({
    loggerInstance: logger,
    // Snip's connection bounds (HEADERS_TIMEOUT, REQUEST_TIMEOUT, IDLE_TIMEOUT, MAX_CONNECTIONS) on the server itself, so
    // the fast path is held to them too; Fastify's own timeout options apply only to a server it makes.
    serverFactory: serverWith(config, (request, response) => fastPath?.handle(request, response) ?? false),
    clientErrorHandler: answerClientError,
    // As with a server Fastify makes itself: server.close() ends idle keep-alive connections (Node >= 19), and none
    // is ended earlier, while a request is still arriving on it.
    forceCloseConnections: false,
    trustProxy: proxyTrust(config.trustProxy),
    // Fastify's own request lines are at info level; Snip logs its own at debug instead (below).
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Strict JSON bodies, coerced queries and paths, NUL refused (src/http/validators.ts); before any route.
  registerValidation(app);

  const core = await createCore(config, logger, options);
  // The first onRequest hook: a request for a host this route does not answer on is 421 before anything else runs.
  new HostPolicy(config.baseUrl, config.allowedHosts, core.domains).register(app);
  app.addHook('onClose', async () => core.close());
  // ALLOWED_HOSTS name Snip itself as BASE_URL's host does: its short links, never a custom domain's.
  const hosts = { ownHosts: new Set([...core.ownHostnames, ...config.allowedHosts]), activeDomain: (host: string) => core.domains.activeDomain(host) };
  if (config.logLevel !== 'debug' && config.logLevel !== 'trace') {
    fastPath = fastRedirects(core.redirects, { status: config.redirectStatus, hosts, trustProxy: config.trustProxy, limits: core.addressLimits });
    app.addHook('preClose', async () => fastPath?.close());
  }

  // Per-request lines only at debug and below: on the redirect path they would cost more than the redirect.
  if (config.logLevel === 'debug' || config.logLevel === 'trace') {
    app.addHook('onRequest', async (request) => {
      app.log.debug({ reqId: request.id, method: request.method, url: request.url }, 'incoming request');
    });
    app.addHook('onResponse', async (request, reply) => {
      const line = { reqId: request.id, method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 };
      app.log.debug(line, 'request completed');
    });
  }
  registerErrorHandling(app, { '/mcp': refusalOf });
  watchDeclaredCodes(app, options.onUndeclaredCode);
  // MCP tool errors answer inside a 200, where no hook sees them: callTool reports them (src/mcp/tool.ts).
  if (options.onUndeclaredCode) watchToolCodes(core, options.onUndeclaredCode);
  registerSecurityHeaders(app);
  // Before any route: it hooks each route declared after it (src/http/compression.ts).
  await registerCompression(app);
  await registerOpenApi(app, config.baseUrl, SCOPES);
  // Cookies are parsed only where a session is read (src/sessions/cookie.ts), never on the redirect path.
  await app.register(fastifyCookie, { hook: false });
  const keys = { authenticate: (token: string | undefined) => core.accounts.authenticate(token), looksLikeKey: looksLikeApiKey };
  const sessions = {
    tokenOf: sessionTokenOf,
    authenticate: (token: string) => core.sessions.authenticate(token),
    csrfMatches: (token: string, given: string | undefined) => core.sessions.csrfMatches(token, given),
  };
  registerAccess(app, keys, core.usage, config.plans, { service: sessions, perAddress: core.addressLimits }, core.oauth);
  registerAddressLimits(app, core.addressLimits);

  // Load balancers and orchestrators probe by address or an internal name: the health checks answer on any host.
  app.get(
    '/healthz',
    { config: { hosts: 'any' }, schema: { tags: ['meta'], operationId: 'getHealth', summary: 'Liveness: 200 once the database is migrated', description: 'For orchestrators, on any host and with no key: answers 200 as long as the process serves requests.', response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    {
      config: { hosts: 'any' },
      schema: {
        tags: ['meta'],
        operationId: 'getReadiness',
        summary: 'Readiness: 200 while the database and (with REDIS_URL) Redis answer, else 503; for load balancers',
        description: 'For load balancers, on any host and with no key: 200 while the database and (when REDIS_URL is set) Redis answer, else 503, with the state of each.',
        response: { 200: Readiness, 503: Readiness },
      },
    },
    async (_request, reply) => {
      const state = await core.readiness();
      return reply.status(state.ready ? 200 : 503).header('cache-control', 'no-store').send({ status: state.ready ? 'ready' : 'unavailable', database: state.database ? 'ok' : 'down', redis: state.redis === null ? 'none' : state.redis ? 'ok' : 'down' });
    },
  );
  await app.register(sessionRoutes(core.sessions, config.baseUrl.startsWith('https:')));
  await app.register(accountRoutesB(core.accounts));
  await app.register(adminRoutes(core.admin));
  await app.register(linkRoutesA(core.links, core.present));
  await app.register(linkRoutesB(core.links, core.present));
  await app.register(bulkRoutes(core.links, core.present));
  await app.register(importRoutes(core.imports));
  await app.register(analyticsRoutes(core.analytics, core.present));
  await app.register(webhookRoutes(core.webhooks));
  await app.register(qrRoutes(core.qr));
  await app.register(folderRoutes(core.folders));
  await app.register(tagRoutes(core.tags));
  await app.register(utmTemplateRoutes(core.utmTemplates));
  await app.register(savedViewRoutes(core.savedViews));
  await app.register(exportRoutes(core.exports));
  await app.register(affiliateRoutes(core.affiliate));
  await app.register(agentLinkRoutes(core.agentLinks, core.present));
  await app.register(web2appRoutes(core.web2app));
  const preview = async (key: LinkKey, customDomain: string | null) => {
    const { link, score } = await core.trust.preview(key);
    // A custom domain previews only its own links, as it redirects only its own.
    if (customDomain !== null && link.domain !== customDomain) throw errors.linkNotFound();
    // The QR image is an API route, which answers on Snip's own host only (src/http/hosts.ts), not on the custom domain.
    const qr = `/api/qr/${link.code}?size=240`;
    return previewPage(score, core.present.shortUrl(link), customDomain === null ? qr : `${config.baseUrl}${qr}`);
  };
  await app.register(linkScanRoutes(core.trust));
  await app.register(domainRoutes(core.domains));
  await app.register(mcpRoutes(core, `${config.baseUrl}${resourceMetadataPath('/mcp')}`));
  await app.register(oauthRoutes(core.oauth, core.oauthProvider, config.baseUrl));
  await app.register(interactionRoutes(core.oauth, core.sessions, config.baseUrl.startsWith('https:')));
  await app.register(homeRoutes({ baseUrl: config.baseUrl, rootRedirect: config.rootRedirect, isCustomDomain: async (host) => !core.ownHostnames.has(host) && (await core.domains.activeDomain(host)) !== null }));
  await app.register(dashboardRoutes(config.dashboardDir));
  await app.register(redirectRoutes(core.redirects, config.redirectStatus, preview, hosts, core.addressLimits));
  await app.ready();
  return { app, core };
}
