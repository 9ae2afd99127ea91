import ipaddr from 'ipaddr.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../errors.js';
import { isLoopbackHost, normalHostname } from '../net/hostname.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The hosts a route answers on beyond Snip's own (BASE_URL's host, ALLOWED_HOSTS and loopback names), which every
     * route answers on: `custom-domains` adds the active custom domains (short links and the pages around them), `any`
     * every host (health checks). Unset, a request for any other host is 421 MISDIRECTED_REQUEST.
     */
    hosts?: 'custom-domains' | 'any';
  }
}

/** The custom domains Snip serves (src/domains): the active one of that hostname, if any. */
export interface CustomDomains {
  activeDomain(hostname: string): object | null | Promise<object | null>;
}

/**
 * `host[:port]` as RFC 3986 writes an authority without userinfo: a name or dotted IPv4 address, or an IPv6 address
 * in brackets, then an optional port. Anything else (`a:b:c`, `x y`, `[::1`, an empty value) is no host at all.
 */
const AUTHORITY = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9_.-]+))(?::\d{0,5})?$/i;

/** The hostname of a Host value in one spelling (lower case, no trailing dot, IPv6 compressed in brackets); null when malformed. */
export function hostnameOf(authority: string): string | null {
  const match = AUTHORITY.exec(authority);
  if (!match) return null;
  const [, ipv6, name] = match;
  if (ipv6 !== undefined) return ipaddr.IPv6.isValid(ipv6) ? `[${ipaddr.IPv6.parse(ipv6).toString()}]` : null;
  const hostname = normalHostname(name!);
  return hostname === '' ? null : hostname;
}

/**
 * Which hosts each surface answers on, decided in one place for every route (deny by default: a route answers on a
 * host that is not Snip's own only when its config says so). The host checked is the one the client asked for:
 * Fastify's `request.host`, which is `X-Forwarded-Host` when a proxy TRUST_PROXY trusts sent one and the Host
 * header otherwise. Loopback names are always Snip's own: a DNS-rebinding page's requests carry the attacker's host,
 * never a loopback one, and a local client or a proxy on the same machine may use them.
 */
export class HostPolicy {
  private readonly own: ReadonlySet<string>;

  constructor(
    baseUrl: string,
    allowedHosts: readonly string[],
    private readonly domains: CustomDomains,
  ) {
    this.own = new Set([new URL(baseUrl).host, ...allowedHosts].map((host) => hostnameOf(host)).filter((host): host is string => host !== null));
  }

  /** True for BASE_URL's host, an ALLOWED_HOSTS one and every loopback name; `hostname` as `hostnameOf` spells it. */
  isOwn(hostname: string): boolean {
    return this.own.has(hostname) || isLoopbackHost(hostname);
  }

  /** Whether a request for `authority` (its Host) may reach a route that answers on `hosts`. */
  async admits(authority: string, hosts: 'custom-domains' | 'any' | undefined): Promise<boolean> {
    if (hosts === 'any') return true;
    const hostname = hostnameOf(authority);
    if (hostname === null) return false;
    if (this.isOwn(hostname)) return true;
    return hosts === 'custom-domains' && (await this.domains.activeDomain(hostname)) !== null;
  }

  /**
   * The check, as the app's first onRequest hook: before the key check, the body and any route's work. The refusal is
   * an AppError, so each surface answers it in its own shape (REST's body, JSON-RPC on /mcp).
   */
  register(app: FastifyInstance): void {
    app.addHook('onRequest', async (request: FastifyRequest) => {
      if (!(await this.admits(request.host, request.routeOptions.config?.hosts))) throw errors.misdirectedRequest();
    });
  }
}
