import { snip, type Answer, type Body } from '../api';
import type { Folder } from '../links/api';

export type { Folder };

/** GET /api/folders: the folders, the plan's maximum and whether one more fits. */
export type FolderList = Answer<'/api/folders', 'get'>;

// The links page reads the same key, so a change here shows in its folder filter.
export const FOLDERS_KEY = ['folders'];

export const listFolders = () => snip.get('/api/folders');

export const createFolder = (body: Body<'/api/folders', 'post'>) => snip.post('/api/folders', { body });

/** Only the fields sent change; `color: null` removes the colour. */
export const updateFolder = (folderId: string, body: Body<'/api/folders/{folderId}', 'patch'>) =>
  snip.patch('/api/folders/{folderId}', { params: { path: { folderId } }, body });

export const deleteFolder = (folderId: string) => snip.delete('/api/folders/{folderId}', { params: { path: { folderId } } });

export const linkCount = (n: number) => `${n} ${n === 1 ? 'link' : 'links'}`;
