import type { Caller } from '../accounts/service.js';
import { lowestTierWith, tierLabel, type Plans } from '../accounts/plans.js';
import { checkAppLinks, type AppLinks } from '../web2app/app-links.js';
import type { LinkSource } from './link.js';
import { AppError, errors } from '../errors.js';
import { destinationOf } from './base64-destination.js';
import { checkBlockedCountries, checkDestination, checkMaxClicks, checkSchedule, checkSlug } from './rules.js';
import { validationError } from '../http/validation-messages.js';

export interface CreateLinkInput {
  url: unknown;
  customSlug?: string;
  expiresAt?: string;
  maxClicks?: number;
  activeFrom?: string;
  blockedCountries?: unknown;
  /** An active custom domain of the caller's for the short URL; absent: the account's default domain. */
  domain?: unknown;
  /** One of the caller's UTM templates, whose utm_* parameters are set on the destination; absent or null: none. */
  utmTemplateId?: unknown;
  /** App targets for phone visitors (web2app, Pro and above); absent or null: none. */
  appLinks?: unknown;
}

/** A link that passed every rule and waits for its id and code. */
export interface LinkDraft {
  accountId: string;
  namespace: string | null;
  slug: string | null;
  url: string;
  maxClicks: number | null;
  expiresAt: string | null;
  activeFrom: string | null;
  blockedCountries: string[] | null;
  /** Set by the creator, which knows the caller's domains. */
  domain: string | null;
  source: LinkSource;
  clientName: string | null;
  appLinks: AppLinks | null;
  /** Set by affiliate programs for a partner link. */
  partnershipId: string | null;
}

/** Where a caller's links come from: the surface it called through (src/accounts/service.ts Caller). */
export function sourceOf(caller: Caller): { source: LinkSource; clientName: string | null } {
  if (caller.via === 'mcp') return { source: 'mcp', clientName: caller.clientName ?? null };
  if (caller.via === 'session') return { source: 'dashboard', clientName: null };
  return { source: caller.keyId === 'operator' ? 'cli' : 'api', clientName: null };
}

/**
 * App targets are a plan feature (`appLinks`, Pro and above by default), refused on plans without it like custom slugs
 * are (the field, not the whole API); the refusal names the lowest plan that has it.
 */
export function checkAppLinksFor(caller: Caller, raw: unknown, ownHostnames: ReadonlySet<string>, plans: Plans): AppLinks | null {
  const appLinks = checkAppLinks(raw, ownHostnames);
  if (appLinks !== null && !plans[caller.tier].appLinks) {
    const needed = lowestTierWith(plans, (plan) => plan.appLinks);
    throw errors.tierRequired(needed === null ? 'another' : tierLabel(needed));
  }
  return appLinks;
}

/** Applies the rules of a new link (spec 2.1) for the caller; throws the first rule broken. */
export function draftLink(
  caller: Caller,
  input: CreateLinkInput,
  now: Date,
  ownHostnames: ReadonlySet<string>,
  plans: Plans,
): LinkDraft {
  const url = checkDestination(input.url, ownHostnames);
  const slug = input.customSlug === undefined ? null : checkSlug(input.customSlug);
  if (slug !== null && !plans[caller.tier].customSlugs) throw errors.premiumRequired();
  if (slug !== null && !caller.namespace) {
    throw errors.namespaceRequired();
  }
  const maxClicks = input.maxClicks === undefined ? null : checkMaxClicks(input.maxClicks);
  const schedule = checkSchedule(
    { expiresAt: input.expiresAt ?? null, activeFrom: input.activeFrom ?? null },
    { expiresAt: true, activeFrom: true },
    now,
  );
  return {
    accountId: caller.accountId,
    namespace: slug === null ? null : caller.namespace,
    slug,
    url,
    maxClicks,
    ...schedule,
    blockedCountries: input.blockedCountries === undefined ? null : checkBlockedCountries(input.blockedCountries),
    domain: null,
    ...sourceOf(caller),
    appLinks: input.appLinks === undefined ? null : checkAppLinksFor(caller, input.appLinks, ownHostnames, plans),
    partnershipId: null,
  };
}

const optional = <T>(value: unknown, check: (v: unknown) => v is T, refusal: () => AppError): T | undefined => {
  if (value === undefined || value === null) return undefined;
  if (!check(value)) throw refusal();
  return value;
};
const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number';

/**
 * One item of a bulk request, as sent: items are checked one by one (spec 2.6), so their shapes are checked
 * here rather than by the route schema, which would fail the whole request.
 */
export function bulkItemInput(raw: unknown): CreateLinkInput {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw errors.invalidItem();
  }
  const item = raw as Record<string, unknown>;
  const long = optional(item.long, isString, () => errors.invalidBase64('must be a Base64 string'));
  return {
    url: item.url === undefined || item.url === null ? destinationOf({ long }) : item.url,
    customSlug: optional(item.customSlug, isString, () => validationError(['customSlug'], { rule: 'type', type: 'string' })),
    expiresAt: optional(item.expiresAt, isString, () => validationError(['expiresAt'], { rule: 'type', type: 'string' })),
    maxClicks: optional(item.maxClicks, isNumber, () => validationError(['maxClicks'], { rule: 'type', type: 'integer' })),
    activeFrom: optional(item.activeFrom, isString, () => validationError(['activeFrom'], { rule: 'type', type: 'string' })),
    blockedCountries: item.blockedCountries ?? undefined,
    appLinks: item.appLinks ?? undefined,
  };
}
