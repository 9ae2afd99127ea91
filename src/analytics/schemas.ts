import { Type } from '@sinclair/typebox';
import { DateTime, Nullable } from '../schema/shapes.js';
import { PERIODS } from './service.js';
import { named } from '../schema/names.js';

export const ClickRecord = named('Click', 'One click: when, where from, and on what', Type.Object({
  timestamp: DateTime(),
  city: Nullable(Type.String()),
  region: Nullable(Type.String()),
  country: Nullable(Type.String({ description: 'ISO 3166-1 alpha-2' })),
  browser: Type.String(),
  os: Type.String(),
  device: Type.Union([Type.Literal('desktop'), Type.Literal('mobile'), Type.Literal('tablet')]),
  referrer: Nullable(Type.String({ description: "The referring site's host" })),
}));

export const LinkStats = Type.Object({
  shortCode: Type.String(),
  fullPath: Nullable(Type.String()),
  totalClicks: Type.Integer(),
  clicks: Type.Array(ClickRecord, { description: 'The last 100 clicks, newest first' }),
  byDestination: Type.Array(Type.Object({ url: Type.String(), clicks: Type.Integer() }), {
    description: 'Counted clicks per destination reached (a rule, a variant of the A/B split, or the destination), most first',
  }),
});

export const DetailedStats = Type.Object({
  short: Type.String(),
  long: Nullable(Type.String({ format: 'uri', description: 'The destination; null for a capped link (maxClicks) unless the caller owns it' })),
  opened: Type.Integer({ description: 'Total clicks' }),
  created: DateTime(),
  expiresAt: Nullable(DateTime()),
  maxClicks: Nullable(Type.Integer()),
  isCustom: Type.Boolean(),
  clicks: Type.Array(ClickRecord, { description: "The last 100 clicks for the link's owner; empty for anyone else" }),
});

const Counts = Type.Record(Type.String(), Type.Integer());

export const BreakdownFields = {
  totalClicks: Type.Integer(),
  clicksByDay: Type.Array(Type.Object({ date: Type.String({ format: 'date' }), clicks: Type.Integer() })),
  deviceBreakdown: Type.Object({ mobile: Type.Integer(), desktop: Type.Integer(), tablet: Type.Integer() }),
  countryBreakdown: Counts,
  referrerBreakdown: Counts,
  browserBreakdown: Counts,
  osBreakdown: Counts,
  hourBreakdown: Counts,
  uniqueVisitors: Type.Integer({ description: 'Distinct visitors per day, summed over the period' }),
  tierLimit: Type.Integer({ description: 'Days of history the plan keeps' }),
};

export const PeriodField = Type.Union(PERIODS.map((p) => Type.Literal(p)), { default: '7d' });
export const PeriodQuery = Type.Object({ period: Type.Optional(PeriodField) });

export const AggregatedStats = named('AggregatedStats', "A link's clicks over a period, in total and broken down", Type.Object({ short: Type.String(), period: Type.String(), ...BreakdownFields }));

/** One link's last 24 hours, hour by hour (REST's hourly route and MCP's get_link_stats 24h). */
export const HourlyStats = Type.Object({
  shortCode: Type.String(),
  period: Type.Literal('24h'),
  totalClicks: Type.Integer(),
  clicksByHour: Type.Array(Type.Object({ hour: Type.String({ format: 'date-time', description: 'Start of the hour, UTC' }), clicks: Type.Integer() }), { minItems: 24, maxItems: 24 }),
});

export const AccountAnalytics = Type.Object({
  period: Type.String(),
  ...BreakdownFields,
  topLinks: Type.Array(
    Type.Object({ shortCode: Type.String(), fullPath: Nullable(Type.String()), shortUrl: Type.String({ format: 'uri' }), clicks: Type.Integer() }),
  ),
});

export const UsageBody = Type.Object({
  cycle: Type.Object({ start: DateTime(), end: DateTime() }),
  trackedClicks: Type.Integer(),
  includedClicks: Nullable(Type.Integer({ description: 'null: unlimited' })),
  overageClicks: Type.Integer(),
  overageChargeCents: Type.Number(),
  overageLimitCents: Nullable(Type.Integer({ description: 'The cap in force; null: no cap' })),
  capReached: Type.Boolean(),
  grace: Type.Object({ active: Type.Boolean(), startedAt: Nullable(DateTime()), endsAt: Nullable(DateTime()) }),
  recordingPaused: Type.Boolean(),
});
