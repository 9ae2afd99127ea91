import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { bind, callerOf } from '../http/access.js';
import { errorResponses, MAX_INTEGER } from '../schema/shapes.js';
import type { Link } from '../links/link.js';
import type { LinkPresenter } from '../links/presenters.js';
import type { LinkKey } from '../links/link-key.js';
import { ShortPathParams } from '../links/schemas.js';
import { ANALYTICS_OPERATIONS as ops } from './operations.js';
import { AccountAnalytics, AggregatedStats, DetailedStats, HourlyStats, LinkStats, PeriodQuery, UsageBody } from './schemas.js';
import type { AnalyticsService, Period } from './service.js';

const optional = { surface: 'A' as const, access: { auth: 'optional' as const } };
const CodeParams = Type.Object({ shortCode: Type.String({ pattern: '^[A-Za-z0-9]{6}$' }) });
const NsParams = Type.Object({ prefix: Type.String(), slug: Type.String() });

/** Statistics over Description A (/api/v1/links/.../stats, /api/stats, /api/ns/stats) and B (/api/analytics), and usage. */
export const analyticsRoutes =
  (analytics: AnalyticsService, present: LinkPresenter): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tagsA = ['statistics (A)'];
    const tagsB = ['analytics (B)'];

    app.get(
      '/api/v1/links/:shortPath/stats',
      { config: bind(ops.linkStats, 'A'), schema: { tags: tagsA, summary: 'Total and the last 100 clicks', description: "Answers the total clicks of one of the caller's links and its last 100 clicks, newest first, each with its time, place, browser, system, device and referring site.", params: ShortPathParams, response: { 200: LinkStats, ...errorResponses(404) } } },
      async (request) => analytics.linkStats(callerOf(request), request.params.shortPath),
    );

    const detailed = async (caller: { accountId: string } | null, key: LinkKey) => {
      const link = await analytics.publicLink(key, caller?.accountId ?? null);
      const { totalClicks, clicks } = await analytics.recentClicks(link);
      const owner = caller?.accountId === link.accountId;
      return {
        short: 'code' in key ? key.code : present.slugOf(link),
        long: link.url,
        opened: totalClicks,
        created: link.createdAt,
        expiresAt: link.expiresAt,
        maxClicks: link.maxClicks,
        isCustom: link.slug !== null,
        clicks: owner ? clicks : [],
      };
    };
    const aggregate = async (caller: Parameters<typeof analytics.aggregate>[0], link: Link, period: Period | undefined, short?: string) => ({
      short: short ?? present.slugOf(link),
      period: period ?? '7d',
      ...(await analytics.aggregate(caller, { linkId: link.id }, period ?? '7d')),
    });

    app.get(
      '/api/stats/:shortCode',
      { config: { ...optional, errors: ['NOT_FOUND', 'ACCESS_DENIED'] }, schema: { tags: tagsA, operationId: 'getStatsByCodeA', summary: 'Link statistics; click details only for the owner', description: "Anyone may ask, with or without a key: the link's total clicks, creation, expiry and cap. Only its owner's key also gets the last 100 clicks (and the destination of a link with a click cap).", params: CodeParams, response: { 200: DetailedStats, ...errorResponses(400, 404) } } },
      async (request) => detailed(request.caller, { code: request.params.shortCode }),
    );
    app.get(
      '/api/ns/stats/:prefix/:slug',
      { config: { ...optional, errors: ['NOT_FOUND', 'ACCESS_DENIED'] }, schema: { tags: tagsA, operationId: 'getNamespacedStatsA', summary: 'Namespaced link statistics; details only for the owner', description: 'The same as /api/stats/{shortCode} for a <prefix>/<slug> link: anyone may ask; only the owner gets the last 100 clicks (and the destination of a capped link).', params: NsParams, response: { 200: DetailedStats, ...errorResponses(404) } } },
      async (request) => detailed(request.caller, { namespace: request.params.prefix.toLowerCase(), slug: request.params.slug }),
    );
    app.get(
      '/api/stats/:shortCode/aggregate',
      {
        config: bind(ops.aggregate, 'A'),
        schema: { tags: tagsA, summary: 'Aggregated statistics over a period', description: "Answers the clicks of one of the caller's links over a period (7 days unless told): by day, device, country, referring site, browser, system and hour, and distinct visitors. A period longer than the plan keeps is refused.", params: CodeParams, querystring: PeriodQuery, response: { 200: AggregatedStats, ...errorResponses(400, 404) } },
      },
      async (request) => {
        const caller = callerOf(request);
        const { shortCode } = request.params;
        return aggregate(caller, await analytics.ownedLink(caller, { code: shortCode }), request.query.period, shortCode);
      },
    );
    app.get(
      '/api/ns/stats/:prefix/:slug/aggregate',
      {
        config: bind(ops.aggregate, 'A', { operationId: 'getNamespacedAggregateStatsA' }),
        schema: { tags: tagsA, summary: 'Aggregated statistics of a namespaced link', description: "The same as /api/stats/{shortCode}/aggregate for one of the caller's <prefix>/<slug> links.", params: NsParams, querystring: PeriodQuery, response: { 200: AggregatedStats, ...errorResponses(400, 404) } },
      },
      async (request) => {
        const caller = callerOf(request);
        const key = { namespace: request.params.prefix.toLowerCase(), slug: request.params.slug };
        return aggregate(caller, await analytics.ownedLink(caller, key), request.query.period);
      },
    );

    app.get(
      '/api/analytics/links/:shortPath',
      {
        config: bind(ops.aggregate, 'B', { operationId: 'getLinkAnalyticsB' }),
        schema: { tags: tagsB, summary: 'Per-link analytics over a period', description: "Answers the clicks of one of the caller's links over a period (7 days unless told): by day, device, country, referring site, browser, system and hour, and distinct visitors. A period longer than the plan keeps is refused.", params: ShortPathParams, querystring: PeriodQuery, response: { 200: AggregatedStats, ...errorResponses(400, 404) } },
      },
      async (request) => {
        const caller = callerOf(request);
        return aggregate(caller, await analytics.ownedLink(caller, request.params.shortPath), request.query.period);
      },
    );
    app.get(
      '/api/analytics/links/:shortPath/hourly',
      {
        config: bind(ops.aggregate, 'B', { operationId: 'getLinkHourlyB' }),
        schema: {
          tags: tagsB,
          summary: 'Per-link clicks of the last 24 hours, hour by hour (the hour under way last), as MCP get_link_stats answers 24h',
          description: "Answers the clicks of one of the caller's links in each of the last 24 hours, for a chart of the day; the hour under way comes last and is still counting.",
          params: ShortPathParams,
          response: { 200: HourlyStats, ...errorResponses(404) },
        },
      },
      async (request) => {
        const link = await analytics.ownedLink(callerOf(request), request.params.shortPath);
        return { shortCode: link.code, period: '24h' as const, ...(await analytics.lastDay(link)) };
      },
    );
    app.get(
      '/api/analytics/link-trends',
      {
        config: bind(ops.linkTrends, 'B'),
        schema: {
          tags: tagsB,
          summary: 'Clicks per day over the last 7 days of up to 100 of the caller\'s links',
          description: "For a list of links (the dashboard's rows): each link's clicks per UTC day, oldest first and today last, in one request. Ids of links that are not the caller's answer seven zeros.",
          querystring: Type.Object({ ids: Type.String({ minLength: 1, maxLength: 4000, pattern: '^[A-Za-z0-9_]+(,[A-Za-z0-9_]+){0,99}$', description: 'Link ids, comma-separated (at most 100)' }) }),
          response: { 200: Type.Object({ trends: Type.Array(Type.Object({ id: Type.String(), days: Type.Array(Type.Integer(), { minItems: 7, maxItems: 7 }) })) }), ...errorResponses(400) },
        },
      },
      async (request) => ({ trends: await analytics.trends(callerOf(request), request.query.ids.split(',')) }),
    );
    app.get(
      '/api/analytics',
      { config: bind(ops.accountAnalytics, 'B'), schema: { tags: tagsB, summary: 'Account-level analytics over a period', description: "Answers the clicks of all the caller's links over a period (7 days unless told), broken down as a link's are, with the links clicked most.", querystring: PeriodQuery, response: { 200: AccountAnalytics, ...errorResponses(400) } } },
      async (request) => {
        const caller = callerOf(request);
        const period = request.query.period ?? '7d';
        const { tierLimit: _tierLimit, ...totals } = await analytics.aggregate(caller, { accountId: caller.accountId }, period);
        const top = await analytics.topLinks(caller, period);
        return {
          period,
          ...totals,
          tierLimit: _tierLimit,
          topLinks: top.map((t) => ({ shortCode: t.link.code, fullPath: present.fullPath(t.link), shortUrl: present.shortUrl(t.link), clicks: t.clicks })),
        };
      },
    );

    app.get(
      '/api/usage',
      { config: bind(ops.usage, 'B'), schema: { tags: tagsB, summary: 'Tracked clicks this billing cycle, overage and grace', description: 'Answers how many clicks the account had tracked this billing cycle against its plan, the overage charged so far and its cap, the grace period of a plan without paid overage, and whether tracking is paused. Any plan may call it.', response: { 200: UsageBody } } },
      async (request) => analytics.usage(callerOf(request)),
    );
    app.post(
      '/api/subscription/overage-limit',
      {
        config: bind(ops.setOverageLimit, 'A'),
        schema: {
          tags: ['subscription (A)'],
          summary: 'Set the monthly cap on overage charges (cents; 0 means no cap). Pro and Builder.',
          description: 'Sets how much overage a Pro or Builder account may be charged in a billing cycle, in US cents (0: no cap). Once the cap is reached, clicks still redirect but are no longer tracked until the next cycle.',
          body: Type.Object({ limitCents: Type.Integer({ minimum: 0, maximum: MAX_INTEGER }) }),
          response: { 200: Type.Object({ success: Type.Boolean(), limitCents: Type.Integer() }), ...errorResponses(400) },
        },
      },
      async (request) => ({ success: true, limitCents: await analytics.setOverageLimit(callerOf(request), request.body.limitCents) }),
    );
  };
