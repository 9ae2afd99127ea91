import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { callTool, listing, unknownTool, type ToolContext } from './tool.js';
import { accountTools } from './tools/account.js';
import { analyticsTools } from './tools/analytics.js';
import { domainTools } from './tools/domains.js';
import { folderTools } from './tools/folders.js';
import { linkTools } from './tools/links.js';
import { qrTools } from './tools/qr.js';
import { webhookTools } from './tools/webhooks.js';
import { exportTools } from './tools/exports.js';
import { organiseTools } from './tools/organise.js';
import { affiliateTools } from './tools/affiliate.js';
import { agentLinkTools } from './tools/agentlinks.js';

export const SERVER_INFO = { name: 'snip', version: '1.5.0+1' };

/** Every tool Snip lists, in the order of spec 4.3's groups. */
export const TOOLS = [...linkTools, ...analyticsTools, ...qrTools, ...folderTools, ...organiseTools, ...domainTools, ...exportTools, ...webhookTools, ...affiliateTools, ...accountTools, ...agentLinkTools];

const TOOL_BY_NAME = new Map(TOOLS.map((spec) => [spec.name, spec]));

/** The tool of that name (undefined for an unknown tool, which is answered as a tool error). */
export const toolNamed = (name: string) => TOOL_BY_NAME.get(name);

/**
 * tools/list: each tool with its title, its annotations and its schemas in portable JSON Schema (src/mcp/json-schema.ts):
 * the input schema is the one calls are checked by, the output schema the one structuredContent follows.
 */
const LISTED = { tools: TOOLS.map(listing) };

/**
 * One MCP server per request (the endpoint is stateless), bound to the caller the request authenticated as,
 * so every tool runs with the tier as it is right now.
 */
export function mcpServer(context: ToolContext): Server {
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => LISTED);
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const spec = TOOL_BY_NAME.get(request.params.name);
    return spec ? callTool(spec, request.params.arguments, context, extra.requestId) : unknownTool(request.params.name);
  });
  return server;
}
