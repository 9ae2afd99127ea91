import { apiErrorOf } from '../../../client';
import { shortPathParams, snip, type Answer, type Body, type Query } from '../api';

/** A link as Description B's routes answer it. */
export type Link = Answer<'/api/links/{shortPath}', 'get'>;
export type LinkList = Answer<'/api/links', 'get'>;
/** The link list's filters the page offers (a saved view holds the same). */
export type LinkFilters = Pick<Query<'/api/links', 'get'>, 'search' | 'folderId' | 'tag' | 'domain'>;
export type Folder = Answer<'/api/folders', 'get'>['folders'][number];
export type SavedView = Answer<'/api/views', 'get'>['views'][number];
export type UtmTemplate = Answer<'/api/utm-templates', 'get'>['templates'][number];
export type Domain = Answer<'/api/user/domains', 'get'>['domains'][number];

/**
 * Why the server's operator disabled the link, or null. Read defensively: a dashboard built before the field reached
 * the API (or its client types) must still compile and run.
 */
export function disabledReasonOf(link: Link): string | null {
  if (!('disabledReason' in link)) return null;
  const reason: unknown = link.disabledReason;
  return typeof reason === 'string' ? reason : null;
}

/** The path that names a link in the API and in the dashboard's address: `code` or `namespace/slug`. */
export const shortPathOf = (link: Pick<Link, 'fullPath' | 'shortCode'>): string => link.fullPath ?? link.shortCode;

/** The page sizes offered; the API answers at most 100 links a page. */
export const PAGE_SIZES = [25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 50;

/** The filters that are set: an empty filter is no filter, and the query leaves it out. */
export const givenFilters = (filters: LinkFilters): LinkFilters =>
  Object.fromEntries(Object.entries(filters).filter(([, value]) => typeof value === 'string' && value.trim() !== '')) as LinkFilters;

export const hasFilters = (filters: LinkFilters): boolean => Object.keys(givenFilters(filters)).length > 0;

export function listLinks(filters: LinkFilters, page: number, pageSize: PageSize = DEFAULT_PAGE_SIZE): Promise<LinkList> {
  return snip.get('/api/links', { params: { query: { ...givenFilters(filters), limit: pageSize, offset: (page - 1) * pageSize } } });
}

/**
 * How many links the list holds in all, where the API says (`pagination.total`); otherwise known only on the last
 * page (what came before it and what is on it). Undefined when neither tells.
 */
export function totalOf(list: LinkList): number | undefined {
  const pagination: LinkList['pagination'] = list.pagination;
  if ('total' in pagination && typeof pagination.total === 'number') return pagination.total;
  return pagination.hasMore ? undefined : pagination.offset + list.links.length;
}

export type ExportFormat = 'csv' | 'json';

/**
 * The links the list shows with these filters (all pages) as a file, named by the server. The export API takes the
 * list's own filters, so the file holds exactly the filtered list.
 */
export async function exportLinks(filters: LinkFilters, format: ExportFormat): Promise<{ file: Blob; filename: string }> {
  const { data, error, response } = await snip.raw.GET('/api/export/links', { params: { query: { ...givenFilters(filters), format } }, parseAs: 'blob' });
  if (!response.ok || !data) throw apiErrorOf(response.status, error, response.statusText);
  const named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return { file: data, filename: named?.[1] ?? `snip-links.${format}` };
}

/** Hands a file to the browser as a download. */
export function saveFile(file: Blob, filename: string): void {
  const href = URL.createObjectURL(file);
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = filename;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The download has taken the file once click() returns; the address is no longer needed.
  setTimeout(() => URL.revokeObjectURL(href), 0);
}

/**
 * What a row shows of a short URL: the path after the default base URL (`/abc123`), or host and path for a link on a
 * custom domain. The full URL stays the row's text for screen readers and copying.
 */
export function shortLabelOf(link: Pick<Link, 'url' | 'domain' | 'fullPath' | 'shortCode'>): { base: string; path: string } {
  const path = `/${shortPathOf(link)}`;
  if (!link.url.endsWith(path)) return { base: '', path: link.url };
  const base = link.url.slice(0, -path.length);
  if (link.domain === null) return { base, path };
  // A custom domain is what tells such a link apart: it stays in sight, only the scheme goes.
  const scheme = /^[a-z]+:\/\//i.exec(base)?.[0] ?? '';
  return { base: scheme, path: `${base.slice(scheme.length)}${path}` };
}

/** The default base URL of short links (`http://host:port`), from a link not on a custom domain. */
export function defaultBaseOf(links: readonly Pick<Link, 'url' | 'domain' | 'fullPath' | 'shortCode'>[]): string | undefined {
  const plain = links.find((l) => l.domain === null);
  return plain ? shortLabelOf(plain).base : undefined;
}

/** What the create form collects: the create call's body, plus the folder and tags filed right after. */
export type NewLink = Body<'/api/links', 'post'> & { url: string; folderId?: string; tags?: string[] };

/**
 * Creates the link, then files it in its folder and tags it: the API has no single call for all of it. A failure
 * after the link exists is reported with the link, so nothing is created twice by a retry.
 */
export async function createLink({ folderId, tags = [], ...fields }: NewLink): Promise<{ link: Link; problem: unknown }> {
  const link = await snip.post('/api/links', { body: fields });
  const shortPath = shortPathOf(link);
  try {
    if (folderId) await snip.post('/api/link/{short}/folder', { params: { path: { short: shortPath } }, body: { folderId } });
    for (const tag of tags) await snip.post('/api/links/{shortPath}/tags', { params: shortPathParams(shortPath), body: { tag } });
  } catch (problem) {
    return { link, problem };
  }
  return { link, problem: null };
}

export const deleteLink = (link: Link) => snip.delete('/api/links/{shortPath}', { params: shortPathParams(shortPathOf(link)) });

/** An `<input type="datetime-local">` value as an ISO instant, or undefined when empty. */
export const isoFromLocal = (value: string): string | undefined => (value ? new Date(value).toISOString() : undefined);

/** An ISO instant as an `<input type="datetime-local">` value in the browser's time zone. */
export function localFromIso(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
