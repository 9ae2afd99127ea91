import { Type } from '@sinclair/typebox';
import { DateTime } from '../schema/shapes.js';
import { SEARCH_MAX } from './filters.js';
import { VIEW_NAME_MAX } from './service.js';
import { named } from '../schema/names.js';

const filterFields = {
  folderId: Type.Optional(Type.String({ description: "One of the caller's folders; `none`: the links in no folder" })),
  tag: Type.Optional(Type.String({ description: 'Links carrying this tag, in any case' })),
  domain: Type.Optional(Type.String({ description: 'Links whose short URL is on this custom domain' })),
  search: Type.Optional(Type.String({ description: `Text (1-${SEARCH_MAX} characters) the destination, code or slug contains, ignoring case` })),
};

/** The filters a view answers with: only the keys it has. */
export const ViewFiltersOut = named('ViewFilters', 'Every filter given applies', Type.Object(filterFields));

/**
 * The filters a client sends. Checked by the service, strictly: unknown keys or non-string values are
 * INVALID_FILTERS, where a schema would have dropped or coerced them. The keys are those of ViewFiltersOut.
 */
const ViewFiltersIn = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  description: `Only ${Object.keys(filterFields).join(', ')}, each a string (see the view object's filters); {} lists every link`,
});

export const SavedViewObject = named('SavedView', 'A saved view: link-list filters under a name', Type.Object({
  id: Type.String(),
  name: Type.String(),
  filters: ViewFiltersOut,
  createdAt: DateTime(),
  updatedAt: DateTime(),
}));

export const SavedViewList = Type.Object({ views: Type.Array(SavedViewObject, { description: 'Oldest first' }) });

const Name = Type.String({ description: `1-${VIEW_NAME_MAX} characters after trimming; unique in the account, ignoring case` });

export const CreateSavedViewBody = Type.Object({ name: Name, filters: ViewFiltersIn });

export const UpdateSavedViewBody = Type.Object(
  { name: Type.Optional(Name), filters: Type.Optional({ ...ViewFiltersIn, description: 'Replaces the view\'s filters as a whole' }) },
  { minProperties: 1 },
);

export const SavedViewParams = Type.Object({ id: Type.String() });
