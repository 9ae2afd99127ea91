import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bind, callerOf } from '../http/access.js';
import { errorResponses } from '../schema/shapes.js';
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
        { config: bind(ops.create, surface), schema: { tags, summary: 'Create an affiliate program (Builder and above)', description: 'Starts a program that pays partners per paid click (CPC) or per reported conversion (CPA) on a destination of the owner. The commission terms are fixed once the program exists.', body: CreateProgramBody, response: { 201: ProgramObject, ...errorResponses(400, 403) } } },
        async (request, reply) => reply.status(201).send(await affiliate.create(callerOf(request), request.body)),
      );
      app.get(
        `${base}/programs`,
        { config: bind(ops.list, surface), schema: { tags, summary: "The caller's own programs", description: 'Lists the programs the caller owns, each with its terms, status and number of partners.', response: { 200: ProgramList } } },
        async (request) => affiliate.listOwn(callerOf(request)),
      );
      app.patch(
        `${base}/programs/:programId`,
        {
          config: bind(ops.update, surface),
          schema: { tags, summary: 'Rename, open or close a program, or make it public or private', description: 'Changes a program the caller owns: its name, whether it takes new partners, and whether other accounts can discover it. The commission terms never change.', params: ProgramParams, body: UpdateProgramBody, response: { 200: ProgramObject, ...errorResponses(400, 404) } },
        },
        async (request) => affiliate.update(callerOf(request), request.params.programId, request.body),
      );
      app.get(
        `${base}/discover`,
        { config: bind(ops.discover, surface), schema: { tags, summary: "Public, active programs of other accounts, newest first", description: 'Lists the programs of other accounts that are public and open, a page at a time, for a partner looking for one to join.', querystring: DiscoverQuery, response: { 200: DiscoverList } } },
        async (request) => affiliate.discover(callerOf(request), request.query),
      );
      app.post(
        `${base}/programs/:programId/join`,
        {
          config: bind(ops.join, surface),
          schema: { tags, summary: 'Join a program: answers the partnership and its partner link (Pro and above)', description: "Makes the caller a partner of another account's program and gives it a partner link of its own to the program's destination, once per program.", params: ProgramParams, response: { 201: PartnershipObject, ...errorResponses(403, 404, 409, 429) } },
        },
        async (request, reply) => reply.status(201).send(await affiliate.join(callerOf(request), request.params.programId)),
      );
      app.get(
        `${base}/programs/:programId/partners`,
        { config: bind(ops.partners, surface), schema: { tags, summary: "The partners of one of the caller's programs", description: "Lists the partners of a program the caller owns, each with its partner link's clicks, conversions and earnings.", params: ProgramParams, response: { 200: PartnerList, ...errorResponses(404) } } },
        async (request) => affiliate.partners(callerOf(request), request.params.programId),
      );
      app.get(
        `${base}/programs/:programId/stats`,
        {
          config: bind(ops.stats, surface),
          schema: { tags, summary: "Clicks, conversions and earnings: the program's for its owner, the partnership's for a partner", description: "Answers a program's clicks, paid clicks, conversions and earnings: the whole program's to its owner, the caller's own partnership's to a partner, and not found to anyone else.", params: ProgramParams, response: { 200: StatsObject, ...errorResponses(404) } },
        },
        async (request) => affiliate.stats(callerOf(request), request.params.programId),
      );
      app.get(
        `${base}/partnerships`,
        { config: bind(ops.partnerships, surface), schema: { tags, summary: 'The programs the caller joined, with its partner links and earnings', description: 'Lists the partnerships of the caller as a partner: for each program joined, its partner link, clicks, conversions and earnings.', response: { 200: PartnershipList } } },
        async (request) => affiliate.listPartnerships(callerOf(request)),
      );
      app.post(
        `${base}/conversions`,
        {
          config: bind(ops.convert, surface),
          schema: { tags, summary: "Report a conversion for a click id (the program owner's key); once per click id", description: 'For the owner of a CPA program: records a sale for the click id (snip_cid) that a partner link added to the destination, which earns that partner its commission. A click id converts at most once.', body: ConversionBody, response: { 201: ConversionObject, ...errorResponses(400, 404, 409) } },
        },
        async (request, reply) => reply.status(201).send(await affiliate.convert(callerOf(request), request.body)),
      );
    }
  };
