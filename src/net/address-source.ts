import ipaddr from 'ipaddr.js';

/**
 * Where a sign-in comes from, as the attempt limits count it: an IPv4 address, or an IPv6 address's /64 (one
 * subscriber's network, whose addresses its holder picks freely, so rotating through it gains nothing). IPv4-mapped
 * IPv6 addresses count as the IPv4 address they carry.
 */
export function sourceOf(address: string): string {
  // An IPv4 address (no colon) is its own source: no parse on the paths that ask for every request.
  if (!address.includes(':') || !ipaddr.isValid(address)) return address;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
