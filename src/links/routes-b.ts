import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bind, callerOf } from '../http/access.js';
import { errorResponses } from '../schema/shapes.js';
import { registerLinkCrud } from './crud-routes.js';
import { LINK_OPERATIONS as ops } from './operations.js';
import { decodeBase64Destination, destinationOf } from './base64-destination.js';
import type { LinkPresenter } from './presenters.js';
import { CreateLinkBodyB, CreateShortBody, CreateShortResponse, LinkB } from './schemas.js';
import type { LinksService } from './service.js';

const tags = ['links (B)'];

/** Description B: /api/createShort and the /api/links group (list, read, change, delete in crud-routes.ts). */
export const linkRoutesB =
  (links: LinksService, present: LinkPresenter): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/createShort',
      {
        // The same operation as POST /api/links, under B's own name for this form of it.
        config: bind(ops.create, 'B', { errors: ['INVALID_BASE64'], operationId: 'createShortB' }),
        schema: { tags, summary: 'Create a short link from a Base64 destination', description: 'Makes a short link with a random code to a destination given as Base64, and answers only its slug and short URL. POST /api/links takes the same and every option of a link.', body: CreateShortBody, response: { 201: CreateShortResponse, ...errorResponses(400) } },
      },
      async (request, reply) => {
        const link = await links.create(callerOf(request), { url: decodeBase64Destination(request.body.long) });
        return reply.status(201).send({ shortUrl: present.slugOf(link), url: present.shortUrl(link) });
      },
    );

    app.post(
      '/api/links',
      { config: bind(ops.create, 'B', { errors: ['INVALID_BASE64'] }), schema: { tags, summary: 'Create a short link', description: "Makes a short link to a destination, given plain (url) or as Base64 (long), with the same options as Description A: a custom slug under the caller's namespace (Pro and above), expiry, click cap, activation time, blocked countries, custom domain, UTM template and app targets.", body: CreateLinkBodyB, response: { 201: LinkB, ...errorResponses(400, 409) } } },
      async (request, reply) => {
        const { url: _url, long: _long, ...options } = request.body;
        const link = await links.create(callerOf(request), { ...options, url: destinationOf(request.body) });
        return reply.status(201).send(present.linkB(link));
      },
    );

    registerLinkCrud(app, links, { base: '/api/links', surface: 'B', tags, One: LinkB, present: (l) => present.linkB(l) });
  };
