import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../http/access.js';
import { errorResponses, SuccessMessage } from '../http/schemas.js';
import type { LinkPresenter } from './presenters.js';
import {
  CreatedLinkA, CreateLinkBodyA, LinkDetailsA, LinkListA, ListQuery, ShortPathParams, UpdateLinkBody,
} from './schemas.js';
import type { LinksService } from './service.js';
import { destinationOf } from './base64-destination.js';

const tags = ['links (A)'];
const config = { surface: 'A', access: { auth: 'required' } } as const;

/** Description A: /api/v1/links. */
export const linkRoutesA =
  (links: LinksService, present: LinkPresenter): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/v1/links',
      { config, schema: { tags, summary: 'Create a short link', body: CreateLinkBodyA, response: { 201: CreatedLinkA, ...errorResponses(400, 409) } } },
      async (request, reply) => {
        const link = await links.create(callerOf(request), request.body);
        return reply.status(201).send(present.createdA(link));
      },
    );

    app.get(
      '/api/v1/links',
      { config, schema: { tags, summary: "List the caller's links", querystring: ListQuery, response: { 200: LinkListA, ...errorResponses(400) } } },
      async (request) => {
        const page = await links.list(callerOf(request), request.query);
        const { limit, offset, hasMore } = page;
        return { links: page.links.map((l) => present.detailsA(l)), pagination: { limit, offset, hasMore } };
      },
    );

    app.get(
      '/api/v1/links/:shortPath',
      { config, schema: { tags, summary: 'Link details', params: ShortPathParams, response: { 200: LinkDetailsA, ...errorResponses(404) } } },
      async (request) => present.detailsA(await links.get(callerOf(request), request.params.shortPath)),
    );

    app.patch(
      '/api/v1/links/:shortPath',
      {
        config,
        schema: { tags, summary: 'Change destination, expiry, click cap or activation', params: ShortPathParams, body: UpdateLinkBody, response: { 200: LinkDetailsA, ...errorResponses(400, 404) } },
      },
      async (request) => {
        const input = { ...request.body, url: destinationOf(request.body) };
        return present.detailsA(await links.update(callerOf(request), request.params.shortPath, input));
      },
    );

    app.delete(
      '/api/v1/links/:shortPath',
      { config, schema: { tags, summary: 'Delete a link permanently', params: ShortPathParams, response: { 200: SuccessMessage, ...errorResponses(404) } } },
      async (request) => {
        await links.delete(callerOf(request), request.params.shortPath);
        return { success: true, message: 'Link deleted' };
      },
    );
  };
