import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { dialectName, useTestApp, type TestApp } from '../helpers/app.js';

/**
 * Attacks (issue 26, item 6): hostile bodies on /mcp. Arguments nested 5,000 deep overflowed the stack (INTERNAL_ERROR);
 * a NUL in a body got REST's `{"error":true,...}` body, which no MCP client reads; an empty batch got 202 and a batch
 * with one id twice a single answer. What holds now: every answer on /mcp is JSON-RPC 2.0. A POST refused as a whole
 * (host, Origin, key, body, batch, rate limits) is a JSON-RPC error with no id under REST's status and headers, its
 * `data.code` REST's stable code; arguments nested past 64 levels are error -32602 for that call alone. REST bodies
 * nested past 64 levels are 400 INVALID_BODY, so no surface walks a hostile body recursively.
 */
const ACCEPT = 'application/json, text/event-stream';
const deep = (levels: number, inner = '') => '['.repeat(levels) + inner + ']'.repeat(levels);
/** An object nested `levels` deep in total: {"a":{"a":...{}}}. */
const deepObject = (levels: number) => '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);
const call = (id: number | string, name: string, args: string) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;

function post(t: TestApp, key: string | null, payload: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: '/mcp',
    payload,
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
  });
}

/** A POST refused whole: REST's status, a JSON body that is a JSON-RPC error response with no id, REST's code as data.code. */
function expectRefusal(res: LightMyRequestResponse, status: number, rpcCode: number, code: string): string {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json<{ error: { message: string } }>();
  expect(body).toEqual({ jsonrpc: '2.0', id: null, error: { code: rpcCode, message: expect.any(String), data: { code } } });
  return body.error.message;
}

