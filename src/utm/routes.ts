import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../http/access.js';
import { errorResponses, SuccessMessage } from '../http/schemas.js';
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
      const config = { surface, access: { auth: 'required' } } as const;
      const tags = [`utm templates (${surface})`];

      app.get(base, { config, schema: { tags, operationId: `listUtmTemplates${surface}`, summary: "The caller's UTM templates, oldest first", response: { 200: UtmTemplateList } } }, async (request) =>
        templates.list(callerOf(request)),
      );

      app.post(
        base,
        {
          config: { ...config, errors: ['MISSING_NAME', 'INVALID_NAME', 'MISSING_UTM_FIELDS', 'INVALID_UTM_SOURCE', 'INVALID_UTM_MEDIUM', 'INVALID_UTM_CAMPAIGN', 'INVALID_UTM_TERM', 'INVALID_UTM_CONTENT', 'TEMPLATE_EXISTS'] },
          schema: { tags, operationId: `createUtmTemplate${surface}`, summary: 'Create a UTM template', body: CreateUtmTemplateBody, response: { 201: UtmTemplateObject, ...errorResponses(400, 409) } },
        },
        async (request, reply) => reply.status(201).send(await templates.create(callerOf(request), request.body)),
      );

      app.delete(
        `${base}/:id`,
        {
          config: { ...config, errors: ['TEMPLATE_NOT_FOUND'] },
          schema: {
            tags,
            operationId: `deleteUtmTemplate${surface}`,
            summary: 'Delete a UTM template; links made with it keep their destinations',
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
