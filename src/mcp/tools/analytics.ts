import { Type } from '@sinclair/typebox';
import { PERIODS, type Period } from '../../analytics/service.js';
import { AccountAnalytics, AggregatedStats, HourlyStats, UsageBody } from '../../analytics/schemas.js';
import { args, tool, type ToolContext } from '../tool.js';
import { ANALYTICS_OPERATIONS as ops } from '../../analytics/operations.js';

/** One link's breakdowns: REST's aggregate answer (`short` the code or prefix/slug), with the link's code besides. */
const LinkAggregate = Type.Object({ ...AggregatedStats.properties, shortCode: Type.String() });

/** The account's breakdowns: REST B's account analytics (GET /api/analytics), marked as the account's. */
const AccountAggregate = Type.Object({ scope: Type.Literal('account'), ...AccountAnalytics.properties });

async function linkAggregate({ core, caller }: ToolContext, shortPath: string, period: Period) {
  const link = await core.analytics.ownedLink(caller, shortPath);
  return { short: core.present.slugOf(link), shortCode: link.code, period, ...(await core.analytics.aggregate(caller, { linkId: link.id }, period)) };
}

/** The account's figures and its top links, as REST B's account analytics answers them. */
async function accountAggregate({ core, caller }: ToolContext, period: Period) {
  const totals = await core.analytics.aggregate(caller, { accountId: caller.accountId }, period);
  const top = await core.analytics.topLinks(caller, period);
  const topLinks = top.map((t) => ({ shortCode: t.link.code, fullPath: core.present.fullPath(t.link), shortUrl: core.present.shortUrl(t.link), clicks: t.clicks }));
  return { scope: 'account' as const, period, ...totals, topLinks };
}

export const analyticsTools = [
  tool({
    name: 'get_link_stats',
    title: 'Link statistics',
    scope: 'analytics:read',
    description: 'Click statistics of one of your links over the last 24 hours (hour by hour), 7 days or 30 days (with breakdowns).',
    operation: ops.aggregate,
    input: { shortPath: args.shortPath, period: Type.Optional(args.oneOf(['24h', '7d', '30d'], '24h, 7d or 30d (default 7d)')) },
    // 24h: REST B's hourly answer; 7d and 30d: its aggregate answer.
    output: Type.Union([HourlyStats, LinkAggregate], { type: 'object' }),
    run: async ({ shortPath, period = '7d' }, context) => {
      if (period !== '24h') return linkAggregate(context, shortPath, period);
      const link = await context.core.analytics.ownedLink(context.caller, shortPath);
      return { shortCode: link.code, period, ...(await context.core.analytics.lastDay(link)) };
    },
  }),
  tool({
    name: 'get_aggregate_stats',
    title: 'Aggregated statistics',
    scope: 'analytics:read',
    description: "Aggregated statistics over 7, 30, 90 or 365 days for one link, or for your whole account (with its top links) when no link is given. Your plan's history limit applies (Free 30 days, Pro 90, Builder 365).",
    operation: ops.aggregate,
    input: { shortPath: Type.Optional(args.shortPath), period: Type.Optional(args.oneOf(PERIODS, '7d, 30d, 90d or 365d (default 7d)')) },
    output: Type.Union([LinkAggregate, AccountAggregate], { type: 'object' }),
    run: async ({ shortPath, period = '7d' }, context) => (shortPath ? linkAggregate(context, shortPath, period) : accountAggregate(context, period)),
  }),
  tool({
    name: 'get_usage',
    title: 'Usage this billing cycle',
    scope: 'account:read',
    description: 'Tracked clicks this billing cycle against your plan, overage charge and cap, and the grace period state.',
    operation: ops.usage,
    input: {},
    output: UsageBody,
    run: async (_args, { core, caller }) => core.analytics.usage(caller),
  }),
];
