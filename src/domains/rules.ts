import ipaddr from 'ipaddr.js';
import { errors } from '../errors.js';
import { normalHostname } from '../net/hostname.js';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
/** Special-use names (RFC 6761, RFC 6762, RFC 8375 ...) that can never be a public custom domain. */
const RESERVED_SUFFIXES = ['localhost', 'local', 'internal', 'invalid', 'arpa', 'home.arpa', 'lan', 'onion'];

export const invalidDomain = errors.invalidDomain;
const reserved = errors.reservedDomain;

/** A hostname as typed (any case, trailing dot) in its one stored spelling, or INVALID_DOMAIN / RESERVED_DOMAIN. */
/** The one stored spelling of a hostname as typed: lower case, no surrounding space or trailing dot. */
export const normalHost = normalHostname;

export function checkDomain(raw: unknown, ownHosts: ReadonlySet<string>): string {
  if (raw === undefined || raw === null || raw === '') throw errors.missingDomain();
  if (typeof raw !== 'string') throw invalidDomain('a hostname such as links.example.com is expected');
  const host = normalHostname(raw);
  const bare = host.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(bare)) throw reserved('IP addresses cannot be custom domains');
  // Reserved names first: `localhost` is a reserved name, not a malformed one.
  for (const own of ownHosts) {
    if (host === own || host.endsWith(`.${own}`)) throw reserved(`${own} is this service's own host`);
  }
  if (RESERVED_SUFFIXES.some((s) => host === s || host.endsWith(`.${s}`))) throw reserved('special-use names cannot be custom domains');
  if (host.length > 253) throw invalidDomain('at most 253 characters');
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || !TLD.test(labels.at(-1)!)) {
    throw invalidDomain(`"${raw}" is not a hostname such as links.example.com`);
  }
  return host;
}

/**
 * How long an unverified (pending_txt) claim lives. A pending claim never blocks another account (issue 16, class
 * 6: squatting); past this age it is dropped, no longer counts toward the plan's domain maximum and can no longer
 * be verified (add the domain again for a new token). Seven days is well past DNS propagation (48 hours, spec 3.1).
 */
export const PENDING_CLAIM_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The created_at before which a pending claim has expired, as an ISO string (timestamps compare as text). */
export const pendingCutoff = (now: Date): string => new Date(now.getTime() - PENDING_CLAIM_TTL_MS).toISOString();
