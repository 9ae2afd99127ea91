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

/** The path that names a link in the API and in the dashboard's address: `code` or `namespace/slug`. */
export const shortPathOf = (link: Pick<Link, 'fullPath' | 'shortCode'>): string => link.fullPath ?? link.shortCode;

export const PAGE_SIZE = 20;

export function listLinks(filters: LinkFilters, page: number): Promise<LinkList> {
  // An empty filter is no filter: the query leaves it out.
  const given = Object.fromEntries(Object.entries(filters).filter(([, value]) => value)) as LinkFilters;
  return snip.get('/api/links', { params: { query: { ...given, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE } } });
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
