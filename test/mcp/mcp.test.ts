import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectName, useTestApp } from '../helpers/app.js';
import { Clients, connectClient, EXPECTED_TOOLS, initializeRequest, listenMcp, ok, rpc, SERVER_INFO } from '../helpers/mcp.js';

/**
 * The MCP endpoint's protocol (spec 4.3, 5, 9): POST /mcp is stateless JSON-RPC 2.0 answered in JSON, driven here
 * by the SDK's own client over real HTTP and by raw JSON-RPC POSTs; the handshake of protocol 2024-11-05 and of
 * the newer versions the SDK knows; authentication; GET and DELETE 405; the tool list. What each tool does is in
 * mcp-tools.test.ts (beside this file).
 */

const TOOLS_LIST = { jsonrpc: '2.0', id: 7, method: 'tools/list' };

interface JsonRpcAnswer {
  jsonrpc: string;
  id: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** A POST refused whole: the status, and a JSON-RPC error with no id whose data.code is REST's code. */
function expectRefusal(res: LightMyRequestResponse, status: number, code: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.any(String), data: { code } } });
}

/** A JSON-RPC answer in a 200 JSON body, asserting the HTTP side of a stateless endpoint: no session id. */
function answer(res: LightMyRequestResponse, status = 200): JsonRpcAnswer {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['mcp-session-id']).toBeUndefined();
  const body = res.json<JsonRpcAnswer>();
  expect(body.jsonrpc).toBe('2.0');
  return body;
}

describe(`MCP protocol: the SDK client over HTTP (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');
  const free = t.user('free');
  let url: URL;
  const clients = new Clients(() => url);

  beforeAll(async () => {
    url = await listenMcp(t);
  });
  afterAll(() => clients.closeAll());

  it('initializes: serverInfo {name: snip, version: 1.5.0+1}, the tools capability, a protocol version the SDK supports', async () => {
    const client = await clients.for(pro);
    expect(client.getServerVersion()).toEqual(SERVER_INFO);
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    // The endpoint keeps no session: the SDK client holds no session id after initializing.
    const transport = client.transport as StreamableHTTPClientTransport;
    expect(transport.sessionId).toBeUndefined();
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
  });

  it('every plan may connect: a Free account initializes and lists the same tools as Pro', async () => {
    const freeClient = await clients.for(free);
    const proClient = await clients.for(pro);
    expect(freeClient.getServerVersion()).toEqual(SERVER_INFO);
    const names = (c: Client) => c.listTools().then((r) => r.tools.map((tool) => tool.name));
    expect(await names(freeClient)).toEqual(await names(proClient));
  });

  it('one client makes many calls, each its own POST (no session to lose)', async () => {
    const client = await clients.for(pro);
    for (let i = 0; i < 3; i++) expect((await ok(client, 'get_profile')).email).toBe(pro.email);
    expect(await client.ping()).toEqual({});
  });

  it('refuses to connect without a valid key: the SDK client sees the 401', async () => {
    for (const key of ['snip_' + 'x'.repeat(40), 'not-a-key']) {
      await expect(connectClient(url, key)).rejects.toMatchObject({ code: 401, message: expect.stringMatching(/INVALID_API_KEY/) });
    }
  });

  it('a revoked key no longer connects; the account`s other key still does', async () => {
    const user = await t.createUser('pro');
    const second = await t.core.accounts.createKey(user.id);
    await t.core.accounts.revokeKey(user.id, second.id);
    await expect(connectClient(url, second.apiKey)).rejects.toMatchObject({ code: 401, message: expect.stringMatching(/INVALID_API_KEY/) });
    const client = await clients.for(user);
    expect((await ok(client, 'get_profile')).email).toBe(user.email);
  });
});

