import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp, TestUser } from './app.js';

/**
 * The MCP endpoint (spec 4.3) as a client sees it: the SDK's own client over real HTTP, and raw JSON-RPC POSTs
 * through app.inject for the protocol details the SDK client hides.
 */

/** Every tool of spec 4.3: Snip lists all 54. */
export const EXPECTED_TOOLS = [
  // Links
  'shorten_url', 'list_links', 'get_link', 'update_link', 'delete_link', 'bulk_shorten', 'get_recent_clicks',
  // Routing (issue 30): not in spec 4.3, Snip's own
  'resolve_link',
  // Analytics
  'get_link_stats', 'get_aggregate_stats', 'get_usage',
  // QR
  'get_qr_code', 'get_qr_settings', 'update_qr_settings',
  // Folders
  'list_folders', 'create_folder', 'update_folder', 'delete_folder', 'assign_link_to_folder',
  // Tags, templates, views
  'add_link_tag', 'remove_link_tag', 'list_utm_templates', 'create_utm_template', 'delete_utm_template',
  'list_saved_views', 'create_saved_view', 'update_saved_view', 'delete_saved_view',
  // Domains and more
  'list_domains', 'add_domain', 'verify_domain', 'update_domain', 'delete_domain', 'set_namespace', 'delete_namespace',
  'get_link_trust_score', 'export_links', 'export_link_stats',
  // Webhooks
  'list_webhooks', 'create_webhook', 'update_webhook', 'test_webhook', 'delete_webhook',
  // Affiliate
  'create_affiliate_program', 'list_affiliate_programs', 'list_affiliate_partners', 'discover_affiliate_programs',
  'join_affiliate_program', 'list_affiliate_partnerships', 'get_affiliate_stats',
  // Account
  'get_profile', 'get_agentlink_stats', 'get_agentlink_account_stats', 'list_agentlink_links', 'get_web2app_session',
] as const;

export const SERVER_INFO = { name: 'snip', version: '1.5.0+1' };

/** Listens on 127.0.0.1 on a port the kernel picks and answers the endpoint's URL. */
export async function listenMcp(t: TestApp): Promise<URL> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return new URL(`http://127.0.0.1:${port}/mcp`);
}

/** An SDK client connected (initialize + initialized) to `url` with `apiKey` as its bearer token. */
export async function connectClient(url: URL, apiKey: string): Promise<Client> {
  return connectClientAs(url, apiKey, 'test');
}

/** The same, introducing itself in initialize under `name` (clientInfo.name). */
export async function connectClientAs(url: URL, apiKey: string, name: string): Promise<Client> {
  const client = new Client({ name, version: '1' });
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${apiKey}` } } });
  await client.connect(transport);
  return client;
}

/** The clients a block opened, closed together in its afterAll. */
export class Clients {
  private readonly open: Client[] = [];
  constructor(private readonly url: () => URL) {}

  async for(user: TestUser | string): Promise<Client> {
    const client = await connectClient(this.url(), typeof user === 'string' ? user : user.apiKey);
    this.open.push(client);
    return client;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.open.splice(0).map((c) => c.close()));
  }
}

/** A tool error as Snip words it: the same `{error, code, message}` REST answers. */
export interface ToolError {
  error: true;
  code: string;
  message: string;
}

/** The JSON of a result's first (text) content item. */
export function textJson<T = unknown>(result: CallToolResult): T {
  const item = result.content.find((c) => c.type === 'text');
  expect(item, JSON.stringify(result)).toBeDefined();
  return JSON.parse((item as { text: string }).text) as T;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** Calls a tool that must succeed and answers its JSON. */
export async function ok<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = await callTool(client, name, args);
  expect(result.isError ?? false, `${name}: ${JSON.stringify(result.content)}`).toBe(false);
  return textJson<T>(result);
}

/** Calls a tool that must fail and answers its result (isError true), whatever its text. */
export async function failed(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  const result = await callTool(client, name, args);
  expect(result.isError, `${name} should fail: ${JSON.stringify(result.content)}`).toBe(true);
  return result;
}

/** Calls a tool that the service refuses with `code`; answers the error body. */
export async function refused(client: Client, name: string, args: Record<string, unknown>, code: string): Promise<ToolError> {
  const body = textJson<ToolError>(await failed(client, name, args));
  expect(body, `${name} ${JSON.stringify(args)}`).toEqual({ error: true, code, message: expect.any(String) });
  return body;
}

/** A raw JSON-RPC POST to /mcp through app.inject. */
export function rpc(
  t: TestApp,
  apiKey: string | null,
  body: unknown,
  headers: Record<string, string> = { accept: 'application/json, text/event-stream' },
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { 'content-type': 'application/json', ...headers, ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export const initializeRequest = (protocolVersion: string, id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});
