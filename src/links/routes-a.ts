import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bind, callerOf } from '../http/access.js';
import { errorResponses } from '../schema/shapes.js';
import { registerLinkCrud } from './crud-routes.js';
import { LINK_OPERATIONS as ops } from './operations.js';
import type { LinkPresenter } from './presenters.js';
import { CreatedLinkA, CreateLinkBodyA, LinkDetailsA, ShortPathParams } from './schemas.js';
import { ResolveQuery, Resolved } from './resolve.js';
import type { LinksService } from './service.js';

const tags = ['links (A)'];

/** Description A: /api/v1/links (create here; list, read, change and delete in crud-routes.ts). */
export const linkRoutesA =
  (links: LinksService, present: LinkPresenter): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/v1/links',
      { config: bind(ops.create, 'A'), schema: { tags, summary: 'Create a short link', description: "Makes a short link to a destination for the caller: a random 6-character code, or a custom slug under the caller's namespace (Pro and above). Optional: expiry, click cap, activation time, blocked countries, custom domain, UTM template and app targets.", body: CreateLinkBodyA, response: { 201: CreatedLinkA, ...errorResponses(400, 409) } } },
      async (request, reply) => {
        const link = await links.create(callerOf(request), request.body);
        return reply.status(201).send(present.createdA(link));
      },
    );

    app.get(
      '/api/v1/links/:shortPath/resolve',
      {
        config: bind(ops.resolve, 'A'),
        schema: { tags, summary: 'Where a visitor would go', description: "Answers where a visitor with this user agent, country, language, query and address would be sent by the link's country block, password, rules and A/B split, without counting anything: rules can be tried before they go live. A namespaced link is named prefix%2Fslug.", params: ShortPathParams, querystring: ResolveQuery, response: { 200: Resolved, ...errorResponses(404) } },
      },
      async (request) => links.resolve(callerOf(request), request.params.shortPath, request.query),
    );

    registerLinkCrud(app, links, { base: '/api/v1/links', surface: 'A', tags, One: LinkDetailsA, present: (l) => present.detailsA(l) });
  };
