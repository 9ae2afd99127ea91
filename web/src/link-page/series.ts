import type { LinkAnalytics, RecentClick } from './api';

const day = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const hour = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/** The period's days as chart points (the API gives one entry per day, zeros included). */
export const dailyPoints = (analytics: LinkAnalytics) =>
  analytics.clicksByDay.map((d) => ({ label: day.format(new Date(`${d.date}T00:00:00Z`)), clicks: d.clicks }));

/**
 * The last 24 hours by hour, from the last 100 clicks (the API's statistics are daily): exact while a link has
 * fewer than 100 clicks in a day, and the page says where the numbers come from.
 */
export function hourlyPoints(clicks: RecentClick[], now = Date.now()): { label: string; clicks: number }[] {
  const start = Math.floor(now / 3_600_000) * 3_600_000 - 23 * 3_600_000;
  const points = Array.from({ length: 24 }, (_, i) => ({ label: hour.format(new Date(start + i * 3_600_000)), clicks: 0 }));
  for (const click of clicks) {
    const index = Math.floor((Date.parse(click.timestamp) - start) / 3_600_000);
    if (index >= 0 && index < 24) points[index]!.clicks += 1;
  }
  return points;
}

const regions = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(undefined, { type: 'region' }) : null;
/** `DE` as "Germany"; unknown codes as they are. */
export function countryName(code: string): string {
  try {
    return regions?.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
