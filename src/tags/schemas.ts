import { Type } from '@sinclair/typebox';
import { MAX_TAGS_PER_LINK, TAG_MAX_LENGTH } from './rules.js';

const shortPath = Type.String({ description: '6-character code, or the URL-encoded namespaced path prefix%2Fslug' });
const tagText = `1-${TAG_MAX_LENGTH} characters after trimming: letters, digits, spaces, hyphens, underscores`;

export const LinkTagParams = Type.Object({ shortPath });
export const LinkTagOneParams = Type.Object({ shortPath, tag: Type.String({ description: 'The tag, URL-encoded; any case' }) });

// The length and characters are checked by the service after trimming, so the schema only says what they are.
export const AddTagBody = Type.Object({ tag: Type.String({ description: `${tagText}; the same tag in another case is the same tag` }) });

export const LinkTagsResult = Type.Object({
  tags: Type.Array(Type.String(), { maxItems: MAX_TAGS_PER_LINK, description: "The link's tags as written, sorted ignoring case" }),
});

export const TagParams = Type.Object({ tag: Type.String({ description: "One of the caller's tags, URL-encoded; any case" }) });

// Checked by the service after trimming, as a tag is, so the schema only says what it is.
export const RenameTagBody = Type.Object({ name: Type.String({ description: `The new name: ${tagText}; not another tag the caller uses` }) });

export const RenamedTag = Type.Object({
  tag: Type.String({ description: 'The tag under its new name, as every link now writes it' }),
  linkCount: Type.Integer({ description: "The account's links carrying it" }),
});

export const DeletedTag = Type.Object({
  tag: Type.String({ description: 'The tag deleted' }),
  linkCount: Type.Integer({ description: 'The links it was taken off; the links themselves stay' }),
});

export const TagList = Type.Object({
  tags: Type.Array(
    Type.Object({
      tag: Type.String({ description: 'The tag, as most of its links write it' }),
      linkCount: Type.Integer({ description: "The account's links carrying it" }),
    }),
    { description: "The account's tags, sorted ignoring case" },
  ),
});
