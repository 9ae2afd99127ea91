import { Type } from '@sinclair/typebox';
import { Nullable } from '../../http/schemas.js';
import { args, tool } from '../tool.js';
import { FOLDER_OPERATIONS as ops } from '../../folders/operations.js';

const color = Type.Optional(Nullable(Type.String({ description: 'Colour as #RRGGBB; null removes it' })));

export const folderTools = [
  tool({
    name: 'list_folders',
    scope: 'links:read',
    description: 'Your folders with how many links each holds, and your plan’s folder limit.',
    operation: ops.list,
    input: {},
    run: async (_args, { core, caller }) => core.folders.list(caller),
  }),
  tool({
    name: 'create_folder',
    scope: 'links:write',
    description: 'Create a folder (name 1-50 characters, optional #RRGGBB colour).',
    operation: ops.create,
    input: { name: Type.String({ description: 'Folder name' }), color },
    run: async (input, { core, caller }) => core.folders.create(caller, input),
  }),
  tool({
    name: 'update_folder',
    scope: 'links:write',
    description: 'Rename a folder or change its colour.',
    operation: ops.update,
    input: { folderId: Type.String(), name: Type.Optional(Type.String()), color },
    run: async ({ folderId, ...input }, { core, caller }) => core.folders.update(caller, folderId, input),
  }),
  tool({
    name: 'delete_folder',
    scope: 'links:write',
    description: 'Delete a folder; its links stay, unfiled.',
    operation: ops.delete,
    input: { folderId: Type.String() },
    run: async ({ folderId }, { core, caller }) => ({ success: true, ...(await core.folders.delete(caller, folderId)) }),
  }),
  tool({
    name: 'assign_link_to_folder',
    scope: 'links:write',
    description: 'File a link in a folder, move it, or take it out of any folder (folderId null).',
    operation: ops.assign,
    input: { shortPath: args.shortPath, folderId: Nullable(Type.String({ description: 'The folder, or null for none' })) },
    run: async ({ shortPath, folderId }, { core, caller }) => ({ success: true, ...(await core.folders.assign(caller, shortPath, folderId)) }),
  }),
];
