import { api, pathParam } from '../api';

export const PERIODS = ['24h', '7d', '30d', '90d', '365d'] as const;
export type Period = (typeof PERIODS)[number];
export const PERIOD_DAYS: Record<Period, number> = { '24h': 1, '7d': 7, '30d': 30, '90d': 90, '365d': 365 };

/** GET /api/analytics/links/{shortPath}: one period's series and breakdowns. */
export interface LinkAnalytics {
  period: string;
  totalClicks: number;
  uniqueVisitors: number;
  clicksByDay: { date: string; clicks: number }[];
  deviceBreakdown: Record<string, number>;
  countryBreakdown: Record<string, number>;
  referrerBreakdown: Record<string, number>;
  browserBreakdown: Record<string, number>;
  osBreakdown: Record<string, number>;
  hourBreakdown: Record<string, number>;
}

export interface RecentClick {
  timestamp: string;
  city: string | null;
  region: string | null;
  country: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
  referrer: string | null;
}

/** GET /api/v1/links/{shortPath}/stats: every click ever counted, and the last 100. */
export interface LinkStats {
  totalClicks: number;
  clicks: RecentClick[];
}

export interface TrustScore {
  trustScore: number | null;
  trustStatus: 'safe' | 'warning' | 'unsafe' | null;
  threats: string[];
  scannedAt: string | null;
  source: string | null;
}

export const fetchAnalytics = (shortPath: string, period: Exclude<Period, '24h'>) =>
  api<LinkAnalytics>(`/api/analytics/links/${pathParam(shortPath)}?period=${period}`);
/** GET /api/analytics/links/{shortPath}/hourly: the last 24 hours, hour by hour. */
export interface LastDay {
  totalClicks: number;
  clicksByHour: { hour: string; clicks: number }[];
}
export const fetchLastDay = (shortPath: string) => api<LastDay>(`/api/analytics/links/${pathParam(shortPath)}/hourly`);
export const fetchStats = (shortPath: string) => api<LinkStats>(`/api/v1/links/${pathParam(shortPath)}/stats`);
export const fetchTrust = (shortPath: string) => api<TrustScore>(`/api/link-scan/${pathParam(shortPath)}`);

/** The QR image's address: a code, or a namespaced path as its two segments. */
export function qrUrl(shortPath: string, options: { size: number; color: string; bgColor: string; margin: number }): string {
  const query = new URLSearchParams({ size: String(options.size), color: options.color.replace('#', ''), bgColor: options.bgColor.replace('#', ''), margin: String(options.margin) });
  const path = shortPath.split('/').map(encodeURIComponent).join('/');
  return `/api/qr/${path}?${query}`;
}