describe(`MCP edge cases: every answer on /mcp is JSON-RPC (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');
  const links = async () => (await t.core.database.db.selectFrom('links').select('id').where('account_id', '=', pro.id).execute()).length;

  it('a NUL (U+0000) anywhere in the body refuses the POST as JSON-RPC Invalid Request, naming where it is; nothing runs', async () => {
    const before = await links();
    const message = expectRefusal(await post(t, pro.apiKey, call(1, 'shorten_url', '{"url":"https://example.com/a\\u0000b"}')), 400, -32600, 'INVALID_PARAMS');
    expect(message).toMatch(/params\.arguments\.url must not contain a NUL character/);
    // In a batch, in a key, deep inside: the same, and no call of the batch runs.
    const batch = `[${call(1, 'shorten_url', '{"url":"https://example.com/fine"}')},${call(2, 'list_links', `{"x":${deep(3000, '"\\u0000"')}}`)}]`;
    expectRefusal(await post(t, pro.apiKey, batch), 400, -32600, 'INVALID_BODY');
    expectRefusal(await post(t, pro.apiKey, call(3, 'list_links', '{"a\\u0000":1}')), 400, -32600, 'INVALID_PARAMS');
    expect(await links()).toBe(before);
  });

  it('a raw NUL byte, malformed JSON and an empty body are JSON-RPC parse errors (-32700)', async () => {
    for (const payload of ['{"jsonrpc":"2.0","id":1,"method":"ping\u0000"}', '{"jsonrpc": "2.0", "id": 1, "method": ', '', '   ', '{"__proto__":{"x":1},"jsonrpc":"2.0","id":1,"method":"ping"}']) {
      expectRefusal(await post(t, pro.apiKey, payload), 400, -32700, 'INVALID_JSON');
    }
  });

  it('a body that is not application/json is 415 as JSON-RPC', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
      expectRefusal(await post(t, pro.apiKey, '{"jsonrpc":"2.0","id":1,"method":"ping"}', { 'content-type': type }), 415, -32000, 'UNSUPPORTED_MEDIA_TYPE');
    }
    // application/json with parameters is JSON.
    expect((await post(t, pro.apiKey, '{"jsonrpc":"2.0","id":1,"method":"ping"}', { 'content-type': 'application/json; charset=utf-8' })).json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('an oversized body is 413 as JSON-RPC', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1_100_000) } });
    expectRefusal(await post(t, pro.apiKey, big), 413, -32000, 'BODY_TOO_LARGE');
  });

  it('an empty batch is one Invalid Request error (JSON-RPC 2.0), not an empty 202', async () => {
    expect(expectRefusal(await post(t, pro.apiKey, '[]'), 400, -32600, 'BAD_REQUEST')).toMatch(/batch is empty/);
  });

  it('requests sharing an id in a batch refuse the batch (Invalid Request) before any runs; distinct ids are each answered', async () => {
    const before = await links();
    const twice = `[${call(7, 'shorten_url', '{"url":"https://example.com/dup-1"}')},${call(7, 'shorten_url', '{"url":"https://example.com/dup-2"}')}]`;
    expect(expectRefusal(await post(t, pro.apiKey, twice), 400, -32600, 'BAD_REQUEST')).toMatch(/id 7/);
    expect(await links()).toBe(before);
    // "7" and 7 are two ids; a notification (no id) takes none; each request gets its own answer.
    const distinct = `[{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","id":"7","method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`;
    const res = await post(t, pro.apiKey, distinct);
    expect(res.statusCode).toBe(200);
    expect(res.json<Array<{ id: unknown }>>().map((a) => a.id).sort()).toEqual([7, '7']);
  });

  it('without a key or with a bad one: 401, WWW-Authenticate naming the metadata, and a JSON-RPC error body', async () => {
    const metadata = `resource_metadata="${t.baseUrl}/.well-known/oauth-protected-resource/mcp"`;
    const missing = await post(t, null, '{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expectRefusal(missing, 401, -32000, 'API_KEY_REQUIRED');
    expect(missing.headers['www-authenticate']).toBe(`Bearer ${metadata}`);
    const bad = await post(t, `snip_${'x'.repeat(40)}`, '{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expectRefusal(bad, 401, -32000, 'INVALID_API_KEY');
    expect(bad.headers['www-authenticate']).toBe(`Bearer error="invalid_token", ${metadata}`);
    expectRefusal(await post(t, null, 'ping', { authorization: `Basic ${pro.apiKey}` }), 401, -32000, 'API_KEY_REQUIRED');
  });

  it('arguments nested 5,000 deep are JSON-RPC invalid params (-32602) for that call, with its id; never INTERNAL_ERROR', async () => {
    for (const [name, args] of [
      ['shorten_url', `{"url":"https://example.com/deep","slug":${deep(5000)}}`],
      ['list_links', `{"x":${deep(5000)}}`],
      ['create_saved_view', `{"name":"v","filters":${deepObject(5000)}}`],
      ['list_links', `{"x":${deep(400_000)}}`],
    ]) {
      const res = await post(t, pro.apiKey, call('deep', name!, args!));
      expect(res.statusCode, name).toBe(200);
      expect(res.json(), name).toEqual({ jsonrpc: '2.0', id: 'deep', error: { code: -32602, message: expect.stringMatching(/more than 64 levels deep/), data: { code: 'INVALID_ARGUMENTS' } } });
    }
  });

  it('the bound is 64 levels of arguments: 64 are read, 65 are not; the other calls of a batch are answered', async () => {
    const at = await post(t, pro.apiKey, call(1, 'list_links', `{"x":${deep(63)}}`));
    expect(at.json<{ result?: { isError?: boolean } }>().result?.isError).toBeUndefined();
    const past = await post(t, pro.apiKey, call(2, 'list_links', `{"x":${deep(64)}}`));
    expect(past.json()).toMatchObject({ id: 2, error: { code: -32602 } });
    const batch = await post(t, pro.apiKey, `[${call(3, 'list_links', `{"x":${deep(500)}}`)},{"jsonrpc":"2.0","id":4,"method":"ping"}]`);
    expect(batch.statusCode).toBe(200);
    const answers = batch.json<Array<{ id: number }>>().sort((a, b) => a.id - b.id);
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 3, error: { code: -32602, message: expect.any(String), data: { code: 'INVALID_ARGUMENTS' } } },
      { jsonrpc: '2.0', id: 4, result: {} },
    ]);
  });

  it('deep params outside tool arguments (initialize, ping, unknown methods) are answered, not overflowed', async () => {
    const init = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"experimental":{"a":${deep(5000)}}},"clientInfo":{"name":"deep","version":"1"}}}`;
    expect((await post(t, pro.apiKey, init)).json()).toMatchObject({ id: 1, result: { serverInfo: { name: 'snip' } } });
    expect((await post(t, pro.apiKey, `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":${deep(400_000)}}}`)).json()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    expect((await post(t, pro.apiKey, `{"jsonrpc":"2.0","id":3,"method":"nope","params":${deepObject(5000)}}`)).json()).toMatchObject({ id: 3, error: { code: -32601 } });
    // A body that is one deep array is no JSON-RPC message: the SDK's own refusal, in JSON-RPC.
    const array = await post(t, pro.apiKey, deep(400_000));
    expect(array.statusCode).toBe(400);
    expect(array.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: expect.any(Number) } });
  });

  it('an Origin that is not an http(s) origin is 403 ORIGIN_NOT_ALLOWED as JSON-RPC; any page origin is served (CORS)', async () => {
    const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    for (const origin of ['null', 'garbage', 'file://', 'chrome-extension://abcdef', 'http://a.example/path', 'https://a.example, https://b.example', 'javascript:alert(1)', 'ftp://a.example']) {
      expectRefusal(await post(t, pro.apiKey, ping, { origin }), 403, -32000, 'ORIGIN_NOT_ALLOWED');
      const preflight = await t.app.inject({ method: 'OPTIONS', url: '/mcp', headers: { origin, 'access-control-request-method': 'POST' } });
      expect(preflight.statusCode, origin).toBe(403);
    }
    for (const origin of ['https://claude.ai', 'http://localhost:6274', 'https://Inspector.Example', 'http://[::1]:8080']) {
      const res = await post(t, pro.apiKey, ping, { origin });
      expect(res.json(), origin).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it('GET and DELETE stay 405 in JSON-RPC', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/mcp', headers: { authorization: `Bearer ${pro.apiKey}` } });
      expect(res.statusCode).toBe(405);
      expect(res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    }
  });
});

