import { api } from '../api';
import type { Folder } from '../links/api';

export type { Folder };

/** GET /api/folders: the folders, the plan's maximum and whether one more fits. */
export interface FolderList {
  folders: Folder[];
  limit: number | 'unlimited';
  canCreate: boolean;
}

// The links page reads the same key, so a change here shows in its folder filter.
export const FOLDERS_KEY = ['folders'];

export const listFolders = () => api<FolderList>('/api/folders');

export const createFolder = (body: { name: string; color?: string }) => api<Folder>('/api/folders', { method: 'POST', body });

/** Only the fields sent change; `color: null` removes the colour. */
export const updateFolder = (id: string, body: { name?: string; color?: string | null }) =>
  api<Folder>(`/api/folders/${encodeURIComponent(id)}`, { method: 'PATCH', body });

export const deleteFolder = (id: string) => api<{ success: boolean }>(`/api/folders/${encodeURIComponent(id)}`, { method: 'DELETE' });

export const linkCount = (n: number) => `${n} ${n === 1 ? 'link' : 'links'}`;
