import { Type } from '@sinclair/typebox';
import { DateTime, MAX_INTEGER, Nullable, Pagination, StringEnum } from '../http/schemas.js';
import { named } from '../http/schema-names.js';
import { AppLinksInput, AppLinksOutput } from '../web2app/app-links.js';
import { LINK_SOURCES } from './link.js';

const BlockedCountries = Type.Array(Type.String({ pattern: '^[A-Za-z]{2}$' }), {
  maxItems: 250,
  description: 'ISO 3166-1 alpha-2 codes of countries whose visitors get a 451 page instead of the redirect',
});

const Url = (description: string) => Type.String({ format: 'uri', description });

/** Where a link came from and its app targets, on every description's link. */
const originFields = {
  source: StringEnum(LINK_SOURCES, { description: 'Where the link was made: api (a key), mcp (an AI assistant), cli (the operator) or dashboard' }),
  clientName: Nullable(Type.String({ description: 'For links made over MCP: the client that made it (its initialize clientInfo.name)' })),
  appLinks: AppLinksOutput,
};

export const CreateLinkBodyA = Type.Object({
  url: Url('Destination URL (absolute http or https)'),
  customSlug: Type.Optional(Type.String({ minLength: 3, maxLength: 50, pattern: '^[a-zA-Z0-9-]+$', description: 'Pro and above' })),
  expiresAt: Type.Optional(DateTime('Time at which the link expires')),
  maxClicks: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_INTEGER, description: 'Clicks before the link stops redirecting' })),
  activeFrom: Type.Optional(DateTime('Time at which the link becomes active')),
  blockedCountries: Type.Optional(BlockedCountries),
  domain: Type.Optional(Type.String({ description: "One of the caller's active custom domains; default: the account's default domain" })),
  utmTemplateId: Type.Optional(Type.String({ description: "One of the caller's UTM templates: its utm_* parameters are set on the destination" })),
  appLinks: Type.Optional(Nullable(AppLinksInput)),
});

export const CreatedLinkA = named('CreatedLinkA', 'The link made, as Description A answers a create', Type.Object({
  success: Type.Boolean(),
  shortUrl: Url('Full short URL'),
  shortCode: Type.String({ description: '6-character code' }),
  fullPath: Nullable(Type.String({ description: '<prefix>/<slug> for namespaced links' })),
  namespace: Nullable(Type.String({ description: 'Prefix when a custom slug is used' })),
  long: Url('Original destination'),
  created: DateTime(),
  expiresAt: Nullable(DateTime()),
  maxClicks: Nullable(Type.Integer()),
  ...originFields,
}));

const detailFields = {
  id: Type.String({ description: 'Document id' }),
  shortCode: Type.String(),
  fullPath: Nullable(Type.String()),
  namespace: Nullable(Type.String()),
  long: Url('Destination'),
  clicks: Type.Integer({ description: 'Total clicks' }),
  created: DateTime(),
  expiresAt: Nullable(DateTime()),
  maxClicks: Nullable(Type.Integer()),
  isCustom: Type.Boolean({ description: 'True for a custom slug' }),
  blockedCountries: Type.Array(Type.String(), { description: 'Countries refused with a 451 page (empty: none)' }),
  folderId: Nullable(Type.String({ description: 'The folder the link is filed in; null when none' })),
  domain: Nullable(Type.String({ description: 'The custom domain of the short URL; null for the default host' })),
  tags: Type.Array(Type.String(), { description: "The link's tags as written, sorted ignoring case (empty: none)" }),
  ...originFields,
};

export const LinkDetailsA = named('LinkA', 'A link as Description A shows it', Type.Object({ ...detailFields, shortUrl: Url('Full short URL') }));

/** Description B speaks of `shortUrl` as the slug and `url` as the clickable address; its links keep that. */
export const LinkB = named('LinkB', 'A link as Description B shows it', Type.Object({
  ...detailFields,
  shortUrl: Type.String({ description: 'The slug: the code, or <prefix>/<slug>' }),
  url: Url('Full clickable short URL'),
  activeFrom: Nullable(DateTime()),
  updated: DateTime(),
}));

export const PaginationOut = named(
  'Pagination',
  'Where this page is in the whole list',
  Type.Object({ limit: Type.Integer(), offset: Type.Integer(), hasMore: Type.Boolean({ description: 'Whether a next page has items: ask again with offset + limit' }) }),
);
export const ListQuery = Type.Object({
  ...Pagination.properties,
  folderId: Type.Optional(Type.String({ description: "Only the links in this folder of the caller's; `none`: only links in no folder" })),
  tag: Type.Optional(Type.String({ description: 'Only the links carrying this tag, in any case' })),
  domain: Type.Optional(Type.String({ description: 'Only the links whose short URL is on this custom domain' })),
  search: Type.Optional(Type.String({ description: 'Only the links whose destination, code or slug contains this text, ignoring case (at most 200 characters)' })),
  view: Type.Optional(Type.String({ description: "One of the caller's saved views: its filters apply; filters given here replace the view's of the same name" })),
});

export const ShortPathParams = Type.Object({
  shortPath: Type.String({ description: '6-character code, or the URL-encoded namespaced path prefix%2Fslug' }),
});

export const CreateShortBody = Type.Object({ long: Type.String({ description: 'Destination URL encoded as Base64' }) });
export const CreateShortResponse = Type.Object({
  shortUrl: Type.String({ description: 'The slug' }),
  url: Url('Full clickable URL'),
});

/** B's create accepts the destination plain (`url`) or as Base64 (`long`), with A's optional fields. */
export const CreateLinkBodyB = Type.Object({
  url: Type.Optional(Url('Destination URL')),
  long: Type.Optional(Type.String({ description: 'Destination URL encoded as Base64 (instead of url)' })),
  customSlug: CreateLinkBodyA.properties.customSlug,
  expiresAt: CreateLinkBodyA.properties.expiresAt,
  maxClicks: CreateLinkBodyA.properties.maxClicks,
  activeFrom: CreateLinkBodyA.properties.activeFrom,
  blockedCountries: CreateLinkBodyA.properties.blockedCountries,
  domain: CreateLinkBodyA.properties.domain,
  utmTemplateId: CreateLinkBodyA.properties.utmTemplateId,
  appLinks: CreateLinkBodyA.properties.appLinks,
});

export const UpdateLinkBody = Type.Object(
  {
    url: Type.Optional(Url('New destination')),
    long: Type.Optional(Type.String({ description: 'New destination as Base64 (Description B style)' })),
    expiresAt: Type.Optional(Nullable(DateTime('New expiry; null removes it'))),
    maxClicks: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: MAX_INTEGER, description: 'New click cap; null removes it' }))),
    activeFrom: Type.Optional(Nullable(DateTime('New activation time; null removes it'))),
    blockedCountries: Type.Optional(Nullable(BlockedCountries)),
    appLinks: Type.Optional(Nullable(AppLinksInput)),
  },
  // Unknown fields are dropped (as MCP's schema drops them), so an update naming none of these changes nothing
  // and is refused like an empty one, rather than answering 200 for a typo.
  { minProperties: 1, additionalProperties: false },
);
