import type { PlanLimits } from '../plans.js';

export type Period = 'minute' | 'hour' | 'day' | 'month';

/** The plan limits that are counted, the period each is counted over, and whether it must survive a restart. */
export const COUNTED_LIMITS = {
  requestsPerMinute: { period: 'minute', durable: false },
  requestsPerHour: { period: 'hour', durable: false },
  requestsPerMonth: { period: 'month', durable: true },
  bulkRequestsPerHour: { period: 'hour', durable: false },
  linksPerDay: { period: 'day', durable: false },
} as const satisfies Record<string, { period: Period; durable: boolean }>;

export type CountedLimit = keyof typeof COUNTED_LIMITS & keyof PlanLimits;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Fixed periods in UTC: the current minute, hour, day (from midnight UTC) or calendar month. */
export function periodAt(period: Period, nowMs: number): { startMs: number; endMs: number } {
  if (period === 'minute' || period === 'hour') {
    const size = period === 'minute' ? MINUTE : HOUR;
    const startMs = Math.floor(nowMs / size) * size;
    return { startMs, endMs: startMs + size };
  }
  const now = new Date(nowMs);
  if (period === 'day') {
    const startMs = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    return { startMs, endMs: startMs + 24 * HOUR };
  }
  return {
    startMs: Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1),
    endMs: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1),
  };
}
