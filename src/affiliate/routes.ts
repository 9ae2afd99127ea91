import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bind, callerOf } from '../http/access.js';
import { errorResponses } from '../http/schemas.js';
import { AFFILIATE_OPERATIONS as ops } from './operations.js';
import {
  ConversionBody, ConversionObject, CreateProgramBody, DiscoverList, DiscoverQuery, PartnerList, PartnershipList, PartnershipObject, ProgramList,
  ProgramObject, ProgramParams, StatsObject, UpdateProgramBody,
} from './schemas.js';
import type { AffiliateService } from './service.js';

const SURFACES = [
  { surface: 'A', base: '/api/v1/affiliate' },
  { surface: 'B', base: '/api/affiliate' },
] as const;

/**
 * Affiliate programs over Description A (/api/v1/affiliate/…) and B (/api/affiliate/…): the spec names only the
 * MCP tools, so both descriptions get the same paths and shapes under their own prefix.
 */
export const affiliateRoutes =
  (affiliate: AffiliateService): FastifyPluginAsyncTypebox =>
  async (app) => {
    for (const { surface, base } of SURFACES) {
      const tags = [`affiliate (${surface})`];
      app.post(
        `${base}/programs`,
        { config: bind(ops.create, surface), schema: { tags, summary: 'Create an affiliate program (Builder and above)', body: CreateProgramBody, response: { 201: ProgramObject, ...errorResponses(400, 403) } } },
        async (request, reply) => reply.status(201).send(await affiliate.create(callerOf(request), request.body)),
      );
      app.get(
        `${base}/programs`,
        { config: bind(ops.list, surface), schema: { tags, summary: "The caller's own programs", response: { 200: ProgramList } } },
        async (request) => affiliate.listOwn(callerOf(request)),
      );
      app.patch(
        `${base}/programs/:programId`,
        {
          config: bind(ops.update, surface),
          schema: { tags, summary: 'Rename, open or close a program, or make it public or private', params: ProgramParams, body: UpdateProgramBody, response: { 200: ProgramObject, ...errorResponses(400, 404) } },
        },
        async (request) => affiliate.update(callerOf(request), request.params.programId, request.body),
      );
      app.get(
        `${base}/discover`,
        { config: bind(ops.discover, surface), schema: { tags, summary: "Public, active programs of other accounts, newest first", querystring: DiscoverQuery, response: { 200: DiscoverList } } },
        async (request) => affiliate.discover(callerOf(request), request.query),
      );
      app.post(
        `${base}/programs/:programId/join`,
        {
          config: bind(ops.join, surface),
          schema: { tags, summary: 'Join a program: answers the partnership and its partner link (Pro and above)', params: ProgramParams, response: { 201: PartnershipObject, ...errorResponses(403, 404, 409, 429) } },
        },
        async (request, reply) => reply.status(201).send(await affiliate.join(callerOf(request), request.params.programId)),
      );
      app.get(
        `${base}/programs/:programId/partners`,
        { config: bind(ops.partners, surface), schema: { tags, summary: "The partners of one of the caller's programs", params: ProgramParams, response: { 200: PartnerList, ...errorResponses(404) } } },
        async (request) => affiliate.partners(callerOf(request), request.params.programId),
      );
      app.get(
        `${base}/programs/:programId/stats`,
        {
          config: bind(ops.stats, surface),
          schema: { tags, summary: "Clicks, conversions and earnings: the program's for its owner, the partnership's for a partner", params: ProgramParams, response: { 200: StatsObject, ...errorResponses(404) } },
        },
        async (request) => affiliate.stats(callerOf(request), request.params.programId),
      );
      app.get(
        `${base}/partnerships`,
        { config: bind(ops.partnerships, surface), schema: { tags, summary: 'The programs the caller joined, with its partner links and earnings', response: { 200: PartnershipList } } },
        async (request) => affiliate.listPartnerships(callerOf(request)),
      );
      app.post(
        `${base}/conversions`,
        {
          config: bind(ops.convert, surface),
          schema: { tags, summary: "Report a conversion for a click id (the program owner's key); once per click id", body: ConversionBody, response: { 201: ConversionObject, ...errorResponses(400, 404, 409) } },
        },
        async (request, reply) => reply.status(201).send(await affiliate.convert(callerOf(request), request.body)),
      );
    }
  };
