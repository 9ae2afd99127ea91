import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../http/access.js';
import { errorResponses, SuccessMessage } from '../http/schemas.js';
import { decodeBase64Destination, destinationOf } from './base64-destination.js';
import type { LinkPresenter } from './presenters.js';
import {
  CreateLinkBodyB, CreateShortBody, CreateShortResponse, LinkB, LinkListB, ListQuery, ShortPathParams, UpdateLinkBody,
} from './schemas.js';
import type { LinksService } from './service.js';

const tags = ['links (B)'];
const config = { surface: 'B', access: { auth: 'required' } } as const;

/** Description B: /api/createShort and the /api/links group. */
export const linkRoutesB =
  (links: LinksService, present: LinkPresenter): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/api/createShort',
      {
        config,
        schema: { tags, summary: 'Create a short link from a Base64 destination', body: CreateShortBody, response: { 201: CreateShortResponse, ...errorResponses(400) } },
      },
      async (request, reply) => {
        const link = await links.create(callerOf(request), { url: decodeBase64Destination(request.body.long) });
        return reply.status(201).send({ shortUrl: present.slugOf(link), url: present.shortUrl(link) });
      },
    );

    app.post(
      '/api/links',
      { config, schema: { tags, summary: 'Create a short link', body: CreateLinkBodyB, response: { 201: LinkB, ...errorResponses(400, 409) } } },
      async (request, reply) => {
        const { url: _url, long: _long, ...options } = request.body;
        const link = await links.create(callerOf(request), { ...options, url: destinationOf(request.body) });
        return reply.status(201).send(present.linkB(link));
      },
    );

    app.get(
      '/api/links',
      { config, schema: { tags, summary: "List the caller's links", querystring: ListQuery, response: { 200: LinkListB, ...errorResponses(400) } } },
      async (request) => {
        const page = await links.list(callerOf(request), request.query);
        const { limit, offset, hasMore } = page;
        return { links: page.links.map((l) => present.linkB(l)), pagination: { limit, offset, hasMore } };
      },
    );

    app.get(
      '/api/links/:shortPath',
      { config, schema: { tags, summary: 'One link', params: ShortPathParams, response: { 200: LinkB, ...errorResponses(404) } } },
      async (request) => present.linkB(await links.get(callerOf(request), request.params.shortPath)),
    );

    app.patch(
      '/api/links/:shortPath',
      {
        config,
        schema: { tags, summary: 'Change destination, expiry, click cap or activation', params: ShortPathParams, body: UpdateLinkBody, response: { 200: LinkB, ...errorResponses(400, 404) } },
      },
      async (request) => {
        const input = { ...request.body, url: destinationOf(request.body) };
        return present.linkB(await links.update(callerOf(request), request.params.shortPath, input));
      },
    );

    app.delete(
      '/api/links/:shortPath',
      { config, schema: { tags, summary: 'Delete a link permanently', params: ShortPathParams, response: { 200: SuccessMessage, ...errorResponses(404) } } },
      async (request) => {
        await links.delete(callerOf(request), request.params.shortPath);
        return { success: true, message: 'Link deleted' };
      },
    );
  };
