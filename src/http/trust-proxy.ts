import proxyAddr from '@fastify/proxy-addr';
import type { IncomingMessage } from 'node:http';
import type { TrustProxy } from '../config.js';

/** Fastify's trustProxy for TRUST_PROXY; a hop count as the function Fastify would make of it (its types lack the number). */
export const proxyTrust = (trust: TrustProxy) => (typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust);

/**
 * The client address of a raw request as Fastify's `request.ip` reads it under the same TRUST_PROXY (the same
 * library, the same trust), for the redirect's fast path, which answers before Fastify sees the request.
 */
export function clientAddressOf(trust: TrustProxy): (request: IncomingMessage) => string | undefined {
  if (trust === false) return (request) => request.socket.remoteAddress;
  const given = proxyTrust(trust);
  const fn = given === true ? () => true : typeof given === 'function' ? given : proxyAddr.compile(given as string[]);
  return (request) => proxyAddr(request, fn);
}
