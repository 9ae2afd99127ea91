import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bind, callerOf } from '../http/access.js';
import { errorResponses } from '../schema/shapes.js';
import { TAG_OPERATIONS as ops } from './operations.js';
import { AddTagBody, LinkTagOneParams, LinkTagParams, LinkTagsResult, TagList } from './schemas.js';
import type { TagsService } from './service.js';

const SURFACES = [
  { surface: 'A', links: '/api/v1/links', tags: '/api/v1/tags' },
  { surface: 'B', links: '/api/links', tags: '/api/tags' },
] as const;

/** Tags over Description A (/api/v1/links/{shortPath}/tags, /api/v1/tags) and B (/api/links/{shortPath}/tags, /api/tags): the same shapes on both. */
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
    }
  };
