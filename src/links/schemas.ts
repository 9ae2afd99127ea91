import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, Pagination, StringEnum } from '../schema/shapes.js';
import { named } from '../schema/names.js';
import { AppLinksOutput } from '../web2app/app-links.js';
import { withBase64 } from './base64-destination.js';
import { LinkChanges, LinkInput, SocialPreview, Url } from './input.js';
import { Rules, Variants } from './routing.js';
import { LINK_SOURCES } from './link.js';


/** Where a link came from and its app targets, on every description's link. */
const originFields = {
  source: StringEnum(LINK_SOURCES, { description: 'Where the link was made: api (a key), mcp (an AI assistant), cli (the operator) or dashboard' }),
  clientName: Nullable(Type.String({ description: 'For links made over MCP: the client that made it (its initialize clientInfo.name)' })),
  appLinks: AppLinksOutput,
  rules: Nullable(Rules),
  variants: Nullable(Variants),
  passwordProtected: Type.Boolean({ description: 'Whether visitors must enter a password (the password itself is never shown)' }),
  expiredUrl: Nullable(Url('Where an expired or used-up link sends visitors; null: its 410 page')),
  socialPreview: Nullable(SocialPreview),
  disabledReason: Nullable(Type.String({ description: "Why the server's operator disabled the link (visitors get a page saying so; it cannot be changed); null while it works" })),
  title: Nullable(Type.String({ description: 'The name the link was given; imports bring it from the source' })),
  importedFrom: Nullable(Type.String({ description: 'For an imported link: its short URL at the shortener it came from (it keeps answering where its domain moved to Snip)' })),
  importedClicks: Type.Integer({ minimum: 0, description: 'For an imported link: clicks the source had counted, kept apart from the clicks Snip counted' }),
};

/** Description A's create takes the link input as it is (src/links/input.ts). */
export const CreateLinkBodyA = LinkInput;

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
  Type.Object({
    limit: Type.Integer(),
    offset: Type.Integer(),
    hasMore: Type.Boolean({ description: 'Whether a next page has items: ask again with offset + limit' }),
    total: Type.Optional(Type.Integer({ description: 'How many links the filters keep, on every page together (the link lists)' })),
  }),
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

/** B's create accepts the destination plain (`url`) or as Base64 (`long`), with every option of A's. */
export const CreateLinkBodyB = withBase64(LinkInput, 'Destination URL encoded as Base64 (instead of url)');

/** A change, on either description: B's Base64 `long` is accepted on A's path too. */
export const UpdateLinkBody = withBase64(LinkChanges, 'New destination as Base64 (Description B style)');
