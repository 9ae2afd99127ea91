import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dialectName, useTestApp } from '../helpers/app.js';
import { LINKS_A } from '../helpers/links.js';
import { rpc } from '../helpers/mcp.js';

/**
 * MCP is no way around the API quotas (issue 15): each tools/call in a POST is charged as its REST twin, a batch pays
 * per call, and a POST with a call over a limit is refused whole (nothing runs, nothing is charged).
 * plans-hourly.json: Pro 3 requests an hour, 6 a month.
 */
describe(`MCP tool calls are charged like REST calls (${dialectName})`, () => {
  const t = useTestApp({ PLANS_FILE: path.join(import.meta.dirname, '..', 'fixtures', 'plans-hourly.json') });
  const pro = t.user('pro');
  const shorten = (id: number, url: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'shorten_url', arguments: { url } } });
  /** Links the account has, read from the database (a REST call would be charged). */
  const links = async () => (await t.core.database.db.selectFrom('links').select('id').where('account_id', '=', pro.id).execute()).length;

  it('a batch of 4 tool calls over an hourly quota of 3 is refused whole with REST`s 429, and creates nothing', async () => {
    const batch = [1, 2, 3, 4].map((i) => shorten(i, `https://example.com/batch-${i}`));
    const res = await rpc(t, pro.apiKey, batch);
    expect(res.statusCode).toBe(429);
    // Every answer on /mcp is JSON-RPC (issue 26): REST's code is the error's data.code.
    expect(res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Rate limit exceeded: 3 requests per hour', data: { code: 'RATE_LIMITED' } } });
    expect(res.headers['retry-after']).toEqual(expect.any(String));
    expect(await links()).toBe(0);
  });

  it('a batch of 2 tool calls costs 2 of the 3, so REST has exactly one left', async () => {
    const res = await rpc(t, pro.apiKey, [shorten(1, 'https://example.com/a'), shorten(2, 'https://example.com/b')]);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('1');
    expect(await links()).toBe(2);
    const rest = await t.as(pro, { method: 'POST', url: LINKS_A, payload: { url: 'https://example.com/c' } });
    expect(rest.statusCode).toBe(201);
    expect(rest.headers['x-ratelimit-remaining']).toBe('0');
    const over = await t.as(pro, { method: 'POST', url: LINKS_A, payload: { url: 'https://example.com/d' } });
    expect(over.statusCode).toBe(429);
    // The MCP call after REST used the quota up is refused too.
    const mcpOver = await rpc(t, pro.apiKey, shorten(3, 'https://example.com/e'));
    expect(mcpOver.statusCode).toBe(429);
    expect(await links()).toBe(3);
  });
});

/** A failure the service did not foresee answers REST's 500 body on MCP too, never the database's own words. */
describe(`MCP tool calls that fail unexpectedly (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');

  it('answer INTERNAL_ERROR "Internal server error" on REST and MCP alike, with no database text', async () => {
    // A table goes missing under the app: its queries now fail in the database's words.
    await sql`DROP TABLE utm_templates`.execute(t.core.database.db);
    const rest = await t.as(pro, { method: 'GET', url: '/api/v1/utm-templates' });
    expect(rest.statusCode).toBe(500);
    expect(rest.json()).toEqual({ error: true, code: 'INTERNAL_ERROR', message: 'Internal server error' });
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_utm_templates', arguments: {} } };
    const mcp = await rpc(t, pro.apiKey, call);
    expect(mcp.statusCode).toBe(200);
    const result = (mcp.json() as { result: { isError: boolean; content: Array<{ text: string }> } }).result;
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]!.text)).toEqual({ error: true, code: 'INTERNAL_ERROR', message: 'Internal server error' });
    expect(mcp.body).not.toMatch(/utm_templates|no such table|does not exist/i);
  });
});
