import type { FastifyPluginAsync, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type Provider from 'oidc-provider';
import { errors } from '../errors.js';
import { hostnameOf } from '../http/hosts.js';
import { FRAMING } from '../http/security-headers.js';
import { REGISTRATION_BOUNDS } from './client-rules.js';
import { errorPage, OAUTH_PAGE_POLICY } from './pages.js';
import { OAUTH_PATHS } from './provider.js';
import type { OAuthService } from './service.js';

/**
 * What of the library is reachable: the endpoints the server metadata names (src/oauth/routes.ts), and the
 * authorization endpoint's resume address, where the consent page sends the browser back. Any other address under
 * /oauth (the library's logout, userinfo, device flow, a registration's management) is no route: Snip's 404.
 */
const LIBRARY_ROUTES: ReadonlyArray<{ method: HTTPMethods[]; url: string }> = [
  { method: ['GET'], url: OAUTH_PATHS.authorization },
  { method: ['GET'], url: `${OAUTH_PATHS.authorization}/:uid` },
  // OPTIONS: the library's own CORS preflights of the endpoints browser-based clients call.
  { method: ['POST', 'OPTIONS'], url: OAUTH_PATHS.token },
  { method: ['POST', 'OPTIONS'], url: OAUTH_PATHS.revocation },
  { method: ['GET', 'OPTIONS'], url: OAUTH_PATHS.jwks },
];

/** Every answer of the library carries the headers of Snip's OAuth pages (its error page is Snip's own HTML). */
const PAGE_HEADERS = { ...FRAMING, 'content-security-policy': OAUTH_PAGE_POLICY };

/** Browser-based MCP clients register from their own origin, as they call /mcp and the token endpoint. */
const REGISTRATION_CORS = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'retry-after' };
const REGISTRATION_PREFLIGHT = {
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'content-type, authorization, accept',
  'access-control-max-age': '86400',
};

/**
 * The authorization server (oidc-provider) under /oauth, on the routes above: it parses its own bodies, so Fastify
 * hands it the request's stream. What the library sees of a request is made Snip's first:
 * - its scheme and host are BASE_URL's (the library builds the addresses it redirects to and the cookies it sets from
 *   them): a client's Host header never reaches a page or a Location, and the cookies are Secure under https;
 * - a Host header that is no host at all is refused here with a 400 page, whatever else checks hosts;
 * - registrations are bounded in size and counted per address before the library reads them.
 */
export const authorizationServer =
  (provider: Provider, oauth: OAuthService, baseUrl: string): FastifyPluginAsync =>
  async (server) => {
    server.removeAllContentTypeParsers();
    server.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const base = new URL(baseUrl);
    const handle = provider.callback();
    const open = { access: { auth: 'none' } } as const;

    const handOver = async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.headers.host === undefined || hostnameOf(request.headers.host) === null) {
        return reply.status(400).headers(PAGE_HEADERS).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(errorPage('invalid_request', 'The request names no valid host.'));
      }
      const headers = request.raw.headers;
      headers.host = base.host;
      headers['x-forwarded-host'] = base.host;
      headers['x-forwarded-proto'] = base.protocol.slice(0, -1);
      headers['x-forwarded-for'] = request.ip;
      // Hooks' headers (CORS, rate-limit headers) go out with the library's answer: a hijacked reply sends only what is on the raw one.
      for (const [name, value] of Object.entries({ ...reply.getHeaders(), ...PAGE_HEADERS })) if (value !== undefined) reply.raw.setHeader(name, value);
      reply.hijack();
      await handle(request.raw, reply.raw);
    };

    for (const route of LIBRARY_ROUTES) {
      server.route({ ...route, exposeHeadRoute: false, config: open, schema: { hide: true }, handler: handOver });
    }

    await server.register(async (registration) => {
      registration.addHook('onRequest', async (_request, reply) => {
        reply.headers(REGISTRATION_CORS);
      });
      registration.options(OAUTH_PATHS.registration, { config: open, schema: { hide: true } }, async (_request, reply) =>
        reply.status(204).headers(REGISTRATION_PREFLIGHT).send(),
      );
      registration.post(OAUTH_PATHS.registration, { config: { ...open, errors: ['BODY_TOO_LARGE', 'BAD_REQUEST'] }, schema: { hide: true } }, async (request, reply) => {
        // The library reads at most what Content-Length says, and checks it got exactly that; a body without one
        // (chunked) would be read up to the library's own 56 KB.
        const length = request.headers['content-length'];
        if (length === undefined) throw errors.badRequest(`Send the registration with a Content-Length, of at most ${REGISTRATION_BOUNDS.bodyBytes} bytes`);
        if (Number(length) > REGISTRATION_BOUNDS.bodyBytes) throw errors.bodyTooLarge();
        await oauth.admitRegistration(request.ip);
        return handOver(request, reply);
      });
    });
  };
