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
