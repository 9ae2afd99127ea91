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
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) throw invalid('must use https://');
  if (url.username || url.password) throw invalid('must not carry a user name or password');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate) {
    if (ipaddr.isValid(host) && !isPublicAddress(host)) throw invalid('must not point at a private, loopback or link-local address');
    if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) throw invalid('must name a public host');
  }
  return url.toString();
}
