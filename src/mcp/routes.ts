import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Type } from '@sinclair/typebox';
import type { Caller } from '../caller.js';
import type { Core } from '../core.js';
import { admitCalls } from './admission.js';
import { callerOf } from '../http/access.js';
import { rateLimitHeaders } from '../usage/service.js';
import { bearerChallenge, toAppError } from '../http/error-handler.js';
import { errors } from '../errors.js';
import { JsonRpcRefusalSchema, refusalOf } from './json-rpc.js';
import { checkBatch, originAllowed, registerMcpBody } from './request-checks.js';
import { mcpServer, toolNamed } from './server.js';

/**
 * The caller as an MCP client: links it makes carry `source: mcp` and the client's name. The endpoint is stateless,
 * so the name a client gives in `initialize` (clientInfo.name) is remembered for its key and read with it on
 * every later POST.
 */
async function mcpCaller(core: Core, caller: Caller, body: unknown): Promise<Caller> {
  const messages = Array.isArray(body) ? body : [body];
  const init = messages.find((m): m is { method: string; params?: { clientInfo?: { name?: unknown } } } => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize');
  const clientName = init ? await core.accounts.rememberMcpClient(caller.keyId, init.params?.clientInfo?.name) : null;
  return clientName === null ? { ...caller, via: 'mcp' } : { ...caller, via: 'mcp', clientName };
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'www-authenticate, mcp-session-id, mcp-protocol-version, retry-after, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset',
};
const PREFLIGHT = {
  'access-control-allow-methods': 'POST, GET, DELETE, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id',
  'access-control-max-age': '86400',
};

const JsonRpc = Type.Unknown({ description: 'A JSON-RPC 2.0 request (or batch)' });
const tags = ['mcp'];

/**
 * `POST /mcp`: the MCP endpoint, stateless (no session; each POST stands alone), answering JSON. Every plan may
 * connect: tools above the caller's plan answer a tool error naming the plan to upgrade to.
 */
export const mcpRoutes =
  (core: Core, resourceMetadata: string): FastifyPluginAsyncTypebox =>
  async (app) => {
    const ownHost = new URL(core.config.baseUrl).host;
    // Every answer on /mcp is JSON-RPC: a refusal of the whole POST (the host, the Origin, the key, the body, the batch,
    // the rate limits) is a JSON-RPC error with no id, under REST's status and headers for it, data.code REST's code.
    app.setErrorHandler(async (error, request, reply) => {
      const appError = toAppError(error as Error);
      if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
      reply.headers(appError.headers);
      if (appError.status === 401) reply.header('www-authenticate', bearerChallenge(appError.code, request.routeOptions.config?.access));
      return reply.status(appError.status).send(refusalOf(appError));
    });
    registerMcpBody(app);

    // Browser-based MCP clients call from their own origin with a bearer token (never a cookie): any http(s) origin
    // may, and may read the 401's WWW-Authenticate, where the OAuth discovery starts; an Origin that is no such
    // origin is 403 (src/mcp/request-checks.ts).
    app.addHook('onRequest', async (request, reply) => {
      reply.headers(CORS);
      // A tool's answer may hold a secret shown once (create_webhook's signing secret): no cache keeps any.
      reply.header('cache-control', 'no-store');
      if (!originAllowed(request.headers.origin)) throw errors.originNotAllowed();
    });
    app.options(
      '/mcp',
      { schema: { tags, operationId: 'mcpOptions', summary: 'CORS preflight for browser-based MCP clients', response: { 204: Type.Null({ description: 'Allowed' }) } } },
      async (_request, reply) => reply.status(204).headers(PREFLIGHT).send(null),
    );

    app.post(
      '/mcp',
      {
        // The POST itself is not charged: each JSON-RPC call in it is, as the same call over REST would be.
        // An API key or an OAuth access token issued for this endpoint (src/oauth/); a 401 says where to get one.
        config: { surface: 'A', access: { auth: 'required', minTier: 'any', charged: false, oauth: resourceMetadata }, errors: ['ORIGIN_NOT_ALLOWED', 'RATE_LIMITED', 'INVALID_PARAMS'] },
        schema: {
          tags,
          operationId: 'mcpPost',
          summary: 'MCP over streamable HTTP (JSON-RPC 2.0), stateless',
          description: "For AI assistants and other MCP clients: Snip's operations as tools, called with an API key or an OAuth access token. Each POST stands alone (no session); each tool call in it is charged as its REST twin would be.",
          body: JsonRpc,
          response: {
            200: { description: 'JSON-RPC 2.0 response', content: { 'application/json': { schema: {} } } },
            ...Object.fromEntries([400, 401, 403, 413, 415, 421, 429].map((status) => [status, JsonRpcRefusalSchema])),
          },
        },
      },
      async (request, reply) => {
        checkBatch(request.body);
        const caller = await mcpCaller(core, callerOf(request), request.body);
        const { admissions, state } = await admitCalls(core, caller, request.body, toolNamed);
        if (state) reply.headers(rateLimitHeaders(state));
        const server = mcpServer({ core, caller, admissions, log: request.log });
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        // The transport insists on both types; a plain JSON client is answered in JSON all the same.
        request.raw.headers.accept = 'application/json, text/event-stream';
        // It also rebuilds the URL from Host and answers a bare 400 (no JSON-RPC) for a spelling it does not expect,
        // such as [fd00:0::1]; the host was checked already (src/http/hosts.ts), so it is given BASE_URL's.
        request.raw.headers.host = ownHost;
        reply.hijack();
        for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
        reply.raw.on('close', () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(request.raw, reply.raw, request.body);
      },
    );

    const notAllowed = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; send requests with POST' }, id: null };
    for (const method of ['GET', 'DELETE'] as const) {
      app.route({
        method,
        url: '/mcp',
        schema: { tags, operationId: `mcp${method === 'GET' ? 'Get' : 'Delete'}`, summary: 'Not supported (stateless endpoint): 405', response: { 405: Type.Object({ jsonrpc: Type.String(), error: Type.Object({ code: Type.Integer(), message: Type.String() }), id: Type.Null() }) } },
        handler: async (_request, reply) => reply.status(405).header('allow', 'POST').send(notAllowed),
      });
    }
  };
