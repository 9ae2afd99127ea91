import type { Caller } from '../caller.js';
import { limitsOf, lowestTierWith, tierLabel, type Plans } from '../plans.js';
import type { AppLinks } from '../web2app/app-targets.js';
import { checkAppLinks } from '../web2app/app-links.js';
import type { LinkSource } from './link.js';
import type { Static } from '@sinclair/typebox';
import { AppError, errors } from '../errors.js';
import { checkInput } from '../schema/check.js';
import { destinationOf, withBase64 } from './base64-destination.js';
import { LinkInput, type SocialPreview } from './input.js';
import { checkRules, checkVariants, type Rule, type Variant } from './routing.js';
import { checkDestination, checkOtherDestination, checkSchedule, normalisedCountries } from './rules.js';

/**
 * A new link as the services take it: the link input (src/links/input.ts) whose destination a surface may have
 * decoded (B's Base64) or left out (then MISSING_URL).
 */
export type CreateLinkInput = Omit<LinkInput, 'url'> & { url: string | undefined };

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
  rules: Rule[] | null;
  variants: Variant[] | null;
  /** Set by the creator, which hashes the password (asynchronously: scrypt is slow on purpose). */
  passwordHash: string | null;
  expiredUrl: string | null;
  socialPreview: SocialPreview | null;
}

/** Where a caller's links come from: the surface it called through (src/caller.ts). */
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
  if (appLinks !== null && !limitsOf(plans, caller).appLinks) {
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
  const slug = input.customSlug ?? null;
  if (slug !== null && !limitsOf(plans, caller).customSlugs) throw errors.premiumRequired();
  if (slug !== null && !caller.namespace) {
    throw errors.namespaceRequired();
  }
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
    maxClicks: input.maxClicks ?? null,
    ...schedule,
    blockedCountries: input.blockedCountries === undefined ? null : normalisedCountries(input.blockedCountries),
    domain: null,
    ...sourceOf(caller),
    appLinks: input.appLinks == null ? null : checkAppLinksFor(caller, input.appLinks, ownHostnames, plans),
    partnershipId: null,
    ...routingOf(input, ownHostnames),
    passwordHash: null,
  };
}

/**
 * The routing fields of a new link or a change, by their rules (src/links/routing.ts); a field absent stays absent,
 * null (on a change) removes it.
 */
export function routingOf(
  input: { rules?: Rule[] | null; variants?: Variant[] | null; expiredUrl?: string | null; socialPreview?: SocialPreview | null },
  ownHostnames: ReadonlySet<string>,
): Pick<LinkDraft, 'rules' | 'variants' | 'expiredUrl' | 'socialPreview'> {
  return {
    rules: input.rules == null ? null : checkRules(input.rules, ownHostnames),
    variants: input.variants == null ? null : checkVariants(input.variants, ownHostnames),
    expiredUrl: input.expiredUrl == null ? null : expiredUrlOf(input.expiredUrl, ownHostnames),
    socialPreview: input.socialPreview ?? null,
  };
}

/** An expired link's fallback follows the destination rules; its refusal names the field. */
const expiredUrlOf = (url: string, ownHostnames: ReadonlySet<string>): string =>
  checkOtherDestination(url, ownHostnames, (why) => new AppError('INVALID_EXPIRED_URL', `expiredUrl ${why}`));

/** Description B's form of one bulk item (url or Base64 long): the schema every item, import row and dashboard row is held to. */
export const LinkItem = withBase64(LinkInput, 'Destination as Base64, instead of url (Description B style)');

/**
 * How one item of a bulk request or an import is read: checked against a surface's form of the link input's own
 * schema, so an item breaks a rule with the code and sentence a single create answers. Items are checked one by one
 * (spec 2.6): a bad item fails only itself.
 */
export const itemReader =
  <T>(schema: object, toInput: (item: T) => CreateLinkInput) =>
  (raw: unknown): CreateLinkInput => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw errors.invalidItem();
    return toInput(checkInput<T>(schema, raw, 'The item'));
  };

/** REST's and the imports' items: Description B's form, the destination as url or Base64 long. */
export const linkItemInput = itemReader<Static<typeof LinkItem>>(LinkItem, ({ long, ...item }) => ({ ...item, url: destinationOf({ url: item.url, long }) }));
