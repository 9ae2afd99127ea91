import type { LastDay, LinkAnalytics } from './api';

const day = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const hour = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** The period's days as chart points (the API gives one entry per day, zeros included). */
export const dailyPoints = (analytics: LinkAnalytics) =>
  analytics.clicksByDay.map((d) => ({ label: day.format(new Date(`${d.date}T00:00:00Z`)), clicks: d.clicks }));

/** The last 24 hours as chart points, one per hour in the browser's time. */
export const hourlyPoints = (lastDay: LastDay) => lastDay.clicksByHour.map((h) => ({ label: hour.format(new Date(h.hour)), clicks: h.clicks }));

const regions = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(undefined, { type: 'region' }) : null;
/** `DE` as "Germany"; unknown codes as they are. */
export function countryName(code: string): string {
  try {
    return regions?.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
