import { Type } from '@sinclair/typebox';
import { Nullable } from '../../schema/shapes.js';
import { args, tool } from '../tool.js';
import { FOLDER_OPERATIONS as ops } from '../../folders/operations.js';
import { AssignResult, FolderListA, FolderObject } from '../../folders/schemas.js';

const color = Type.Optional(Nullable(Type.String({ description: 'Colour as #RRGGBB; null removes it' })));

export const folderTools = [
  tool({
    name: 'list_folders',
    title: 'List folders',
    scope: 'links:read',
    description: 'Your folders with how many links each holds, and your plan’s folder limit.',
    operation: ops.list,
    input: {},
    output: FolderListA,
    run: async (_args, { core, caller }) => core.folders.list(caller),
  }),
  tool({
    name: 'create_folder',
    title: 'Create a folder',
    scope: 'links:write',
    description: 'Create a folder (name 1-50 characters, optional #RRGGBB colour).',
    operation: ops.create,
    input: { name: Type.String({ description: 'Folder name' }), color },
    output: FolderObject,
    run: async (input, { core, caller }) => core.folders.create(caller, input),
  }),
  tool({
    name: 'update_folder',
    title: 'Update a folder',
    scope: 'links:write',
    description: 'Rename a folder or change its colour.',
    operation: ops.update,
    input: { folderId: Type.String(), name: Type.Optional(Type.String()), color },
    output: FolderObject,
    run: async ({ folderId, ...input }, { core, caller }) => core.folders.update(caller, folderId, input),
  }),
  tool({
    name: 'delete_folder',
    title: 'Delete a folder',
    scope: 'links:write',
    description: 'Delete a folder; its links stay, unfiled.',
    operation: ops.delete,
    input: { folderId: Type.String() },
    // REST B's answer (DELETE /api/folders/{id}: {success}), with how many links were unfiled.
    output: Type.Object({ success: Type.Boolean(), unassigned: Type.Integer({ description: 'Links taken out of the folder' }) }),
    run: async ({ folderId }, { core, caller }) => ({ success: true, ...(await core.folders.delete(caller, folderId)) }),
  }),
  tool({
    name: 'assign_link_to_folder',
    title: 'Move a link to a folder',
    scope: 'links:write',
    description: 'File a link in a folder, move it, or take it out of any folder (folderId null).',
    operation: ops.assign,
    input: { shortPath: args.shortPath, folderId: Nullable(Type.String({ description: 'The folder, or null for none' })) },
    output: AssignResult,
    run: async ({ shortPath, folderId }, { core, caller }) => ({ success: true, ...(await core.folders.assign(caller, shortPath, folderId)) }),
  }),
];
