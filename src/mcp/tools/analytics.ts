import { Type } from '@sinclair/typebox';
import { PERIODS } from '../../analytics/service.js';
import { args, tool } from '../tool.js';
import { ANALYTICS_OPERATIONS as ops } from '../../analytics/operations.js';

export const analyticsTools = [
  tool({
    name: 'get_link_stats',
    scope: 'analytics:read',
    description: 'Click statistics of one of your links over the last 24 hours (hour by hour), 7 days or 30 days (with breakdowns).',
    operation: ops.aggregate,
    input: { shortPath: args.shortPath, period: Type.Optional(args.oneOf(['24h', '7d', '30d'], '24h, 7d or 30d (default 7d)')) },
    run: async ({ shortPath, period = '7d' }, { core, caller }) => {
      const link = await core.analytics.ownedLink(caller, shortPath);
      if (period === '24h') return { shortCode: link.code, period, ...(await core.analytics.lastDay(link)) };
      return { shortCode: link.code, period, ...(await core.analytics.aggregate(caller, { linkId: link.id }, period)) };
    },
  }),
  tool({
    name: 'get_aggregate_stats',
    scope: 'analytics:read',
    description: "Aggregated statistics over 7, 30, 90 or 365 days for one link, or for your whole account when no link is given. Your plan's history limit applies (Free 30 days, Pro 90, Builder 365).",
    operation: ops.aggregate,
    input: { shortPath: Type.Optional(args.shortPath), period: Type.Optional(args.oneOf(PERIODS, '7d, 30d, 90d or 365d (default 7d)')) },
    run: async ({ shortPath, period = '7d' }, { core, caller }) => {
      if (!shortPath) return { scope: 'account', period, ...(await core.analytics.aggregate(caller, { accountId: caller.accountId }, period)) };
      const link = await core.analytics.ownedLink(caller, shortPath);
      return { shortCode: link.code, period, ...(await core.analytics.aggregate(caller, { linkId: link.id }, period)) };
    },
  }),
  tool({
    name: 'get_usage',
    scope: 'account:read',
    description: 'Tracked clicks this billing cycle against your plan, overage charge and cap, and the grace period state.',
    operation: ops.usage,
    input: {},
    run: async (_args, { core, caller }) => core.analytics.usage(caller),
  }),
];
