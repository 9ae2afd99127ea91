import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bind, callerOf } from '../http/access.js';
import { errorResponses, SuccessMessage } from '../schema/shapes.js';
import { UTM_OPERATIONS as ops } from './operations.js';
import { CreateUtmTemplateBody, UtmTemplateList, UtmTemplateObject, UtmTemplateParams } from './schemas.js';
import type { UtmTemplatesService } from './service.js';

const SURFACES = [
  { surface: 'A', base: '/api/v1/utm-templates' },
  { surface: 'B', base: '/api/utm-templates' },
] as const;

/** UTM templates over Description A (/api/v1/utm-templates) and B (/api/utm-templates): the same shapes on both. */
export const utmTemplateRoutes =
  (templates: UtmTemplatesService): FastifyPluginAsyncTypebox =>
  async (app) => {
    for (const { surface, base } of SURFACES) {
      const tags = [`utm templates (${surface})`];

      app.get(base, { config: bind(ops.list, surface), schema: { tags, summary: "The caller's UTM templates, oldest first", description: "Lists the caller's UTM templates: named sets of utm_source, utm_medium, utm_campaign, utm_term and utm_content that a new link's destination can be given.", response: { 200: UtmTemplateList } } }, async (request) =>
        templates.list(callerOf(request)),
      );

      app.post(
        base,
        {
          config: bind(ops.create, surface),
          schema: { tags, summary: 'Create a UTM template', description: 'Saves a named set of utm_* values; a link created with its id (utmTemplateId) gets them on its destination. Names are unique in the account, ignoring case.', body: CreateUtmTemplateBody, response: { 201: UtmTemplateObject, ...errorResponses(400, 409) } },
        },
        async (request, reply) => reply.status(201).send(await templates.create(callerOf(request), request.body)),
      );

      app.delete(
        `${base}/:id`,
        {
          config: bind(ops.delete, surface),
          schema: {
            tags,
            summary: 'Delete a UTM template; links made with it keep their destinations',
            description: "Deletes one of the caller's UTM templates; links made with it keep the utm_* parameters it gave them.",
            params: UtmTemplateParams,
            response: { 200: SuccessMessage, ...errorResponses(404) },
          },
        },
        async (request) => {
          await templates.delete(callerOf(request), request.params.id);
          return { success: true, message: 'UTM template deleted' };
        },
      );
    }
  };
