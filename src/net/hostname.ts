import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** A hostname in its one spelling for comparing and storing: no surrounding space, lower case, no trailing dot. */
export const normalHostname = (raw: string): string => raw.trim().toLowerCase().replace(/\.$/, '');

/** IPv4's other spellings that ipaddr.js reads (`0x7f.1`, `2130706433`, `0177.0.0.1`): digits and hex parts only. */
const IPV4_OTHER_FORMS = /^(?:0x[0-9a-f]*|\d+)(?:\.(?:0x[0-9a-f]*|\d+)){0,3}$/i;

/**
 * Whether a host (brackets allowed) is an IP address in any spelling ipaddr.js reads. ipaddr.js answers a name
 * like `example.com` by throwing and catching inside, about 90 µs a call: every custom-domain request Fastify
 * answers, every link draft and every scan asked it, so names are told apart first without it.
 */
export function isIpLiteral(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  // ipaddr.js has the last word (node:net takes zone ids ipaddr.js cannot parse); only names are spared it.
  return (isIP(bare) !== 0 || IPV4_OTHER_FORMS.test(bare)) && ipaddr.isValid(bare);
}

/** `localhost`, a name below it, or a loopback address (127.0.0.0/8, ::1, ::ffff:127.x.y.z); `host` normalised. */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (!isIpLiteral(host)) return false;
  const bare = host.replace(/^\[|\]$/g, '');
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

