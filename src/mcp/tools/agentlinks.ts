import { Type } from '@sinclair/typebox';
import { AGENTLINK_OPERATIONS as ops } from '../../agentlinks/operations.js';
import { WEB2APP_OPERATIONS } from '../../web2app/operations.js';
import { args, tool } from '../tool.js';
import { AgentAccountStats, AgentLinkStats } from '../../agentlinks/routes.js';
import { SessionObject } from '../../web2app/routes.js';
import { LinkPageA } from './links.js';

export const agentLinkTools = [
  tool({
    name: 'get_agentlink_stats',
    title: 'Human and AI-agent clicks of a link',
    scope: 'analytics:read',
    description: 'One link: clicks by people versus AI agents (ChatGPT, Claude, Perplexity, ...), by agent.',
    operation: ops.linkStats,
    input: { shortCode: Type.String({ minLength: 1, description: 'The link: its 6-character code, or prefix/slug' }) },
    output: AgentLinkStats,
    run: async ({ shortCode }, { core, caller }) => core.agentLinks.linkStats(caller, shortCode),
  }),
  tool({
    name: 'get_agentlink_account_stats',
    title: 'Human and AI-agent clicks of your account',
    scope: 'analytics:read',
    description: 'Your account: human and AI-agent clicks, by where links were made (api, mcp, cli, dashboard) and by agent.',
    operation: ops.accountStats,
    input: {},
    output: AgentAccountStats,
    run: async (_args, { core, caller }) => core.agentLinks.accountStats(caller),
  }),
  tool({
    name: 'list_agentlink_links',
    title: 'Links made by AI assistants',
    scope: 'links:read',
    description: 'The links made over MCP (by AI assistants), newest first, with the client that made each.',
    operation: ops.list,
    input: { limit: args.limit, offset: args.offset },
    output: LinkPageA,
    run: async ({ limit, offset }, { core, caller }) => {
      const page = await core.agentLinks.list(caller, { limit: limit ?? 20, offset: offset ?? 0 });
      return { links: page.links.map((l) => core.present.detailsA(l)), pagination: { limit: page.limit, offset: page.offset, hasMore: page.hasMore, total: page.total } };
    },
  }),
  tool({
    name: 'get_web2app_session',
    title: 'Web2app session',
    scope: 'analytics:read',
    description: 'A web2app session of one of your links (Pro plan and above): platform, whether the app claimed it, and when it expires.',
    operation: WEB2APP_OPERATIONS.get,
    input: { sessionId: Type.String({ description: 'The session id (the snip_sid the app was opened with)' }) },
    output: SessionObject,
    run: async ({ sessionId }, { core, caller }) => core.web2app.get(caller, sessionId),
  }),
];
