import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../http/access.js';
import { errorResponses } from '../http/schemas.js';
import { LINK_CREATE_ERRORS, registerLinkCrud } from './crud-routes.js';
import type { LinkPresenter } from './presenters.js';
import { CreatedLinkA, CreateLinkBodyA, LinkDetailsA } from './schemas.js';
import type { LinksService } from './service.js';

const tags = ['links (A)'];
const config = { surface: 'A', access: { auth: 'required' } } as const;

/** Description A: /api/v1/links (create here; list, read, change and delete in crud-routes.ts). */
export const linkRoutesA =
  (links: LinksService, present: LinkPresenter): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/v1/links',
      { config: { ...config, errors: LINK_CREATE_ERRORS }, schema: { tags, operationId: 'createLinkA', summary: 'Create a short link', body: CreateLinkBodyA, response: { 201: CreatedLinkA, ...errorResponses(400, 409) } } },
      async (request, reply) => {
        const link = await links.create(callerOf(request), request.body);
        return reply.status(201).send(present.createdA(link));
      },
    );

    registerLinkCrud(app, links, { base: '/api/v1/links', surface: 'A', tags, One: LinkDetailsA, present: (l) => present.detailsA(l) });
  };
