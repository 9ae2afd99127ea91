import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { isReservedPath } from '../accounts/namespace-rules.js';
import type { RedirectStatus } from '../config.js';
import type { LinkKey } from '../links/link-key.js';
import { CODE_PATTERN, MAX_LEGACY_PATH } from '../links/rules.js';
import { AppError } from '../errors.js';
import { warningPage } from '../trust/pages.js';
import { missPage } from './pages.js';
import { APP_PAGE_POLICY, appPage } from '../web2app/page.js';
import type { ActiveDomain } from '../domains/service.js';
import type { RedirectOutcome, RedirectService, Visitor } from './service.js';
import { passwordPage, socialPage } from './link-pages.js';
import { PASS_SECONDS } from './link-passes.js';
import { normalHostname } from '../net/hostname.js';
import type { AddressLimits } from '../access/address-limits.js';
import { errorResponses } from '../schema/shapes.js';
import { REDIRECT_CACHE_CONTROL } from './cache-control.js';

const tags = ['redirect'];
const queryOf = (url: string): string => {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
};
// The hot path skips the per-request child logger; its rare log lines carry no request id.
const childLoggerFactory = (logger: FastifyBaseLogger) => logger;
/** The headers every answer of the redirect path carries, as the OpenAPI describes them. */
const NOT_STORED = {
  'cache-control': {
    type: 'string',
    enum: [REDIRECT_CACHE_CONTROL],
    description: 'No browser or proxy may keep the answer, whatever its status: every visit reaches Snip, is counted, and sees a change to the link at once',
  },
};
const redirectTo = (description: string, location = "The link's destination (a CPA partner link's with its snip_cid)") => ({
  description,
  type: 'null',
  headers: { location: { type: 'string', description: location }, ...NOT_STORED },
});
const htmlPage = (description: string) => ({ description, headers: NOT_STORED, content: { 'text/html': { schema: { type: 'string' } } } });
/** A custom domain's own not-found page may be a redirect, always a 302 (src/domains). */
const DOMAIN_MISS = 'on a custom domain whose not-found page is a redirect, an unknown link there redirects to that page';
const responses = (status: RedirectStatus) => ({
  200: htmlPage('With a trailing +: the preview page; for a destination scanned unsafe: a warning page instead of the redirect; for a link with a click cap (maxClicks), to HEAD and bots: a page without the destination; for an iPhone or Android visitor of a link with app targets (appLinks): a page that opens the app, else the store, both with snip_sid'),
  ...(status === 302 ? {} : { 302: redirectTo(`A redirect to a custom domain's not-found page: ${DOMAIN_MISS}`, "The custom domain's not-found page") }),
  [status]: redirectTo(
    `The redirect to the link's destination, with the status the server's REDIRECT_STATUS sets (301, 302, 303, 307 or 308; ${status} on this server)${status === 302 ? `; also ${DOMAIN_MISS}` : ''}`,
    status === 302 ? "The link's destination (a CPA partner link's with its snip_cid), or the custom domain's not-found page" : undefined,
  ),
  404: htmlPage('Unknown link, or not active yet'),
  410: htmlPage('Expired, or the click limit was reached'),
  ...errorResponses(429),
  451: htmlPage("The link blocks visitors from the visitor's country"),
});
const DESCRIPTION =
  'What a visitor opening a short link gets. HEAD answers as GET does, without a body, and is never counted as a click. ' +
  'The redirect\'s status is REDIRECT_STATUS (302 unless the operator set 301, 303, 307 or 308); no answer may be cached (Cache-Control: ' +
  `${REDIRECT_CACHE_CONTROL}), so a permanent status does not let a browser skip later visits. An address whose requests for unknown links ` +
  'exceed PUBLIC_REQUESTS_PER_MINUTE gets 429 with Retry-After.';

/** A one-segment path as the route has it: a code, or an imported path whose host is known once the domain is. */
type RouteKey = LinkKey | { path: string };

/**
 * A code, else a path an import may have kept (src/imports): looked up on the host it came to. A NUL is in no stored
 * path, and no database could look one up: the 404 of an unknown link, with no database work.
 */
const routeKeyOf = (segment: string): RouteKey | null => {
  if (CODE_PATTERN.test(segment)) return { code: segment };
  return segment === '' || segment.includes('\u0000') || segment.length > MAX_LEGACY_PATH ? null : { path: segment };
};

const qualify = (key: RouteKey | null, domain: { hostname: string } | null): LinkKey | null =>
  key && 'path' in key ? { legacyPath: `${domain?.hostname ?? ''}/${key.path}` } : key;

/** GET and HEAD /{code} and /{prefix}/{slug}. HEAD redirects too but never counts as a click (nor reads a capped link). */
/** The `+` preview page of a link, as HTML; throws the links' 404 for an unknown one. */
export type PreviewPage = (key: LinkKey, customDomain: string | null) => Promise<string>;

