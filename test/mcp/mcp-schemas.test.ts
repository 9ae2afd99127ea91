import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { rpc } from '../helpers/mcp.js';

/** tools/list in the single-type dialect every major model provider reads (Gemini rejects type arrays). */
describe('MCP tool schemas', () => {
  const t = useTestApp();
  const pro = t.user('pro');

  /** Every (path, schema) below `schema`. */
  const walk = (schema: unknown, path: string, out: Array<[string, Record<string, unknown>]>) => {
    if (typeof schema !== 'object' || schema === null) return out;
    out.push([path, schema as Record<string, unknown>]);
    for (const [key, value] of Object.entries(schema)) walk(value, `${path}.${key}`, out);
    return out;
  };

  it('give every property one type: nullable fields say `nullable: true`, never a type list or a null branch', async () => {
    const res = await rpc(t, pro.apiKey, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const tools = (res.json() as { result: { tools: Array<{ name: string; inputSchema: unknown }> } }).result.tools;
    const nodes = tools.flatMap((tool) => walk(tool.inputSchema, tool.name, []));
    expect(nodes.filter(([, s]) => Array.isArray(s.type)).map(([p]) => p)).toEqual([]);
    expect(nodes.filter(([, s]) => Array.isArray(s.anyOf) && s.anyOf.some((b: { type?: string }) => b.type === 'null')).map(([p]) => p)).toEqual([]);
    const color = tools.find((tool) => tool.name === 'update_folder')!.inputSchema as { properties: Record<string, unknown> };
    expect(color.properties.color).toEqual({ type: 'string', description: 'Colour as #RRGGBB; null removes it', nullable: true });
  });

  it('still accept null where the schema says nullable', async () => {
    const created = await rpc(t, pro.apiKey, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_folder', arguments: { name: 'Nullable', color: '#112233' } } });
    const folder = JSON.parse((created.json() as { result: { content: Array<{ text: string }> } }).result.content[0]!.text) as { id: string };
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'update_folder', arguments: { folderId: folder.id, color: null } } };
    const updated = (await rpc(t, pro.apiKey, call)).json() as { result: { isError?: boolean; content: Array<{ text: string }> } };
    expect(updated.result.isError).toBeUndefined();
    expect(JSON.parse(updated.result.content[0]!.text)).toMatchObject({ id: folder.id, color: null });
  });
});
