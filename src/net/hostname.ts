import ipaddr from 'ipaddr.js';

/** A hostname in its one spelling for comparing and storing: no surrounding space, lower case, no trailing dot. */
export const normalHostname = (raw: string): string => raw.trim().toLowerCase().replace(/\.$/, '');

/** `localhost`, a name below it, or a loopback address (127.0.0.0/8, ::1, ::ffff:127.x.y.z); `host` normalised. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const bare = host.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(bare)) return false;
  const parsed = ipaddr.process(bare); // an IPv4-mapped IPv6 address is judged as the IPv4 one
  return parsed.range() === 'loopback' || (parsed.kind() === 'ipv4' && parsed.toString() === '0.0.0.0');
}

/**
 * Whether `host` names this service: one of its own host names, in any spelling the URL parser leaves (case, a
 * trailing dot), or, when the service is on loopback (BASE_URL http://localhost:3000), any loopback form.
 */
export function isOwnHost(host: string, ownHostnames: ReadonlySet<string>): boolean {
  const normal = normalHostname(host);
  if (ownHostnames.has(normal)) return true;
  return isLoopbackHost(normal) && [...ownHostnames].some(isLoopbackHost);
}

