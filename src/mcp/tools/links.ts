import { Type } from '@sinclair/typebox';
import { args, tool } from '../tool.js';
import { ANALYTICS_OPERATIONS } from '../../analytics/operations.js';
import { LINK_OPERATIONS as ops } from '../../links/operations.js';
import { SuccessMessage } from '../../schema/shapes.js';
import { renamed } from '../../schema/rename.js';
import { itemReader } from '../../links/drafts.js';
import { LinkChanges, LinkInput } from '../../links/input.js';
import { ResolveQuery, Resolved } from '../../links/resolve.js';
import { LinkStats } from '../../analytics/schemas.js';
import { CreatedLinkA, LinkDetailsA, PaginationOut } from '../../links/schemas.js';

/** The link input (src/links/input.ts) as MCP names it: a custom slug is `slug`. */
const slugged = renamed(LinkInput, { customSlug: 'slug' });
const readSluggedItem = itemReader<Record<string, unknown>>(slugged.schema, (item) => slugged.decode(item));

/** A page of links: Description A's list answer (GET /api/v1/links), which list_agentlink_links answers too. */
export const LinkPageA = Type.Object({ links: Type.Array(LinkDetailsA), pagination: PaginationOut });

/** bulk_shorten's answer: per item, A's created link or the item's own refusal (REST's bulk counts differently). */
const BulkAnswer = Type.Object({
  total: Type.Integer(),
  succeeded: Type.Integer(),
  results: Type.Array(
    Type.Object({
      success: Type.Boolean(),
      url: Type.String({ description: 'The item’s destination, as given' }),
      link: Type.Optional(CreatedLinkA),
      error: Type.Optional(Type.String()),
      code: Type.Optional(Type.String({ description: 'Machine-readable reason, with error' })),
    }),
  ),
});

export const linkTools = [
  tool({
    name: 'shorten_url',
    title: 'Shorten a URL',
    scope: 'links:write',
    description: 'Create a short link. Optional: a custom slug (Pro, under your namespace), expiry, click cap, activation time, custom domain, UTM template, app targets for phones (Pro).',
    operation: ops.create,
    input: slugged.properties,
    output: LinkDetailsA,
    run: async (input, { core, caller }) => core.present.detailsA(await core.links.create(caller, slugged.decode(input))),
  }),
  tool({
    name: 'list_links',
    title: 'List links',
    scope: 'links:read',
    description: 'List your short links, newest first, a page at a time; filter by folder, tag, domain, text or a saved view.',
    operation: ops.list,
    input: {
      limit: args.limit,
      offset: args.offset,
      folderId: Type.Optional(Type.String({ description: 'Only links in this folder; "none" for links in no folder' })),
      tag: Type.Optional(Type.String({ description: 'Only links with this tag' })),
      domain: Type.Optional(Type.String({ description: 'Only links on this custom domain' })),
      search: Type.Optional(Type.String({ description: 'Substring of the destination, code or slug' })),
      view: Type.Optional(Type.String({ description: 'A saved view id whose filters apply' })),
    },
    output: LinkPageA,
    run: async ({ limit, offset, ...filters }, { core, caller }) => {
      const page = await core.links.list(caller, { limit: limit ?? 20, offset: offset ?? 0, ...filters });
      return { links: page.links.map((l) => core.present.detailsA(l)), pagination: { limit: page.limit, offset: page.offset, hasMore: page.hasMore, total: page.total } };
    },
  }),
  tool({
    name: 'get_link',
    title: 'Get a link',
    scope: 'links:read',
    description: 'Details of one of your short links: destination, clicks, expiry, click cap, folder, domain.',
    operation: ops.get,
    input: { shortPath: args.shortPath },
    output: LinkDetailsA,
    run: async ({ shortPath }, { core, caller }) => core.present.detailsA(await core.links.get(caller, shortPath)),
  }),
  tool({
    name: 'update_link',
    title: 'Update a link',
    scope: 'links:write',
    description: 'Change a link: destination, expiry, click cap, activation time or blocked countries. Only the fields given change; null clears one.',
    operation: ops.update,
    input: { shortPath: args.shortPath, ...LinkChanges.properties },
    output: LinkDetailsA,
    run: async ({ shortPath, ...input }, { core, caller }) => core.present.detailsA(await core.links.update(caller, shortPath, input)),
  }),
  tool({
    name: 'resolve_link',
    title: 'Where would a visitor go',
    scope: 'links:read',
    description: "Where a visitor of one of your links would be sent, given its user agent, country, language, query string and address: by the link's country block, password, rules and A/B split. Counts nothing; use it to test rules before they go live.",
    operation: ops.resolve,
    input: { shortPath: args.shortPath, ...ResolveQuery.properties },
    output: Resolved,
    run: async ({ shortPath, ...visitor }, { core, caller }) => core.links.resolve(caller, shortPath, visitor),
  }),
  tool({
    name: 'delete_link',
    title: 'Delete a link',
    scope: 'links:write',
    description: 'Delete a short link permanently (it stops redirecting; this cannot be undone).',
    operation: ops.delete,
    input: { shortPath: args.shortPath },
    output: SuccessMessage,
    run: async ({ shortPath }, { core, caller }) => {
      const link = await core.links.delete(caller, shortPath);
      return { success: true, message: `Deleted ${core.present.shortUrl(link)}` };
    },
  }),
  tool({
    name: 'bulk_shorten',
    title: 'Shorten URLs in bulk',
    scope: 'links:write',
    description: 'Create up to 50 short links at once (Builder plan and above). Each item succeeds or fails on its own.',
    operation: ops.bulkCreateA,
    input: {
      links: Type.Array(
        // Each item is checked on its own against shorten_url's arguments (readSluggedItem), as REST's bulk checks
        // its items: one bad item fails alone (spec 2.6) rather than the whole call.
        Type.Unsafe<Record<string, unknown>>({ type: 'object', description: 'One link: the arguments of shorten_url (url, and optionally slug, expiresAt, maxClicks, ...)' }),
        { minItems: 1, maxItems: 50, description: '1-50 links to create' },
      ),
    },
    output: BulkAnswer,
    run: async ({ links }, { core, caller }) => {
      const outcomes = await core.links.createMany(caller, links, { maxItems: 50, readItem: readSluggedItem });
      const results = outcomes.map((o) =>
        'link' in o ? { success: true, url: o.url, link: core.present.createdA(o.link) } : { success: false, url: o.url, error: o.error.message, code: o.error.code },
      );
      return { total: results.length, succeeded: results.filter((r) => r.success).length, results };
    },
  }),
  tool({
    name: 'get_recent_clicks',
    title: 'Recent clicks on a link',
    scope: 'analytics:read',
    description: 'The most recent clicks on one of your links (up to 100): time, place, browser, OS, device, referrer.',
    operation: ANALYTICS_OPERATIONS.linkStats,
    input: { shortPath: args.shortPath, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'How many, 1-100 (default 20)' })) },
    // REST A's link statistics (GET /api/v1/links/{shortPath}/stats), the clicks cut to the limit.
    output: LinkStats,
    run: async ({ shortPath, limit }, { core, caller }) => {
      const stats = await core.analytics.linkStats(caller, shortPath);
      return { ...stats, clicks: stats.clicks.slice(0, limit ?? 20) };
    },
  }),
];
