import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from '@sinclair/typebox';
import { bind, callerOf } from '../http/access.js';
import { errorResponses, Pagination } from '../schema/shapes.js';
import type { LinkPresenter } from '../links/presenters.js';
import { LinkB, LinkDetailsA, PaginationOut, ShortPathParams } from '../links/schemas.js';
import { AGENTLINK_OPERATIONS as ops } from './operations.js';
import type { AgentLinksService } from './service.js';

const Counts = Type.Record(Type.String(), Type.Integer());

export const AgentLinkStats = Type.Object({
  shortCode: Type.String(),
  source: Type.String(),
  clientName: Type.Union([Type.String(), Type.Null()]),
  humanClicks: Type.Integer({ description: "People's clicks (the link's click count)" }),
  agentClicks: Type.Integer({ description: 'Visits by AI agents and assistant fetchers; never tracked clicks' }),
  byAgent: Counts,
});

export const AgentAccountStats = Type.Object({
  humanClicks: Type.Integer(),
  agentClicks: Type.Integer(),
  bySource: Type.Record(Type.String(), Type.Integer(), { description: 'Human clicks by where each link was made: api, mcp, cli, dashboard' }),
  linksBySource: Type.Record(Type.String(), Type.Integer(), { description: 'Links by where they were made' }),
  byAgent: Counts,
});

/** Agent links over A (/api/v1/agentlinks/…) and B (/api/agentlinks/…), each presenting links in its own shape. */
export const agentLinkRoutes =
  (agentLinks: AgentLinksService, present: LinkPresenter): FastifyPluginAsyncTypebox =>
  async (app) => {
    const surfaces = [
      { surface: 'A', base: '/api/v1/agentlinks', One: LinkDetailsA as TSchema, show: present.detailsA.bind(present) },
      { surface: 'B', base: '/api/agentlinks', One: LinkB as TSchema, show: present.linkB.bind(present) },
    ] as const;
    for (const { surface, base, One, show } of surfaces) {
      const tags = [`agent links (${surface})`];
      app.get(
        `${base}/links`,
        {
          config: bind(ops.list, surface),
          schema: { tags, summary: 'The links made over MCP (by AI assistants), newest first', description: "Lists the caller's links that an AI assistant made through the MCP endpoint, a page at a time.", querystring: Pagination, response: { 200: Type.Object({ links: Type.Array(One), pagination: PaginationOut }) } },
        },
        async (request) => {
          const page = await agentLinks.list(callerOf(request), request.query);
          return { links: page.links.map((l) => show(l)), pagination: { limit: page.limit, offset: page.offset, hasMore: page.hasMore, total: page.total } };
        },
      );
      app.get(
        `${base}/links/:shortPath/stats`,
        { config: bind(ops.linkStats, surface), schema: { tags, summary: 'Human and AI-agent clicks of one link, by agent', description: "Answers how many clicks of one of the caller's links came from people and how many from AI agents, and which agents.", params: ShortPathParams, response: { 200: AgentLinkStats, ...errorResponses(403, 404) } } },
        async (request) => agentLinks.linkStats(callerOf(request), request.params.shortPath),
      );
      app.get(
        `${base}/stats`,
        { config: bind(ops.accountStats, surface), schema: { tags, summary: "The account's human and AI-agent clicks, by link source and by agent", description: "Answers the caller's clicks from people and from AI agents across all its links, by where each link was made and by agent.", response: { 200: AgentAccountStats } } },
        async (request) => agentLinks.accountStats(callerOf(request)),
      );
    }
  };
