import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bind, callerOf } from '../http/access.js';
import { errorResponses, SuccessMessage } from '../schema/shapes.js';
import { VIEW_OPERATIONS as ops } from './operations.js';
import { CreateSavedViewBody, SavedViewList, SavedViewObject, SavedViewParams, UpdateSavedViewBody } from './schemas.js';
import type { SavedViewsService } from './service.js';

const SURFACES = [
  { surface: 'A', base: '/api/v1/views' },
  { surface: 'B', base: '/api/views' },
] as const;

/** Saved views over Description A (/api/v1/views) and B (/api/views): the same shapes on both. */
export const savedViewRoutes =
  (views: SavedViewsService): FastifyPluginAsyncTypebox =>
  async (app) => {
    for (const { surface, base } of SURFACES) {
      const tags = [`saved views (${surface})`];

      app.get(base, { config: bind(ops.list, surface), schema: { tags, summary: "The caller's saved views, oldest first", description: "Lists the caller's saved views: filters of the link list (folder, tag, domain, search) kept under a name, oldest first.", response: { 200: SavedViewList } } }, async (request) =>
        views.list(callerOf(request)),
      );

      app.post(
        base,
        {
          config: bind(ops.create, surface),
          schema: {
            tags,
            summary: 'Save a link-list filter under a name; list by it with ?view=<id> on the link list',
            description: "Saves a filter of the link list under a name; the link list applies it with ?view=<id>, and filters given beside it replace the view's own.",
            body: CreateSavedViewBody,
            response: { 201: SavedViewObject, ...errorResponses(400, 404, 409) },
          },
        },
        async (request, reply) => reply.status(201).send(await views.create(callerOf(request), request.body)),
      );

      app.patch(
        `${base}/:id`,
        {
          config: bind(ops.update, surface),
          schema: {
            tags,
            summary: 'Rename a view or replace its filters; only the fields sent change',
            description: "Renames one of the caller's saved views, or replaces its filters as a whole.",
            params: SavedViewParams,
            body: UpdateSavedViewBody,
            response: { 200: SavedViewObject, ...errorResponses(400, 404, 409) },
          },
        },
        async (request) => views.update(callerOf(request), request.params.id, request.body),
      );

      app.delete(
        `${base}/:id`,
        { config: bind(ops.delete, surface), schema: { tags, summary: 'Delete a saved view; its links are untouched', description: "Deletes one of the caller's saved views; no link changes.", params: SavedViewParams, response: { 200: SuccessMessage, ...errorResponses(404) } } },
        async (request) => {
          await views.delete(callerOf(request), request.params.id);
          return { success: true, message: 'Saved view deleted' };
        },
      );
    }
  };
