import { Type } from '@sinclair/typebox';
import { requireChange } from '../../errors.js';
import { args, tool } from '../tool.js';
import { TAG_OPERATIONS } from '../../tags/operations.js';
import { UTM_OPERATIONS } from '../../utm/operations.js';
import { VIEW_OPERATIONS } from '../../views/operations.js';
import { SuccessMessage } from '../../schema/shapes.js';
import { LinkTagsResult } from '../../tags/schemas.js';
import { UtmTemplateList, UtmTemplateObject } from '../../utm/schemas.js';
import { SavedViewList, SavedViewObject } from '../../views/schemas.js';

const utm = (name: string) => Type.Optional(Type.String({ description: `Value of ${name}` }));
const filters = Type.Object(
  {
    folderId: Type.Optional(Type.String({ description: 'A folder id, or "none" for unfiled links' })),
    tag: Type.Optional(Type.String()),
    domain: Type.Optional(Type.String({ description: 'One of your custom domains' })),
    search: Type.Optional(Type.String({ description: 'Substring of the destination, code or slug' })),
  },
  // Unknown keys reach the service, which refuses them with REST's INVALID_FILTERS.
  { description: 'Link-list filters; every one given applies' },
);

export const organiseTools = [
  tool({
    name: 'add_link_tag',
    title: 'Tag a link',
    scope: 'links:write',
    description: 'Tag one of your links (1-30 characters; up to 20 tags per link). Adding an existing tag changes nothing.',
    operation: TAG_OPERATIONS.add,
    input: { shortPath: args.shortPath, tag: Type.String() },
    output: LinkTagsResult,
    // Adding a tag the link has (in any case) changes nothing.
    hints: { idempotentHint: true },
    run: async ({ shortPath, tag }, { core, caller }) => core.tags.add(caller, shortPath, tag),
  }),
  tool({
    name: 'remove_link_tag',
    title: 'Remove a tag from a link',
    scope: 'links:write',
    description: 'Remove a tag from one of your links.',
    operation: TAG_OPERATIONS.remove,
    input: { shortPath: args.shortPath, tag: Type.String() },
    output: LinkTagsResult,
    run: async ({ shortPath, tag }, { core, caller }) => core.tags.remove(caller, shortPath, tag),
  }),
  tool({
    name: 'list_utm_templates',
    title: 'List UTM templates',
    scope: 'links:read',
    description: 'Your UTM templates (named sets of utm_* parameters added to destinations when shortening).',
    operation: UTM_OPERATIONS.list,
    input: {},
    output: UtmTemplateList,
    run: async (_args, { core, caller }) => core.utmTemplates.list(caller),
  }),
  tool({
    name: 'create_utm_template',
    title: 'Create a UTM template',
    scope: 'links:write',
    description: 'Create a UTM template; use its id as utmTemplateId in shorten_url.',
    operation: UTM_OPERATIONS.create,
    input: {
      name: Type.String(),
      utmSource: utm('utm_source'),
      utmMedium: utm('utm_medium'),
      utmCampaign: utm('utm_campaign'),
      utmTerm: utm('utm_term'),
      utmContent: utm('utm_content'),
    },
    output: UtmTemplateObject,
    run: async (input, { core, caller }) => core.utmTemplates.create(caller, input),
  }),
  tool({
    name: 'delete_utm_template',
    title: 'Delete a UTM template',
    scope: 'links:write',
    description: 'Delete a UTM template (links already made keep their parameters).',
    operation: UTM_OPERATIONS.delete,
    input: { templateId: Type.String() },
    // REST's answer, with the template that was deleted.
    output: Type.Object({ ...SuccessMessage.properties, template: UtmTemplateObject }),
    run: async ({ templateId }, { core, caller }) => ({ success: true, message: 'UTM template deleted', template: await core.utmTemplates.delete(caller, templateId) }),
  }),
  tool({
    name: 'list_saved_views',
    title: 'List saved views',
    scope: 'links:read',
    description: 'Your saved views: named link-list filters.',
    operation: VIEW_OPERATIONS.list,
    input: {},
    output: SavedViewList,
    run: async (_args, { core, caller }) => core.savedViews.list(caller),
  }),
  tool({
    name: 'create_saved_view',
    title: 'Save a view',
    scope: 'links:write',
    description: 'Save a named link-list filter; list_links with view=<id> applies it.',
    operation: VIEW_OPERATIONS.create,
    input: { name: Type.String(), filters },
    output: SavedViewObject,
    run: async (input, { core, caller }) => core.savedViews.create(caller, input),
  }),
  tool({
    name: 'update_saved_view',
    title: 'Update a saved view',
    scope: 'links:write',
    description: 'Rename a saved view or replace its filters.',
    operation: VIEW_OPERATIONS.update,
    input: { viewId: Type.String(), name: Type.Optional(Type.String()), filters: Type.Optional(filters) },
    output: SavedViewObject,
    run: async ({ viewId, ...input }, { core, caller }) => {
      // The views service treats an empty change as "nothing to do"; a tool call naming nothing is a mistake.
      requireChange(input);
      return core.savedViews.update(caller, viewId, input);
    },
  }),
  tool({
    name: 'delete_saved_view',
    title: 'Delete a saved view',
    scope: 'links:write',
    description: 'Delete a saved view (the links are untouched).',
    operation: VIEW_OPERATIONS.delete,
    input: { viewId: Type.String() },
    // REST's answer, with the view that was deleted.
    output: Type.Object({ ...SuccessMessage.properties, view: SavedViewObject }),
    run: async ({ viewId }, { core, caller }) => ({ success: true, message: 'Saved view deleted', view: await core.savedViews.delete(caller, viewId) }),
  }),
];
