import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressLimits } from '../access/address-limits.js';
import { isReservedPath } from '../accounts/namespace-rules.js';
import type { RedirectStatus, TrustProxy } from '../config.js';
import { clientAddressOf } from '../http/trust-proxy.js';
import { CODE_PATTERN } from '../links/rules.js';
import { normalHostname } from '../net/hostname.js';
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

/** The host of a Host header as Fastify's `request.hostname` reads it: without the port, brackets kept. */
function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.indexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

/**
 * The redirect's fast path: `GET`/`HEAD /{code}` for a link the redirect cache holds, on a host the domain map knows, decided
 * by the same `RedirectService` code as the Fastify route (`decideCached`) and answered with the same 302 before
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
   * The custom domain a Host header names (its hostname), null for Snip's own host or a host that is no active
   * domain (served as Snip's own, as the route does), undefined when the domain map must first be read.
   */
  const domainOf = (host: string): string | null | undefined => {
    let hostname = hostnames.get(host);
    if (hostname === undefined) {
      const normal = normalHostname(hostnameOf(host));
      hostname = hosts.ownHosts.has(normal) ? null : normal;
      if (hostnames.size >= HOSTS_REMEMBERED) hostnames.clear(); // made-up Host headers cannot grow it
      hostnames.set(host, hostname);
    }
    if (hostname === null) return null;
    const domain = hosts.activeDomain(hostname);
    return domain instanceof Promise ? undefined : (domain?.hostname ?? null);
  };

  const answer = (response: ServerResponse, location: string) => {
    // What Fastify's reply.redirect answers: the status, the Location and an empty body.
    response.writeHead(options.status, { location, 'content-length': '0' });
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
      const visitor = { counts: method === 'GET', ip, userAgent: request.headers['user-agent'] ?? '', referer: request.headers.referer, query: query < 0 ? '' : url.slice(query + 1) };
      const decided = redirects.decideCached(code, visitor, customDomain);
      if (decided === undefined || decided.outcome.kind !== 'redirect') return false;
      const location = decided.outcome.url;
      if (decided.journaled === null) answer(response, location);
      else void decided.journaled.then(() => answer(response, location));
      return true;
    },
    /** From the start of a shutdown every request goes to Fastify, which answers 503 and records nothing more. */
    close(): void {
      open = false;
    },
  };
}

/**
 * The server Fastify would make (the same timeouts), handing each request to `first` before Fastify's handler.
 */
export function serverWith(first: (request: IncomingMessage, response: ServerResponse) => boolean) {
  return (handler: (request: IncomingMessage, response: ServerResponse) => void, options: { keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number; maxRequestsPerSocket?: number; http?: http.ServerOptions }) => {
    const server = http.createServer(options.http ?? {}, (request, response) => {
      if (!first(request, response)) handler(request, response);
    });
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket !== undefined && options.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}