describe(`MCP edge cases: rate limits answer in JSON-RPC (${dialectName})`, () => {
  // plans-hourly.json: Pro 3 requests an hour.
  const t = useTestApp({ PLANS_FILE: path.join(import.meta.dirname, '..', 'fixtures', 'plans-hourly.json') });
  const pro = t.user('pro');

  it('a POST over the quota is 429 with Retry-After, the rate-limit headers and a JSON-RPC error body', async () => {
    const calls = [1, 2, 3, 4].map((id) => call(id, 'list_links', '{}')).join(',');
    const res = await post(t, pro.apiKey, `[${calls}]`);
    expectRefusal(res, 429, -32000, 'RATE_LIMITED');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.headers['x-ratelimit-limit']).toBe('3');
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
  });
});

describe(`REST bodies nested past the bound (${dialectName})`, () => {
  const t = useTestApp();
  // Builder: every route below takes its key (bulk needs the plan), so the body is what is judged.
  const builder = t.user('builder');
  const send = (url: string, payload: string) => t.as(builder, { method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });

  it('are 400 INVALID_BODY on every JSON route, however deep, a NUL deep inside included', async () => {
    for (const url of ['/api/v1/links', '/api/createShort', '/api/v1/views', '/api/auth/sign-in', '/api/v1/bulk']) {
      for (const body of [`{"url":"https://example.com/x","x":${deep(64)}}`, `{"x":${deep(5000)}}`, deep(400_000), `{"x":${deep(100_000, '"\\u0000"')}}`, `{"filters":${deepObject(5000)}}`]) {
        const res = await send(url, body);
        expect(res.statusCode, url).toBe(400);
        expect(res.json(), url).toEqual({ error: true, code: 'INVALID_BODY', message: 'The body nests objects and arrays more than 64 levels deep' });
      }
    }
  });

  it('reads a body of 64 levels as before', async () => {
    const res = await send('/api/v1/links', `{"url":"https://example.com/at-the-bound","x":${deep(63)}}`);
    expect(res.statusCode, res.body).toBe(201);
  });
});
