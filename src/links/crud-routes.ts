import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { ErrorCode } from '../errors.js';
import { callerOf } from '../http/access.js';
import { errorResponses, SuccessMessage } from '../http/schemas.js';
import { destinationOf } from './base64-destination.js';
import type { Link } from './link.js';
import { ListQuery, PaginationOut, ShortPathParams, UpdateLinkBody } from './schemas.js';
import type { LinksService } from './service.js';

/** A link named by the caller: unknown, or another account's. */
const LINK_LOOKUP_ERRORS = ['NOT_FOUND', 'ACCESS_DENIED'] as const satisfies ErrorCode[];

/** The link rules a create or change may break beyond its schema (src/links/rules.ts, drafts.ts, creator.ts). */
export const LINK_RULE_ERRORS = [
  'INVALID_URL',
  'INVALID_SLUG',
  'EXPIRES_AT_IN_PAST',
  'ACTIVE_FROM_IN_PAST',
  'EXPIRES_BEFORE_ACTIVE',
] as const satisfies ErrorCode[];

/** What creating a link may answer beyond its schema and its access. */
export const LINK_CREATE_ERRORS = [
  ...LINK_RULE_ERRORS,
  'MISSING_URL',
  'PREMIUM_REQUIRED',
  'NAMESPACE_REQUIRED',
  'SLUG_TAKEN',
  'INVALID_UTM_TEMPLATE_ID',
  'TEMPLATE_NOT_FOUND',
  'CODE_SPACE_BUSY',
] as const satisfies ErrorCode[];

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
  const config = { surface: options.surface, access: { auth: 'required' } } as const;
  const own = { ...config, errors: LINK_LOOKUP_ERRORS };
  const List = Type.Object({ links: Type.Array(One), pagination: PaginationOut });

  app.get(
    base,
    { config: { ...config, errors: ['VIEW_NOT_FOUND'] }, schema: { tags, operationId: `listLinks${options.surface}`, summary: "List the caller's links, newest first; optionally by folder, tag, domain, search or saved view", querystring: ListQuery, response: { 200: List, ...errorResponses(400, 404) } } },
    async (request) => {
      const page = await links.list(callerOf(request), request.query);
      const { limit, offset, hasMore } = page;
      return { links: page.links.map(present), pagination: { limit, offset, hasMore } };
    },
  );

  app.get(
    `${base}/:shortPath`,
    { config: own, schema: { tags, operationId: `getLink${options.surface}`, summary: 'One link, by code or URL-encoded prefix%2Fslug', params: ShortPathParams, response: { 200: One, ...errorResponses(404) } } },
    async (request) => present(await links.get(callerOf(request), request.params.shortPath)),
  );

  app.patch(
    `${base}/:shortPath`,
    {
      config: { ...config, errors: [...LINK_LOOKUP_ERRORS, ...LINK_RULE_ERRORS] },
      schema: { tags, operationId: `updateLink${options.surface}`, summary: 'Change destination, expiry, click cap or activation', params: ShortPathParams, body: UpdateLinkBody, response: { 200: One, ...errorResponses(400, 404) } },
    },
    async (request) => {
      const input = { ...request.body, url: destinationOf(request.body) };
      return present(await links.update(callerOf(request), request.params.shortPath, input));
    },
  );

  app.delete(
    `${base}/:shortPath`,
    { config: own, schema: { tags, operationId: `deleteLink${options.surface}`, summary: 'Delete a link permanently', params: ShortPathParams, response: { 200: SuccessMessage, ...errorResponses(404) } } },
    async (request) => {
      await links.delete(callerOf(request), request.params.shortPath);
      return { success: true, message: 'Link deleted' };
    },
  );
}