describe(`MCP protocol: raw JSON-RPC over POST /mcp (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');

  it('answers the 2024-11-05 handshake in 2024-11-05, then serves that client without a session', async () => {
    const init = answer(await rpc(t, pro.apiKey, initializeRequest('2024-11-05', 1)));
    expect(init.id).toBe(1);
    expect(init.error).toBeUndefined();
    expect(init.result).toEqual({ protocolVersion: '2024-11-05', capabilities: { tools: expect.any(Object) }, serverInfo: SERVER_INFO });

    // notifications/initialized: accepted, no body.
    const note = await rpc(t, pro.apiKey, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(note.statusCode).toBe(202);
    expect(note.body).toBe('');
    expect(note.headers['mcp-session-id']).toBeUndefined();

    // A 2024-11-05 client sends no MCP-Protocol-Version header; one that does is served too.
    const variants: Record<string, string>[] = [{ accept: 'application/json, text/event-stream' }, { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2024-11-05' }];
    for (const headers of variants) {
      const list = answer(await rpc(t, pro.apiKey, TOOLS_LIST, headers));
      expect((list.result!.tools as Tool[]).map((tool) => tool.name)).toContain('shorten_url');
    }
    const call = answer(await rpc(t, pro.apiKey, { jsonrpc: '2.0', id: 'c-1', method: 'tools/call', params: { name: 'get_profile', arguments: {} } }));
    expect(call.id).toBe('c-1');
    const content = (call.result as { content: { type: string; text: string }[] }).content;
    expect(JSON.parse(content[0]!.text)).toMatchObject({ email: pro.email, tier: 'pro' });
  });

  it.each(SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v !== '2024-11-05'))('echoes protocol version %s, which the SDK supports', async (version) => {
    const init = answer(await rpc(t, pro.apiKey, initializeRequest(version)));
    expect(init.result).toMatchObject({ protocolVersion: version, serverInfo: SERVER_INFO });
  });

  it('answers a protocol version it does not know with the latest one it supports', async () => {
    const init = answer(await rpc(t, pro.apiKey, initializeRequest('1999-01-01')));
    expect(init.result).toMatchObject({ protocolVersion: LATEST_PROTOCOL_VERSION, serverInfo: SERVER_INFO });
  });

  it('is stateless: tools/list and tools/call work in a fresh POST without initialize, and no answer carries Mcp-Session-Id', async () => {
    const list = answer(await rpc(t, pro.apiKey, TOOLS_LIST));
    expect(list.id).toBe(7);
    expect((list.result!.tools as Tool[]).length).toBeGreaterThan(0);
    const call = answer(await rpc(t, pro.apiKey, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'get_usage', arguments: {} } }));
    expect(call.result).toMatchObject({ content: [{ type: 'text' }] });
    expect(call.result!.isError).toBeUndefined();
  });

  it('ignores an Mcp-Session-Id a client sends anyway (there are no sessions to check it against)', async () => {
    const list = answer(await rpc(t, pro.apiKey, TOOLS_LIST, { accept: 'application/json, text/event-stream', 'mcp-session-id': 'made-up' }));
    expect(list.result!.tools).toBeDefined();
  });

  it('refuses an MCP-Protocol-Version header it does not support: 400 with a JSON-RPC error', async () => {
    const res = await rpc(t, pro.apiKey, TOOLS_LIST, { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '1999-01-01' });
    const body = answer(res, 400);
    expect(body.error).toMatchObject({ code: expect.any(Number), message: expect.stringMatching(/protocol version/i) });
  });

  it.each([
    ['Accept: application/json only', { accept: 'application/json' }],
    ['Accept: text/event-stream only', { accept: 'text/event-stream' }],
    ['Accept: */*', { accept: '*/*' }],
    ['no Accept header', {}],
  ])('%s: still answered in JSON', async (_label, headers) => {
    const list = answer(await rpc(t, pro.apiKey, TOOLS_LIST, headers));
    expect((list.result!.tools as Tool[]).map((tool) => tool.name)).toContain('get_profile');
  });

  it('answers ping', async () => {
    expect(answer(await rpc(t, pro.apiKey, { jsonrpc: '2.0', id: 3, method: 'ping' }))).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
  });

  it('an unknown method is JSON-RPC error -32601, with the request id', async () => {
    const body = answer(await rpc(t, pro.apiKey, { jsonrpc: '2.0', id: 42, method: 'resources/nonsense' }));
    expect(body).toEqual({ jsonrpc: '2.0', id: 42, error: { code: -32601, message: expect.any(String) } });
  });

  it('an unknown tool is a tool error (isError) naming it', async () => {
    const body = answer(await rpc(t, pro.apiKey, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'get_affiliate_report', arguments: {} } }));
    const result = body.result as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/get_affiliate_report/);
  });

  it.each([
    ['no jsonrpc member', { id: 1, method: 'tools/list' }],
    ['jsonrpc 1.0', { jsonrpc: '1.0', id: 1, method: 'tools/list' }],
    ['a number', 42],
    ['a string', 'tools/list'],
    ['an object without method, result or error', { jsonrpc: '2.0', id: 1 }],
  ])('a malformed JSON-RPC message (%s) is 400 with JSON-RPC error -32700 and id null', async (_label, body) => {
    const res = await rpc(t, pro.apiKey, typeof body === 'string' ? JSON.stringify(body) : body);
    const error = answer(res, 400);
    expect(error).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });
  });

  it('tools/call whose params are not what tools/call takes is a JSON-RPC error, not a result', async () => {
    for (const params of [undefined, { name: 'get_profile', arguments: 'not an object' }]) {
      const body = answer(await rpc(t, pro.apiKey, { jsonrpc: '2.0', id: 9, method: 'tools/call', ...(params ? { params } : {}) }));
      expect(body.id).toBe(9);
      expect(body.result).toBeUndefined();
      expect(body.error).toEqual({ code: expect.any(Number), message: expect.any(String) });
      expect(body.error!.code).toBeLessThan(-32000);
    }
  });

  // A body that is not JSON at all is JSON-RPC's parse error, not Snip's REST error body.
  it('a body that is not JSON is JSON-RPC parse error -32700 (id null)', async () => {
    const res = await rpc(t, pro.apiKey, '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(answer(res, 400)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String), data: { code: 'INVALID_JSON' } } });
  });

  it('a body that is not JSON is at least a 400 that names the problem, with no session', async () => {
    const res = await rpc(t, pro.apiKey, '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(res.statusCode).toBe(400);
    expect(res.headers['mcp-session-id']).toBeUndefined();
  });

  // Every answer on /mcp is JSON-RPC (issue 26): REST's code is the error's data.code.
  it('without a key: 401 API_KEY_REQUIRED', async () => {
    expectRefusal(await rpc(t, null, TOOLS_LIST), 401, 'API_KEY_REQUIRED');
    expectRefusal(await rpc(t, null, initializeRequest('2024-11-05')), 401, 'API_KEY_REQUIRED');
  });

  it.each([
    ['an unknown key of the right shape', `snip_${'x'.repeat(40)}`],
    ['a string that is no key at all', 'hello'],
  ])('with %s: 401 INVALID_API_KEY', async (_label, key) => {
    expectRefusal(await rpc(t, key, TOOLS_LIST), 401, 'INVALID_API_KEY');
  });

  it('a missing key is refused before the body is read: a malformed body without a key is still 401', async () => {
    expectRefusal(await rpc(t, null, '{not json'), 401, 'API_KEY_REQUIRED');
  });

  it.each(['GET', 'DELETE'] as const)('%s /mcp is 405 with Allow: POST and a JSON-RPC error body, with or without a key', async (method) => {
    for (const headers of [{ authorization: `Bearer ${pro.apiKey}`, accept: 'text/event-stream' }, {}]) {
      const res = await t.app.inject({ method, url: '/mcp', headers });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect(res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number), message: expect.any(String) } });
    }
  });
});

describe(`MCP protocol: the tool list (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');
  let url: URL;
  const clients = new Clients(() => url);
  let tools: Tool[];

  beforeAll(async () => {
    url = await listenMcp(t);
    tools = (await (await clients.for(pro)).listTools()).tools;
  });
  afterAll(() => clients.closeAll());

  it(`lists exactly the ${EXPECTED_TOOLS.length} tools of spec 4.3 that Snip offers, each once`, () => {
    const names = tools.map((tool) => tool.name);
    // The 54 of spec 4.3, and resolve_link (issue 30).
    expect(EXPECTED_TOOLS).toHaveLength(55);
    expect([...names].sort()).toEqual([...EXPECTED_TOOLS].sort());
    expect(new Set(names).size).toBe(names.length);
  });

  it('gives every tool a description and an object inputSchema', () => {
    for (const tool of tools) {
      expect(tool.description, tool.name).toEqual(expect.any(String));
      expect(tool.description!.trim().length, tool.name).toBeGreaterThan(10);
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.inputSchema.properties ?? {}, tool.name).toEqual(expect.any(Object));
    }
  });

  it('shorten_url takes url (a required string) and slug (an optional string)', () => {
    const shorten = tools.find((tool) => tool.name === 'shorten_url')!;
    const properties = shorten.inputSchema.properties as Record<string, { type?: string }>;
    expect(properties.url).toMatchObject({ type: 'string' });
    expect(properties.slug).toMatchObject({ type: 'string' });
    expect(shorten.inputSchema.required).toContain('url');
    expect(shorten.inputSchema.required ?? []).not.toContain('slug');
  });

  it('tools that name a link require it: shortPath (or shortCode) is required wherever it appears outside the account-wide ones', () => {
    const optionalLink = new Set(['get_aggregate_stats']);
    for (const tool of tools) {
      const properties = Object.keys(tool.inputSchema.properties ?? {});
      for (const name of ['shortPath', 'shortCode'].filter((p) => properties.includes(p))) {
        if (optionalLink.has(tool.name)) expect(tool.inputSchema.required ?? [], tool.name).not.toContain(name);
        else expect(tool.inputSchema.required, tool.name).toContain(name);
      }
    }
  });

  it('the SDK client`s list is the raw tools/list answer', async () => {
    const raw = answer(await rpc(t, pro.apiKey, TOOLS_LIST));
    expect(raw.result!.tools).toEqual(tools);
  });
});
