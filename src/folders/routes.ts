import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { bind, callerOf } from '../http/access.js';
import { errorResponses, SuccessMessage } from '../schema/shapes.js';
import { FOLDER_OPERATIONS as ops } from './operations.js';
import { NAME_MAX_A, NAME_MAX_B } from './rules.js';
import { AssignBody, AssignResult, CreateFolderBody, FolderListA, FolderListB, FolderObject, FolderParams, UpdateFolderBody } from './schemas.js';
import type { FoldersService } from './service.js';

const shortPath = Type.String({ description: '6-character code, or the URL-encoded namespaced path prefix%2Fslug' });

const SURFACES = [
  { surface: 'A', base: '/api/v1/folders', maxNameLength: NAME_MAX_A },
  { surface: 'B', base: '/api/folders', maxNameLength: NAME_MAX_B },
] as const;

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
      const tags = tagsOf(surface);
      const rule = { maxNameLength };

      app.post(
        base,
        { config: bind(ops.create, surface), schema: { tags, summary: 'Create a folder', description: "Makes a folder for the caller's links, with a name of its own in the account and an optional colour, while the plan's number of folders allows another.", body: CreateFolderBody(maxNameLength), response: { 201: FolderObject, ...errorResponses(400, 403, 409) } } },
        async (request, reply) => reply.status(201).send(await folders.create(callerOf(request), request.body, rule)),
      );

      app.patch(
        `${base}/:folderId`,
        {
          config: bind(ops.update, surface),
          schema: {
            tags,
            summary: 'Rename or recolour a folder; only the fields sent change',
            description: "Changes the name or the colour of one of the caller's folders; its links stay in it.",
            params: FolderParams,
            body: UpdateFolderBody(maxNameLength),
            response: { 200: FolderObject, ...errorResponses(400, 404, 409) },
          },
        },
        async (request) => folders.update(callerOf(request), request.params.folderId, request.body, rule),
      );
    }

    const listSummary = "The caller's folders (oldest first), the plan's maximum and whether another fits";
    const deleteSummary = 'Delete a folder; its links are unassigned, not deleted';
    const assignSummary = 'Put a link in a folder, move it to another, or (null) take it out';
    const listDescription = "Lists the caller's folders, oldest first, each with its number of links, and says how many folders the plan allows and whether another fits.";
    const deleteDescription = "Deletes one of the caller's folders; the links in it stay, in no folder.";
    const assignDescription = "Files one of the caller's links in one of its folders (a link is in at most one), or takes it out of any with folderId null.";

    app.get('/api/v1/folders', { config: bind(ops.list, 'A'), schema: { tags: tagsOf('A'), summary: listSummary, description: listDescription, response: { 200: FolderListA } } }, async (request) =>
      folders.list(callerOf(request)),
    );

    app.get('/api/folders', { config: bind(ops.list, 'B'), schema: { tags: tagsOf('B'), summary: listSummary, description: listDescription, response: { 200: FolderListB } } }, async (request) => {
      const list = await folders.list(callerOf(request));
      return { ...list, limit: list.limit ?? ('unlimited' as const) };
    });

    app.delete(
      '/api/v1/folders/:folderId',
      { config: bind(ops.delete, 'A'), schema: { tags: tagsOf('A'), summary: deleteSummary, description: deleteDescription, params: FolderParams, response: { 200: SuccessMessage, ...errorResponses(404) } } },
      async (request) => {
        const { unassigned } = await folders.delete(callerOf(request), request.params.folderId);
        return { success: true, message: `Folder deleted; ${unassigned} link${unassigned === 1 ? '' : 's'} unassigned` };
      },
    );

    app.delete(
      '/api/folders/:folderId',
      {
        config: bind(ops.delete, 'B'),
        schema: { tags: tagsOf('B'), summary: deleteSummary, description: deleteDescription, params: FolderParams, response: { 200: Type.Object({ success: Type.Boolean() }), ...errorResponses(404) } },
      },
      async (request) => {
        await folders.delete(callerOf(request), request.params.folderId);
        return { success: true };
      },
    );

    app.post(
      '/api/v1/links/:shortCode/folder',
      {
        config: bind(ops.assign, 'A'),
        schema: { tags: tagsOf('A'), summary: assignSummary, description: assignDescription, params: Type.Object({ shortCode: shortPath }), body: AssignBody, response: { 200: AssignResult, ...errorResponses(400, 404) } },
      },
      async (request) => ({ success: true, ...(await folders.assign(callerOf(request), request.params.shortCode, request.body.folderId)) }),
    );

    app.post(
      '/api/link/:short/folder',
      {
        config: bind(ops.assign, 'B'),
        schema: { tags: tagsOf('B'), summary: assignSummary, description: assignDescription, params: Type.Object({ short: shortPath }), body: AssignBody, response: { 200: AssignResult, ...errorResponses(400, 404) } },
      },
      async (request) => ({ success: true, ...(await folders.assign(callerOf(request), request.params.short, request.body.folderId)) }),
    );
  };
