import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressLimits } from '../access/address-limits.js';
import { isReservedPath } from '../accounts/namespace-rules.js';
import type { RedirectStatus, TrustProxy } from '../config.js';
import { clientAddressOf } from '../http/trust-proxy.js';
import { CODE_PATTERN } from '../links/rules.js';
import { isLoopbackHost } from '../net/hostname.js';
import { hostnameOf } from '../http/hosts.js';
import { REDIRECT_CACHE_CONTROL } from './cache-control.js';
import type { CustomHosts } from './routes.js';
import type { RedirectService } from './service.js';

export interface FastPathOptions {
  status: RedirectStatus;
  /** Snip's own host names (BASE_URL's), and which other hosts are active custom domains (as the route asks). */
  hosts: CustomHosts;
  trustProxy: TrustProxy;
  limits: AddressLimits;
}

const HOSTS_REMEMBERED = 1_000;

/**
 * The redirect's fast path: `GET`/`HEAD /{code}` for a link the redirect cache holds, on a host the domain map knows, decided
 * by the same `RedirectService` code as the Fastify route (`decideCached`) and answered with the same redirect before
 * Fastify routes the request, so a redirect costs what the answer needs and no more. Anything else — an
 * uncached link, a host the domain map has not read yet, a page instead of a redirect, a blocked address, a server shutting down —
 * answers false and goes to Fastify, which handles it as before.
 */
export function fastRedirects(redirects: RedirectService, options: FastPathOptions) {
  const addressOf = clientAddressOf(options.trustProxy);
  const trustsProxy = options.trustProxy !== false;
  const { hosts } = options;
  /** Host header → its normal hostname, null for Snip's own. */
  const hostnames = new Map<string, string | null>();
  let open = true;

  /**
   * The custom domain a Host header names (its hostname), null for Snip's own host (a loopback name included, as
   * src/http/hosts.ts judges it), undefined when the domain map must first be read or the host is no active custom
   * domain: Fastify then answers it, with 421 for a host Snip does not answer on.
   */
  const domainOf = (host: string): string | null | undefined => {
    let hostname = hostnames.get(host);
    if (hostname === undefined) {
      const normal = hostnameOf(host);
      if (normal === null) return undefined; // a malformed Host: Fastify answers 421
      hostname = hosts.ownHosts.has(normal) || isLoopbackHost(normal) ? null : normal;
      if (hostnames.size >= HOSTS_REMEMBERED) hostnames.clear(); // made-up Host headers cannot grow it
      hostnames.set(host, hostname);
    }
    if (hostname === null) return null;
    const domain = hosts.activeDomain(hostname);
    return domain instanceof Promise || domain === null ? undefined : domain.hostname;
  };

  const answer = (response: ServerResponse, location: string) => {
    // What the route answers: the status, the Location, no caching (src/redirects/cache-control.ts) and an empty body.
    response.writeHead(options.status, { location, 'cache-control': REDIRECT_CACHE_CONTROL, 'content-length': '0' });
    response.end();
  };

  return {
    /** True when the request was answered here. */
    handle(request: IncomingMessage, response: ServerResponse): boolean {
      const { method, url } = request;
      if (!open || (method !== 'GET' && method !== 'HEAD') || url === undefined) return false;
      const query = url.indexOf('?');
      if ((query < 0 ? url.length : query) !== 7) return false;
      const code = url.slice(1, 7);
      if (!CODE_PATTERN.test(code) || isReservedPath(code)) return false;
      const host = request.headers.host;
      if (host === undefined || (trustsProxy && request.headers['x-forwarded-host'] !== undefined)) return false;
      const customDomain = domainOf(host);
      if (customDomain === undefined) return false;
      const ip = addressOf(request);
      if (ip === undefined || options.limits.isBlocked(ip)) return false;
      const visitor = { counts: method === 'GET', ip, userAgent: request.headers['user-agent'] ?? '', referer: request.headers.referer, query: query < 0 ? '' : url.slice(query + 1), acceptLanguage: request.headers['accept-language'] };
      const decided = redirects.decideCached(code, visitor, customDomain);
      if (decided === undefined || decided.outcome.kind !== 'redirect') return false;
      const location = decided.outcome.url;
      if (decided.journaled === null) answer(response, location);
      else decided.journaled.after(answer, response, location);
      return true;
    },
    /** From the start of a shutdown every request goes to Fastify, which answers 503 and records nothing more. */
    close(): void {
      open = false;
    },
  };
}
