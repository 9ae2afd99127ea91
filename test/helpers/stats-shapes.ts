import type { Static } from '@sinclair/typebox';
import type * as schemas from '../../src/analytics/schemas.js';

/** What the statistics routes answer, as declared by their response schemas (spec 2.5 and Snip's usage body). */
export type ClickRecord = Static<typeof schemas.ClickRecord>;
export type LinkStats = Static<typeof schemas.LinkStats>;
export type DetailedStats = Static<typeof schemas.DetailedStats>;
export type AggregatedStats = Static<typeof schemas.AggregatedStats>;
export type AccountAnalytics = Static<typeof schemas.AccountAnalytics>;
export type Usage = Static<typeof schemas.UsageBody>;