/** Which active custom domain a request's host is, if any (src/domains), and Snip's own hosts, which are none. */
export interface CustomHosts {
  ownHosts: ReadonlySet<string>;
  activeDomain(host: string): ActiveDomain | null | Promise<ActiveDomain | null>;
}

export const redirectRoutes =
  (redirects: RedirectService, status: RedirectStatus, preview: PreviewPage, hosts: CustomHosts, limits: AddressLimits): FastifyPluginAsyncTypebox =>
  async (app) => {
    /** Snip's own host (the common case) costs a set lookup; any other host may be an active custom domain. */
    const domainOf = async (request: FastifyRequest): Promise<ActiveDomain | null> => {
      const host = normalHostname(request.hostname);
      const found = hosts.ownHosts.has(host) ? null : hosts.activeDomain(host);
      return found instanceof Promise ? await found : found;
    };
    const domainMiss = (reply: FastifyReply, domain: ActiveDomain | null) => {
      const page = domain?.notFoundPage;
      if (!page) return html(reply, 404, missPage('not_found').html);
      return page.type === 'redirect' ? reply.redirect(page.redirectUrl, 302) : html(reply, 404, page.html);
    };
    const visitorOf = (request: FastifyRequest): Visitor => ({
      counts: request.method !== 'HEAD',
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? '',
      referer: request.headers.referer,
      query: queryOf(request.url),
      acceptLanguage: request.headers['accept-language'],
      cookie: request.headers.cookie,
    });
    const answer = async (request: FastifyRequest, reply: FastifyReply, routeKey: RouteKey | null) => {
      limits.refuseIfBlocked(request.ip);
      const domain = await domainOf(request);
      const key = qualify(routeKey, domain);
      const outcome = key ? await redirects.visit(key, visitorOf(request), domain?.hostname ?? null) : { kind: 'not_found' as const };
      return respond(request, reply, outcome, domain);
    };
    /** A password posted to a protected link's form (its own short URL). */
    const submit = async (request: FastifyRequest, reply: FastifyReply, routeKey: RouteKey | null) => {
      limits.refuseIfBlocked(request.ip);
      const domain = await domainOf(request);
      const key = qualify(routeKey, domain);
      const password = (request.body as { password?: unknown } | undefined)?.password;
      if (!key || typeof password !== 'string') return answer(request, reply, routeKey);
      const { outcome, pass } = await redirects.submitPassword(key, visitorOf(request), password, domain?.hostname ?? null);
      if (pass) {
        const secure = request.protocol === 'https' ? '; Secure' : '';
        reply.header('set-cookie', `${pass.name}=${pass.value}; Max-Age=${PASS_SECONDS}; Path=/; HttpOnly; SameSite=Lax${secure}`);
      }
      return respond(request, reply, outcome, domain);
    };
    const respond = async (request: FastifyRequest, reply: FastifyReply, outcome: RedirectOutcome, domain: ActiveDomain | null) => {
      if (outcome.kind === 'redirect') return reply.redirect(outcome.url, status);
      if (outcome.kind === 'fallback') return reply.redirect(outcome.url, 302);
      if (outcome.kind === 'password') {
        if (outcome.waitSeconds > 0) reply.header('retry-after', String(outcome.waitSeconds));
        return html(reply, outcome.waitSeconds > 0 ? 429 : 200, passwordPage(outcome));
      }
      if (outcome.kind === 'social') return html(reply, 200, socialPage(outcome.preview, `${request.protocol}://${request.host}${request.url.split('?')[0]}`));
      if (outcome.kind === 'app') {
        return reply.header('content-security-policy', APP_PAGE_POLICY).type('text/html; charset=utf-8').send(appPage(outcome.deepLink, outcome.storeUrl));
      }
      // A miss cost a lookup and tells a code is free: misses spend the address's budget, hits never do.
      if (outcome.kind === 'not_found') await limits.admit(request.ip);
      if (outcome.kind === 'not_found' && domain) return domainMiss(reply, domain);
      if (outcome.kind === 'unsafe') return html(reply, 200, warningPage(outcome.url, outcome.threats));
      const page = missPage(outcome.kind);
      return html(reply, page.status, page.html);
    };
    // The password form posts here as a browser form does; nothing else on these paths takes a body.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    const html = (reply: FastifyReply, code: number, body: string) => reply.status(code).type('text/html; charset=utf-8').send(body);
    /** `/{code}+` and `/{prefix}/{slug}+`: the preview instead of the redirect. */
    const showPreview = async (request: FastifyRequest, reply: FastifyReply, routeKey: RouteKey | null) => {
      await limits.admit(request.ip);
      const domain = await domainOf(request);
      const key = qualify(routeKey, domain);
      if (!key) return domainMiss(reply, domain);
      try {
        return html(reply, 200, await preview(key, domain?.hostname ?? null));
      } catch (error) {
        if (error instanceof AppError && error.status === 404) return domainMiss(reply, domain);
        throw error;
      }
    };

    app.get(
      '/:code',
      {
        childLoggerFactory,
        // Snip's own names (/api, /docs, ...) are no short links: another method there is a 404, not a 405 (src/http/methods.ts).
        config: { nulInUrl: 'own', hosts: 'custom-domains', errors: ['RATE_LIMITED'], servesPath: ({ code }) => code === undefined || !isReservedPath(code) },
        schema: { tags, operationId: 'followShortLink', summary: 'Follow a short link', description: DESCRIPTION, params: Type.Object({ code: Type.String() }), response: responses(status) },
      },
      async (request, reply) => {
        const { code } = request.params;
        if (isReservedPath(code)) return reply.callNotFound();
        // Whatever follows (a redirect, a page, a 429), no cache keeps it: src/redirects/cache-control.ts.
        reply.header('cache-control', REDIRECT_CACHE_CONTROL);
        if (code.endsWith('+')) {
          const bare = code.slice(0, -1);
          return showPreview(request, reply, routeKeyOf(bare));
        }
        return answer(request, reply, routeKeyOf(code));
      },
    );

    app.get(
      '/:prefix/:slug',
      {
        childLoggerFactory,
        config: { nulInUrl: 'own', hosts: 'custom-domains', errors: ['RATE_LIMITED'], servesPath: ({ prefix }) => prefix === undefined || !isReservedPath(prefix) },
        schema: { tags, operationId: 'followNamespacedShortLink', summary: 'Follow a namespaced short link', description: DESCRIPTION, params: Type.Object({ prefix: Type.String(), slug: Type.String() }), response: responses(status) },
      },
      async (request, reply) => {
        const { prefix, slug } = request.params;
        if (isReservedPath(prefix)) return reply.callNotFound();
        reply.header('cache-control', REDIRECT_CACHE_CONTROL);
        // No slug or prefix holds a NUL, and no database could look one up: the 404 of an unknown link.
        const stored = !prefix.includes('\u0000') && !slug.includes('\u0000');
        if (slug.endsWith('+')) return showPreview(request, reply, stored && slug.length > 1 ? { namespace: prefix.toLowerCase(), slug: slug.slice(0, -1) } : null);
        return answer(request, reply, stored ? { namespace: prefix.toLowerCase(), slug } : null);
      },
    );

    // The password form of a protected link posts to the short URL itself.
    const PasswordForm = Type.Object({ password: Type.String({ description: 'The link’s password' }) });
    // The form is read by the handler (a missing password answers the form), after a reserved path (/healthz, /api/...)
    // has gone on to its own 404 or 405: a body check here would answer those first.
    const formUnchecked = () => () => true;
    const passwordResponses = { ...responses(status), 429: htmlPage('Too many wrong passwords from this address for this link: the form again, with Retry-After') };
    const PASSWORD_DESCRIPTION =
      "The form of a password-protected link posts here (application/x-www-form-urlencoded). The right password redirects as a visit does (counted once) and sets a cookie that lets this browser through for 12 hours; a wrong one answers the form again; past 10 wrong ones per address and link in 15 minutes, 429 with Retry-After.";
    app.post(
      '/:code',
      {
        childLoggerFactory,
        config: { nulInUrl: 'own', hosts: 'custom-domains', errors: ['RATE_LIMITED'], servesPath: ({ code }) => code === undefined || !isReservedPath(code) },
        validatorCompiler: formUnchecked,
        schema: { tags, operationId: 'unlockShortLink', summary: 'Give a protected short link its password', description: PASSWORD_DESCRIPTION, consumes: ['application/x-www-form-urlencoded'], params: Type.Object({ code: Type.String() }), body: PasswordForm, response: passwordResponses },
      },
      async (request, reply) => {
        const { code } = request.params;
        if (isReservedPath(code)) return reply.callNotFound();
        reply.header('cache-control', REDIRECT_CACHE_CONTROL);
        return submit(request, reply, routeKeyOf(code));
      },
    );
    app.post(
      '/:prefix/:slug',
      {
        childLoggerFactory,
        config: { nulInUrl: 'own', hosts: 'custom-domains', errors: ['RATE_LIMITED'], servesPath: ({ prefix }) => prefix === undefined || !isReservedPath(prefix) },
        validatorCompiler: formUnchecked,
        schema: { tags, operationId: 'unlockNamespacedShortLink', summary: 'Give a protected namespaced short link its password', description: PASSWORD_DESCRIPTION, consumes: ['application/x-www-form-urlencoded'], params: Type.Object({ prefix: Type.String(), slug: Type.String() }), body: PasswordForm, response: passwordResponses },
      },
      async (request, reply) => {
        const { prefix, slug } = request.params;
        if (isReservedPath(prefix)) return reply.callNotFound();
        reply.header('cache-control', REDIRECT_CACHE_CONTROL);
        const stored = !prefix.includes('\u0000') && !slug.includes('\u0000');
        return submit(request, reply, stored ? { namespace: prefix.toLowerCase(), slug } : null);
      },
    );
  };
