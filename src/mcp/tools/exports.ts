import { Type } from '@sinclair/typebox';
import { PERIODS } from '../../analytics/service.js';
import { args, tool } from '../tool.js';
import { ACCOUNT_OPERATIONS } from '../../accounts/operations.js';
import { EXPORT_OPERATIONS as ops } from '../../exports/operations.js';

const format = Type.Optional(args.oneOf(['csv', 'json'], 'csv (default) or json'));

/** An export as a tool answer: the file's name and type, and its content as text. */
const file = (f: { contentType: string; filename: string; body: string }) => ({ filename: f.filename, contentType: f.contentType, content: f.body });

export const exportTools = [
  tool({
    name: 'export_links',
    scope: 'links:read',
    description: 'Export all your links as CSV or JSON (Pro and above).',
    operation: ops.links,
    input: { format },
    run: async ({ format }, { core, caller }) => file(await core.exports.links(caller, { format })),
  }),
  tool({
    name: 'export_link_stats',
    scope: 'analytics:read',
    description: "Export one link's statistics over a period as CSV or JSON (Pro and above; your plan's history limit applies).",
    operation: ops.linkStats,
    input: { shortPath: args.shortPath, format, period: Type.Optional(args.oneOf(PERIODS, '7d, 30d (default), 90d or 365d')) },
    run: async ({ shortPath, ...options }, { core, caller }) => file(await core.exports.linkStats(caller, shortPath, options)),
  }),
  tool({
    name: 'delete_namespace',
    scope: 'account:write',
    description: 'Release a namespace you hold that is not your current one and has no links (Pro and above).',
    operation: ACCOUNT_OPERATIONS.releaseNamespace,
    input: { namespace: Type.String() },
    run: async ({ namespace }, { core, caller }) => ({ success: true, ...(await core.accounts.releaseNamespace(caller.accountId, namespace)) }),
  }),
];
