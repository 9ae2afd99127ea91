import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { callerOf } from '../http/access.js';
import { errorResponses, SuccessMessage } from '../http/schemas.js';
import { NAME_MAX_A, NAME_MAX_B } from './rules.js';
import { AssignBody, AssignResult, CreateFolderBody, FolderListA, FolderListB, FolderObject, FolderParams, UpdateFolderBody } from './schemas.js';
import type { FoldersService } from './service.js';

const shortPath = Type.String({ description: '6-character code, or the URL-encoded namespaced path prefix%2Fslug' });

const SURFACES = [
  { surface: 'A', base: '/api/v1/folders', maxNameLength: NAME_MAX_A },
  { surface: 'B', base: '/api/folders', maxNameLength: NAME_MAX_B },
] as const;

const access = (surface: 'A' | 'B') => ({ surface, access: { auth: 'required' } }) as const;
const tagsOf = (surface: 'A' | 'B') => [`folders (${surface})`];

/**
 * Folders over Description A (/api/v1/folders, /api/v1/links/{shortCode}/folder) and B (/api/folders,
 * /api/link/{short}/folder). Create and update are the same on both but for the name's maximum length; the
 * list (how "unlimited" is written), the delete body and the assignment path differ.
 */
export const folderRoutes =
  (folders: FoldersService): FastifyPluginAsyncTypebox =>
  async (app) => {
    for (const { surface, base, maxNameLength } of SURFACES) {
      const config = access(surface);
      const tags = tagsOf(surface);
      const rule = { maxNameLength };

      app.post(
        base,
        { config: { ...config, errors: ['MISSING_NAME', 'INVALID_NAME', 'INVALID_COLOR', 'FOLDER_EXISTS', 'FOLDER_LIMIT_REACHED'] }, schema: { tags, operationId: `createFolder${surface}`, summary: 'Create a folder', body: CreateFolderBody(maxNameLength), response: { 201: FolderObject, ...errorResponses(400, 403, 409) } } },
        async (request, reply) => reply.status(201).send(await folders.create(callerOf(request), request.body, rule)),
      );

      app.patch(
        `${base}/:folderId`,
        {
          config: { ...config, errors: ['INVALID_NAME', 'INVALID_COLOR', 'INVALID_BODY', 'FOLDER_NOT_FOUND', 'FOLDER_EXISTS'] },
          schema: {
            tags,
            operationId: `updateFolder${surface}`,
            summary: 'Rename or recolour a folder; only the fields sent change',
            params: FolderParams,
            body: UpdateFolderBody(maxNameLength),
            response: { 200: FolderObject, ...errorResponses(400, 404, 409) },
          },
        },
        async (request) => folders.update(callerOf(request), request.params.folderId, request.body, rule),
      );
    }

    const [a, b] = [access('A'), access('B')];
    const listSummary = "The caller's folders (oldest first), the plan's maximum and whether another fits";
    const deleteSummary = 'Delete a folder; its links are unassigned, not deleted';
    const assignSummary = 'Put a link in a folder, move it to another, or (null) take it out';

    app.get('/api/v1/folders', { config: a, schema: { tags: tagsOf('A'), operationId: 'listFoldersA', summary: listSummary, response: { 200: FolderListA } } }, async (request) =>
      folders.list(callerOf(request)),
    );

    app.get('/api/folders', { config: b, schema: { tags: tagsOf('B'), operationId: 'listFoldersB', summary: listSummary, response: { 200: FolderListB } } }, async (request) => {
      const list = await folders.list(callerOf(request));
      return { ...list, limit: list.limit ?? ('unlimited' as const) };
    });

    app.delete(
      '/api/v1/folders/:folderId',
      { config: { ...a, errors: ['FOLDER_NOT_FOUND'] }, schema: { tags: tagsOf('A'), operationId: 'deleteFolderA', summary: deleteSummary, params: FolderParams, response: { 200: SuccessMessage, ...errorResponses(404) } } },
      async (request) => {
        const { unassigned } = await folders.delete(callerOf(request), request.params.folderId);
        return { success: true, message: `Folder deleted; ${unassigned} link${unassigned === 1 ? '' : 's'} unassigned` };
      },
    );

    app.delete(
      '/api/folders/:folderId',
      {
        config: { ...b, errors: ['FOLDER_NOT_FOUND'] },
        schema: { tags: tagsOf('B'), operationId: 'deleteFolderB', summary: deleteSummary, params: FolderParams, response: { 200: Type.Object({ success: Type.Boolean() }), ...errorResponses(404) } },
      },
      async (request) => {
        await folders.delete(callerOf(request), request.params.folderId);
        return { success: true };
      },
    );

    app.post(
      '/api/v1/links/:shortCode/folder',
      {
        config: { ...a, errors: ['MISSING_FOLDER_ID', 'INVALID_FOLDER_ID', 'NOT_FOUND', 'FOLDER_NOT_FOUND', 'FOLDER_ACCESS_DENIED'] },
        schema: { tags: tagsOf('A'), operationId: 'setLinkFolderA', summary: assignSummary, params: Type.Object({ shortCode: shortPath }), body: AssignBody, response: { 200: AssignResult, ...errorResponses(400, 404) } },
      },
      async (request) => ({ success: true, ...(await folders.assign(callerOf(request), request.params.shortCode, request.body.folderId)) }),
    );

    app.post(
      '/api/link/:short/folder',
      {
        config: { ...b, errors: ['MISSING_FOLDER_ID', 'INVALID_FOLDER_ID', 'NOT_FOUND', 'FOLDER_NOT_FOUND', 'FOLDER_ACCESS_DENIED'] },
        schema: { tags: tagsOf('B'), operationId: 'setLinkFolderB', summary: assignSummary, params: Type.Object({ short: shortPath }), body: AssignBody, response: { 200: AssignResult, ...errorResponses(400, 404) } },
      },
      async (request) => ({ success: true, ...(await folders.assign(callerOf(request), request.params.short, request.body.folderId)) }),
    );
  };
