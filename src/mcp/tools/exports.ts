import { Type } from '@sinclair/typebox';
import { PERIODS } from '../../analytics/service.js';
import { args, tool } from '../tool.js';
import { ACCOUNT_OPERATIONS } from '../../accounts/operations.js';
import { EXPORT_OPERATIONS as ops } from '../../exports/operations.js';
import { NamespaceReleased } from '../../accounts/routes-b.js';

const format = Type.Optional(args.oneOf(['csv', 'json'], 'csv (default) or json'));

/** An export as a tool answer: the file's name and type, and its content as text. */
const file = (f: { contentType: string; filename: string; body: string }) => ({ filename: f.filename, contentType: f.contentType, content: f.body });

/** The tool's own shape: REST answers the file itself (its Content-Disposition names it), a tool answers JSON. */
const ExportFile = Type.Object({
  filename: Type.String(),
  contentType: Type.String({ description: 'text/csv or application/json' }),
  content: Type.String({ description: 'The file: CSV text, or JSON text as REST answers it' }),
});

export const exportTools = [
  tool({
    name: 'export_links',
    title: 'Export links',
    scope: 'links:read',
    description: 'Export all your links as CSV or JSON (Pro and above).',
    operation: ops.links,
    input: { format },
    output: ExportFile,
    run: async ({ format }, { core, caller }) => file(await core.exports.links(caller, { format })),
  }),
  tool({
    name: 'export_link_stats',
    title: 'Export link statistics',
    scope: 'analytics:read',
    description: "Export one link's statistics over a period as CSV or JSON (Pro and above; your plan's history limit applies).",
    operation: ops.linkStats,
    input: { shortPath: args.shortPath, format, period: Type.Optional(args.oneOf(PERIODS, '7d, 30d (default), 90d or 365d')) },
    output: ExportFile,
    run: async ({ shortPath, ...options }, { core, caller }) => file(await core.exports.linkStats(caller, shortPath, options)),
  }),
  tool({
    name: 'delete_namespace',
    title: 'Release a namespace',
    scope: 'account:write',
    description: 'Release a namespace you hold that is not your current one and has no links (Pro and above).',
    operation: ACCOUNT_OPERATIONS.releaseNamespace,
    input: { namespace: Type.String() },
    output: NamespaceReleased,
    run: async ({ namespace }, { core, caller }) => ({ success: true, ...(await core.accounts.releaseNamespace(caller.accountId, namespace)) }),
  }),
];
