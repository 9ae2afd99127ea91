import { api, pathParam } from '../api';

/** A link as Description B's routes answer it. */
export interface Link {
  id: string;
  shortCode: string;
  fullPath: string | null;
  namespace: string | null;
  long: string;
  clicks: number;
  created: string;
  expiresAt: string | null;
  maxClicks: number | null;
  isCustom: boolean;
  blockedCountries: string[];
  folderId: string | null;
  domain: string | null;
  tags: string[];
  /** The clickable short address. */
  url: string;
  activeFrom: string | null;
  updated?: string | null;
}

export interface LinkList {
  links: Link[];
  pagination: { limit: number; offset: number; hasMore: boolean };
}

export interface LinkFilters {
  search?: string;
  folderId?: string;
  tag?: string;
  domain?: string;
}

export interface Folder {
  id: string;
  name: string;
  color: string | null;
  linkCount: number;
  createdAt: string;
}

export interface SavedView {
  id: string;
  name: string;
  filters: LinkFilters;
}

export interface UtmTemplate {
  id: string;
  name: string;
}

export interface Domain {
  domain: string;
  status: 'pending_txt' | 'verified' | 'active';
  isDefault: boolean;
}

/** The path that names a link in the API and in the dashboard's address: `code` or `namespace/slug`. */
export const shortPathOf = (link: Pick<Link, 'fullPath' | 'shortCode'>): string => link.fullPath ?? link.shortCode;

export const PAGE_SIZE = 20;

export function listLinks(filters: LinkFilters, page: number): Promise<LinkList> {
  const query = new URLSearchParams({ limit: String(PAGE_SIZE), offset: String((page - 1) * PAGE_SIZE) });
  for (const [name, value] of Object.entries(filters)) if (value) query.set(name, value);
  return api<LinkList>(`/api/links?${query}`);
}

export interface NewLink {
  url: string;
  customSlug?: string;
  expiresAt?: string;
  maxClicks?: number;
  activeFrom?: string;
  domain?: string;
  utmTemplateId?: string;
  folderId?: string;
  tags?: string[];
}

/**
 * Creates the link, then files it in its folder and tags it: the API has no single call for all of it. A failure
 * after the link exists is reported with the link, so nothing is created twice by a retry.
 */
export async function createLink({ folderId, tags = [], ...fields }: NewLink): Promise<{ link: Link; problem: unknown }> {
  const link = await api<Link>('/api/links', { method: 'POST', body: fields });
  const path = pathParam(shortPathOf(link));
  try {
    if (folderId) await api(`/api/link/${path}/folder`, { method: 'POST', body: { folderId } });
    for (const tag of tags) await api(`/api/links/${path}/tags`, { method: 'POST', body: { tag } });
  } catch (problem) {
    return { link, problem };
  }
  return { link, problem: null };
}

export const deleteLink = (link: Link) => api(`/api/links/${pathParam(shortPathOf(link))}`, { method: 'DELETE' });

/** An `<input type="datetime-local">` value as an ISO instant, or undefined when empty. */
export const isoFromLocal = (value: string): string | undefined => (value ? new Date(value).toISOString() : undefined);

/** An ISO instant as an `<input type="datetime-local">` value in the browser's time zone. */
export function localFromIso(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
