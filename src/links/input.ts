import { Type, type Static, type TOptional, type TProperties, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { DateTime, MAX_INTEGER, Nullable } from '../schema/shapes.js';
import { AppLinksInput } from '../web2app/app-links.js';
import { Rules, Variants } from './routing.js';

/**
 * Every field a client sets on a link, written once. REST A and B take these schemas as their bodies, MCP's tools as
 * their arguments (renamed where the tool's names differ), and bulk items, import rows and the dashboard's requests
 * are checked against them (src/schema/check.ts): a field added here is validated and refused alike everywhere,
 * and its rule is written once in drafts.ts (create) and service.ts (change).
 */

export const Url = (description: string) => Type.String({ format: 'uri', description });

/** What link-preview bots (Slack, X, Facebook, ...) are shown instead of the destination's own page. */
export const SocialPreview = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    image: Type.Optional(Url('An absolute http or https URL of the preview image')),
  },
  { additionalProperties: false, minProperties: 1, description: 'Open Graph and Twitter card tags for link-preview bots; people are redirected as usual' },
);
export type SocialPreview = Static<typeof SocialPreview>;

/** Fields a link keeps and a change may replace; on a change, null removes the value. */
const CHANGEABLE = {
  expiresAt: DateTime('Time at which the link expires'),
  maxClicks: Type.Integer({ minimum: 1, maximum: MAX_INTEGER, description: 'Clicks before the link stops redirecting' }),
  activeFrom: DateTime('Time at which the link becomes active'),
  blockedCountries: Type.Array(Type.String({ pattern: '^[A-Za-z]{2}$' }), {
    maxItems: 250,
    description: 'ISO 3166-1 alpha-2 codes of countries whose visitors get a 451 page instead of the redirect',
  }),
  // null on a create too: a client that always sends the field says "none" with it.
  appLinks: Nullable(AppLinksInput),
  rules: Rules,
  variants: Variants,
  password: Type.String({
    minLength: 4,
    maxLength: 200,
    writeOnly: true,
    description: 'Visitors must enter it before they are redirected; stored hashed and never shown (reads say passwordProtected)',
  }),
  expiredUrl: Url('Where an expired or used-up link sends visitors (302), instead of its 410 page'),
  socialPreview: SocialPreview,
};

/** Fields only a create sets: they decide the short URL itself, or are applied once to the destination. */
const CREATE_ONLY = {
  customSlug: Type.String({
    minLength: 3,
    maxLength: 50,
    pattern: '^[a-zA-Z0-9-]+$',
    description: "A custom slug under the caller's namespace: the short URL becomes <namespace>/<slug> (Pro and above)",
  }),
  domain: Type.String({ description: "One of the caller's active custom domains; default: the account's default domain" }),
  utmTemplateId: Type.String({ description: "One of the caller's UTM templates: its utm_* parameters are set on the destination" }),
};

type Optionals<P extends TProperties> = { [K in keyof P]: TOptional<P[K]> };
type Clearables<P extends TProperties> = { [K in keyof P]: TOptional<TUnsafe<Static<P[K]> | null>> };

const optionals = <P extends TProperties>(properties: P): Optionals<P> =>
  Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, Type.Optional(schema as TSchema)])) as Optionals<P>;
const clearables = <P extends TProperties>(properties: P): Clearables<P> =>
  Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, Type.Optional(Nullable(schema as TSchema))])) as Clearables<P>;

/** A new link: its destination and every option. */
export const LinkInput = Type.Object({
  url: Url('Destination URL (absolute http or https)'),
  ...optionals(CREATE_ONLY),
  ...optionals(CHANGEABLE),
});
export type LinkInput = Static<typeof LinkInput>;

/**
 * A change to a link: only the fields present change. Unknown fields are dropped (as MCP's schema drops them), so a
 * change naming none of these changes nothing and is refused like an empty one, rather than answering 200 for a typo.
 */
export const LinkChanges = Type.Object(
  { url: Type.Optional(Url('New destination')), ...clearables(CHANGEABLE) },
  { minProperties: 1, additionalProperties: false },
);
export type LinkChanges = Static<typeof LinkChanges>;
