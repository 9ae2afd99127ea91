import { Type } from '@sinclair/typebox';
import { DateTime, Nullable } from '../schema/shapes.js';
import { named } from '../schema/names.js';

const Color = (description: string) => Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description });

// Name lengths are checked by the service after trimming, so the schema only says what they are.
const Name = (max: number) => Type.String({ description: `1-${max} characters after trimming; unique in the account, ignoring case` });

export const FolderObject = named('Folder', 'A folder of links', Type.Object({
  id: Type.String(),
  name: Type.String(),
  color: Nullable(Color('Hex code #RRGGBB (upper case)')),
  linkCount: Type.Integer({ description: "The account's links in this folder" }),
  createdAt: DateTime(),
}));

export const FolderListA = Type.Object({
  folders: Type.Array(FolderObject),
  limit: Nullable(Type.Integer({ description: "The plan's maximum number of folders; null is unlimited" })),
  canCreate: Type.Boolean({ description: 'True while the account is below the limit' }),
});

export const FolderListB = Type.Object({
  folders: Type.Array(FolderObject),
  limit: Type.Union([Type.Integer(), Type.Literal('unlimited')], { description: "The plan's maximum number of folders" }),
  canCreate: Type.Boolean({ description: 'True while the account is below the limit' }),
});

export const CreateFolderBody = (maxName: number) =>
  Type.Object({
    name: Name(maxName),
    color: Type.Optional(Nullable(Color('Hex code #RRGGBB, either case'))),
  });

export const UpdateFolderBody = (maxName: number) =>
  Type.Object(
    {
      name: Type.Optional(Name(maxName)),
      color: Type.Optional(Nullable(Color('Hex code #RRGGBB; null removes the colour'))),
    },
    { minProperties: 1 },
  );

export const FolderParams = Type.Object({ folderId: Type.String() });

export const AssignBody = Type.Object({
  folderId: Nullable(Type.String({ description: "One of the caller's folders; null takes the link out of any folder" })),
});

export const AssignResult = Type.Object({ success: Type.Boolean(), folderId: Nullable(Type.String()) });
