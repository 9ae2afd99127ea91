import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../schema/shapes.js';
import { software } from '../clicks/user-agent.js';
import type { Link } from './link.js';
import { compileRouting, route, variantBucket } from './routing.js';

/** A made-up visitor, as the resolve endpoint and tool take it: every part optional. */
export const ResolveQuery = Type.Object({
  userAgent: Type.Optional(Type.String({ maxLength: 1000, description: "The visitor's User-Agent (device rules)" })),
  country: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$', description: "The visitor's country, ISO 3166-1 alpha-2 (country rules and blocked countries)" })),
  language: Type.Optional(Type.String({ maxLength: 500, description: 'The visitor’s Accept-Language, such as fr-CA or "de;q=0.8, en"' })),
  query: Type.Optional(Type.String({ maxLength: 2000, description: 'The query string the visitor adds to the short URL, without ?' })),
  address: Type.Optional(Type.String({ maxLength: 64, description: "The visitor's IP address (address rules; the A/B split with userAgent)" })),
});
export type ResolveQuery = Static<typeof ResolveQuery>;

export const RESOLVE_REASONS = ['rule', 'variant', 'destination', 'expired', 'password', 'blocked', 'disabled'] as const;

export const Resolved = Type.Object({
  url: Nullable(Type.String({ description: 'Where the visitor is sent; null when to no destination: blocked, the password form, disabled by the operator, or ended without an expiredUrl' })),
  reason: StringEnum(RESOLVE_REASONS, { description: 'Why: a rule matched, a variant of the A/B split, the destination, or the link ended, asks a password or blocks the country' }),
  rule: Type.Optional(Type.Integer({ minimum: 0, description: 'The index of the rule that matched, with reason rule' })),
});
export type Resolved = Static<typeof Resolved>;

/**
 * Where such a visitor would go, by the redirect's own order (country block, password, rules, variants, destination)
 * and its own routing code, without counting anything. A link not active yet is resolved as if it were, so rules
 * can be tried before it goes live. A password-protected link sends visitors to its form, no destination.
 */
export function resolveVisit(link: Link, visitor: ResolveQuery, now: Date): Resolved {
  // The operator's decision comes first, as on the redirect.
  if (link.disabledAt !== null) return { url: null, reason: 'disabled' };
  const ended = (link.expiresAt !== null && Date.parse(link.expiresAt) <= now.getTime()) || (link.maxClicks !== null && link.clicks >= link.maxClicks);
  if (ended) return { url: link.expiredUrl, reason: 'expired' };
  const country = visitor.country?.toUpperCase();
  if (country !== undefined && link.blockedCountries.includes(country)) return { url: null, reason: 'blocked' };
  if (link.passwordHash !== null) return { url: null, reason: 'password' };
  const routing = compileRouting(link.rules, link.variants);
  if (routing === null) return { url: link.url, reason: 'destination' };
  const userAgent = visitor.userAgent ?? '';
  const address = visitor.address ?? '';
  return route(routing, link.url, {
    software: () => software(userAgent),
    country: () => country,
    acceptLanguage: visitor.language,
    query: visitor.query ?? '',
    address,
    bucket: () => variantBucket(link.id, address, userAgent),
  });
}
