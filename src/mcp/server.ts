import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { portableSchema } from './portable-schema.js';
import { register, type ToolContext } from './tool.js';
import { accountTools } from './tools/account.js';
import { analyticsTools } from './tools/analytics.js';
import { domainTools } from './tools/domains.js';
import { folderTools } from './tools/folders.js';
import { linkTools } from './tools/links.js';
import { qrTools } from './tools/qr.js';
import { webhookTools } from './tools/webhooks.js';
import { exportTools } from './tools/exports.js';
import { organiseTools } from './tools/organise.js';

type ListTools = (request: unknown, extra: unknown) => Promise<{ tools: Array<{ inputSchema: unknown }> }>;

/**
 * tools/list as the SDK builds it, with each input schema in the single-type dialect (portable-schema.ts). The SDK
 * offers no hook for the listed schemas, so its handler is wrapped (the SDK version is pinned by the lockfile;
 * test/mcp-tools.test.ts checks the listing).
 */
function listPortably(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, ListTools> })._requestHandlers;
  const original = handlers.get('tools/list');
  if (!original) return;
  handlers.set('tools/list', async (request, extra) => {
    const listed = await original(request, extra);
    return { ...listed, tools: listed.tools.map((t) => ({ ...t, inputSchema: portableSchema(t.inputSchema) })) };
  });
}

export const SERVER_INFO = { name: 'snip', version: '1.5.0+1' };

/** Every tool Snip lists, in the order of spec 4.3's groups. */
export const TOOLS = [...linkTools, ...analyticsTools, ...qrTools, ...folderTools, ...organiseTools, ...domainTools, ...exportTools, ...webhookTools, ...accountTools];

const POLICY_BY_TOOL = new Map(TOOLS.map((spec) => [spec.name, spec.policy]));

/** The policy of the tool of that name (undefined for an unknown tool, which the SDK answers as an error). */
export const toolPolicy = (name: string) => POLICY_BY_TOOL.get(name);

/**
 * One MCP server per request (the endpoint is stateless), bound to the caller the request authenticated as,
 * so every tool runs with the tier as it is right now.
 */
export function mcpServer(context: ToolContext): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} } });
  for (const spec of TOOLS) register(server, spec, context);
  listPortably(server);
  return server;
}
