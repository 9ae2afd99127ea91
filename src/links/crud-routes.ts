import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { bind, callerOf } from '../http/access.js';
import { errorResponses, SuccessMessage } from '../schema/shapes.js';
import { destinationOf } from './base64-destination.js';
import type { Link } from './link.js';
import { LINK_OPERATIONS as ops } from './operations.js';
import { ListQuery, PaginationOut, ShortPathParams, UpdateLinkBody } from './schemas.js';
import type { LinksService } from './service.js';

type App = Parameters<FastifyPluginAsyncTypebox>[0];

/**
 * List, read, change and delete, the same over both descriptions; only the base path and the shape a link is
 * presented in differ (A's details or B's link object).
 */
export function registerLinkCrud<One extends TSchema>(
  app: App,
  links: LinksService,
  options: { base: string; surface: 'A' | 'B'; tags: string[]; One: One; present: (link: Link) => Static<One> },
): void {
  const { base, tags, present } = options;
  // Seen as a plain schema inside, since a route's reply type cannot be resolved through a generic one;
  // `present` is checked against One by the signature above.
  const One: TSchema = options.One;
  const { surface } = options;
  const List = Type.Object({ links: Type.Array(One), pagination: PaginationOut });

  app.get(
    base,
    { config: bind(ops.list, surface), schema: { tags, summary: "List the caller's links, newest first; optionally by folder, tag, domain, search or saved view", description: "Lists the caller's links a page at a time, newest first. Filters narrow the list: a folder, a tag, a custom domain, text in the destination or slug, or a saved view's filters.", querystring: ListQuery, response: { 200: List, ...errorResponses(400, 404) } } },
    async (request) => {
      const page = await links.list(callerOf(request), request.query);
      const { limit, offset, hasMore, total } = page;
      return { links: page.links.map(present), pagination: { limit, offset, hasMore, total } };
    },
  );

  app.get(
    `${base}/:shortPath`,
    { config: bind(ops.get, surface), schema: { tags, summary: 'One link, by code or URL-encoded prefix%2Fslug', description: "Answers one of the caller's links with its click total, folder, tags and settings. A namespaced link is named by its path with the slash encoded: prefix%2Fslug.", params: ShortPathParams, response: { 200: One, ...errorResponses(404) } } },
    async (request) => present(await links.get(callerOf(request), request.params.shortPath)),
  );

  app.patch(
    `${base}/:shortPath`,
    {
      config: bind(ops.update, surface, surface === 'B' ? { errors: ['INVALID_BASE64'] } : {}),
      schema: { tags, summary: 'Change destination, expiry, click cap or activation', description: "Changes one of the caller's links; only the fields sent change, and null removes an expiry, a cap or an activation time. The short URL stays the same; its next visitors go where it now points.", params: ShortPathParams, body: UpdateLinkBody, response: { 200: One, ...errorResponses(400, 404, 409) } },
    },
    async (request) => {
      const input = { ...request.body, url: destinationOf(request.body) };
      return present(await links.update(callerOf(request), request.params.shortPath, input));
    },
  );

  app.delete(
    `${base}/:shortPath`,
    { config: bind(ops.delete, surface), schema: { tags, summary: 'Delete a link permanently', description: "Deletes one of the caller's links for good: its short URL stops redirecting, and webhooks subscribed to link.deleted are told.", params: ShortPathParams, response: { 200: SuccessMessage, ...errorResponses(404) } } },
    async (request) => {
      await links.delete(callerOf(request), request.params.shortPath);
      return { success: true, message: 'Link deleted' };
    },
  );
}
