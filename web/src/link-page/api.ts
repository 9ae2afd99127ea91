import { snip, shortPathParams, type Answer, type Query } from '../api';

export const PERIODS = ['24h', '7d', '30d', '90d', '365d'] as const;
export type Period = (typeof PERIODS)[number];
export const PERIOD_DAYS: Record<Period, number> = { '24h': 1, '7d': 7, '30d': 30, '90d': 90, '365d': 365 };

/** GET /api/analytics/links/{shortPath}: one period's series and breakdowns. */
export type LinkAnalytics = Answer<'/api/analytics/links/{shortPath}', 'get'>;
/** GET /api/analytics/links/{shortPath}/hourly: the last 24 hours, hour by hour. */
export type LastDay = Answer<'/api/analytics/links/{shortPath}/hourly', 'get'>;
/** GET /api/v1/links/{shortPath}/stats: every click ever counted, and the last 100. */
export type LinkStats = Answer<'/api/v1/links/{shortPath}/stats', 'get'>;
export type RecentClick = LinkStats['clicks'][number];

export const fetchAnalytics = (shortPath: string, period: Exclude<Period, '24h'>) =>
  snip.get('/api/analytics/links/{shortPath}', { params: { ...shortPathParams(shortPath), query: { period } } });
export const fetchLastDay = (shortPath: string) => snip.get('/api/analytics/links/{shortPath}/hourly', { params: shortPathParams(shortPath) });
export const fetchStats = (shortPath: string) => snip.get('/api/v1/links/{shortPath}/stats', { params: shortPathParams(shortPath) });
/**
 * How often an open link page asks for its numbers again, while the tab is in sight (TanStack Query pauses the
 * interval in a hidden tab). A click is in the statistics a few milliseconds after its redirect (src/clicks/recorder.ts
 * commits every 20 ms, and each statistics read waits for what is pending), so this is the delay a person sees.
 */
export const LIVE_REFRESH_MS = 4_000;

/** What the link page shows of a period, and the totals beside it, read together so that they agree. */
export interface LiveStats {
  period: Period;
  stats: LinkStats;
  /** The period's breakdowns; for 24h the last 7 days' (the hourly answer has none). */
  analytics: LinkAnalytics;
  lastDay: LastDay | null;
}

/**
 * The period's numbers first, then the total: clicks only ever add up, so a total read after the period's count is
 * never below it ("Total clicks 5" beside "Clicks in the last 24 hours 6" came from a total read at page load and a
 * period read after a later click, each cached on its own).
 */
export async function fetchLive(shortPath: string, period: Period): Promise<LiveStats> {
  const [analytics, lastDay] = await Promise.all([fetchAnalytics(shortPath, period === '24h' ? '7d' : period), period === '24h' ? fetchLastDay(shortPath) : null]);
  const stats = await fetchStats(shortPath);
  return { period, stats, analytics, lastDay };
}

/** "the last 24 hours", "the last 30 days". */
export const periodWords = (period: Period) => (period === '24h' ? 'the last 24 hours' : `the last ${PERIOD_DAYS[period]} days`);

export const fetchTrust = (shortPath: string) => snip.get('/api/link-scan/{short}', { params: { path: { short: shortPath } } });

export interface QrLook {
  size: number;
  color: string;
  bgColor: string;
  margin: number;
}
type QrQuery = Query<'/api/qr/{shortCode}', 'get'>;
const qrQuery = (look: QrLook): QrQuery => ({ size: look.size, color: look.color.replace('#', ''), bgColor: look.bgColor.replace('#', ''), margin: look.margin });

/** The QR image's address (an <img> fetches it itself): a code, or a namespaced path as its two segments. */
export function qrUrl(shortPath: string, look: QrLook): string {
  const query = new URLSearchParams(Object.entries(qrQuery(look)).map(([name, value]) => [name, String(value)]));
  const path = shortPath.split('/').map(encodeURIComponent).join('/');
  return `/api/qr/${path}?${query}`;
}

/** The same QR code as a PNG file, through the client (so a refusal is an ApiError with its code). */
export function fetchQrPng(shortPath: string, look: QrLook): Promise<Blob> {
  const query = qrQuery(look);
  const slash = shortPath.indexOf('/');
  if (slash === -1) return snip.get('/api/qr/{shortCode}', { params: { path: { shortCode: shortPath }, query }, parseAs: 'blob' });
  const path = { prefix: shortPath.slice(0, slash), slug: shortPath.slice(slash + 1) };
  return snip.get('/api/qr/{prefix}/{slug}', { params: { path, query }, parseAs: 'blob' });
}
