import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bind, callerOf } from '../http/access.js';
import { errorResponses } from '../schema/shapes.js';
import { TAG_OPERATIONS as ops } from './operations.js';
import { AddTagBody, DeletedTag, LinkTagOneParams, LinkTagParams, LinkTagsResult, RenamedTag, RenameTagBody, TagList, TagParams } from './schemas.js';
import type { TagsService } from './service.js';

const SURFACES = [
  { surface: 'A', links: '/api/v1/links', tags: '/api/v1/tags' },
  { surface: 'B', links: '/api/links', tags: '/api/tags' },
] as const;

/**
 * Tags over Description A (/api/v1/links/{shortPath}/tags, /api/v1/tags, /api/v1/tags/{tag}) and B (/api/links/{shortPath}/tags,
 * /api/tags, /api/tags/{tag}): the same shapes on both.
 */
export const tagRoutes =
  (tags: TagsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    for (const s of SURFACES) {
      const groups = [`tags (${s.surface})`];

      app.post(
        `${s.links}/:shortPath/tags`,
        {
          config: bind(ops.add, s.surface),
          schema: {
            tags: groups,
            summary: 'Tag a link (at most 20 tags); a tag it already has, in any case, changes nothing',
            description: "Adds a tag to one of the caller's links, as written; a tag the link has already, in any case, changes nothing. Tags are made by use: there is no list of tags to keep.",
            params: LinkTagParams,
            body: AddTagBody,
            response: { 200: LinkTagsResult, ...errorResponses(400, 403, 404) },
          },
        },
        async (request) => tags.add(callerOf(request), request.params.shortPath, request.body.tag),
      );

      app.delete(
        `${s.links}/:shortPath/tags/:tag`,
        {
          config: bind(ops.remove, s.surface),
          schema: {
            tags: groups,
            summary: 'Take a tag (any case) off a link',
            description: "Removes a tag from one of the caller's links, whatever its case; a tag no link carries any more is gone from the list of tags.",
            params: LinkTagOneParams,
            response: { 200: LinkTagsResult, ...errorResponses(400, 403, 404) },
          },
        },
        async (request) => tags.remove(callerOf(request), request.params.shortPath, request.params.tag),
      );

      app.get(
        s.tags,
        { config: bind(ops.list, s.surface), schema: { tags: groups, summary: "The caller's tags with the number of links carrying each", description: "Lists every tag on the caller's links with how many links carry it, to filter the link list by one.", response: { 200: TagList } } },
        async (request) => tags.list(callerOf(request)),
      );

      app.patch(
        `${s.tags}/:tag`,
        {
          config: bind(ops.rename, s.surface),
          schema: {
            tags: groups,
            summary: 'Rename a tag (any case) on every link carrying it',
            description:
              "Renames one of the caller's tags on all of their links at once; a new spelling of the same tag (sale to Sale) is a rename too. A name the caller already uses for another tag is 409 TAG_EXISTS.",
            params: TagParams,
            body: RenameTagBody,
            response: { 200: RenamedTag, ...errorResponses(400, 404, 409) },
          },
        },
        async (request) => tags.rename(callerOf(request), request.params.tag, request.body.name),
      );

      app.delete(
        `${s.tags}/:tag`,
        {
          config: bind(ops.delete, s.surface),
          schema: {
            tags: groups,
            summary: 'Delete a tag (any case) from every link carrying it',
            description: "Takes one of the caller's tags off all of their links at once and answers how many links carried it; the links themselves stay.",
            params: TagParams,
            response: { 200: DeletedTag, ...errorResponses(400, 404) },
          },
        },
        async (request) => tags.delete(callerOf(request), request.params.tag),
      );
    }
  };
