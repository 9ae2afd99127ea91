import ipaddr from 'ipaddr.js';
import { AppError } from '../errors.js';

/**
 * Whether an address is on the public internet: not private, loopback, link-local, unique-local, carrier-grade
 * NAT, multicast, reserved or unspecified. IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
 */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let address = ipaddr.parse(ip);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) address = (address as ipaddr.IPv6).toIPv4Address();
  return address.range() === 'unicast';
}

const invalid = (why: string) => new AppError('INVALID_URL', `Invalid webhook URL: ${why}`);

/**
 * How the server's operator lets webhooks reach private hosts (development, a receiver on the same network): every
 * refusal that setting would lift says so, since the person reading it is often the one who runs the server.
 */
export const ALLOW_PRIVATE_HINT = "the server's operator can allow private hosts and http:// by setting WEBHOOK_ALLOW_PRIVATE=true";

/**
 * The Fetch Standard's "bad ports": ports of other protocols (mail, DNS, SSH, databases' neighbours, IRC, ...)
 * that browsers refuse to send HTTP to. Webhooks refuse them too, so Snip cannot be used to poke such services;
 * any other port is allowed, as webhook receivers often listen on 8443 or a high port.
 */
const BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119,
  123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989,
  990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

export const isBadPort = (url: URL): boolean => url.port !== '' && BAD_PORTS.has(Number(url.port));

/**
 * The checks a webhook URL gets when it is saved. Host names are resolved again at every delivery, since DNS
 * can change after this check (rebinding); an IP literal can be judged here once and for all.
 */
export function checkWebhookUrl(raw: unknown, allowPrivate: boolean): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw invalid('a URL is required');
  if (raw.length > 2048) throw invalid('at most 2,048 characters');
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid('not an absolute URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw invalid(url.protocol === 'http:' ? `must use https://; ${ALLOW_PRIVATE_HINT}` : 'must use https://');
  }
  if (url.username || url.password) throw invalid('must not carry a user name or password');
  if (isBadPort(url)) throw invalid(`must not use port ${url.port}, which belongs to another protocol`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate) {
    if (ipaddr.isValid(host) && !isPublicAddress(host)) {
      throw invalid(`must not point at a private, loopback or link-local address; ${ALLOW_PRIVATE_HINT}`);
    }
    if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) {
      throw invalid(`must name a public host; ${ALLOW_PRIVATE_HINT}`);
    }
  }
  return url.toString();
}
