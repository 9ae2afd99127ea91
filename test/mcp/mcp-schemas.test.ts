import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/app.js';
import { rpc } from '../helpers/mcp.js';

/**
 * tools/list in a dialect that is valid JSON Schema (draft 2020-12, MCP's default, and draft-07 alike) and that the
 * function-calling APIs of the major model providers read: a value that may be null is `anyOf: [X, {type: "null"}]`
 * (OpenAI's strict mode and Gemini accept it), never OpenAPI's `nullable: true` (which JSON Schema validators ignore,
 * so they refuse the null) nor a type list (which Gemini's function declarations refuse).
 */
describe('MCP tool schemas', () => {
  const t = useTestApp();
  const pro = t.user('pro');

  interface Listed {
    name: string;
    inputSchema: Record<string, unknown>;
    outputSchema?: Record<string, unknown>;
  }

  /** Every (path, schema) below `schema`. */
  const walk = (schema: unknown, path: string, out: Array<[string, Record<string, unknown>]>) => {
    if (typeof schema !== 'object' || schema === null) return out;
    out.push([path, schema as Record<string, unknown>]);
    for (const [key, value] of Object.entries(schema)) walk(value, `${path}.${key}`, out);
    return out;
  };

  const listed = async (): Promise<Listed[]> => {
    const res = await rpc(t, pro.apiKey, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    return (res.json() as { result: { tools: Listed[] } }).result.tools;
  };

  it('give a value that may be null as anyOf [X, null], never `nullable` or a type list, in inputs and outputs', async () => {
    const tools = await listed();
    const nodes = tools.flatMap((tool) => [...walk(tool.inputSchema, `${tool.name}.in`, []), ...walk(tool.outputSchema, `${tool.name}.out`, [])]);
    expect(nodes.filter(([, s]) => 'nullable' in s).map(([p]) => p)).toEqual([]);
    expect(nodes.filter(([, s]) => Array.isArray(s.type)).map(([p]) => p)).toEqual([]);
    const color = tools.find((tool) => tool.name === 'update_folder')!.inputSchema as { properties: Record<string, unknown> };
    expect(color.properties.color).toEqual({ description: 'Colour as #RRGGBB; null removes it', anyOf: [{ type: 'string' }, { type: 'null' }] });
  });

  it('inputs keep to the subset function-calling APIs share: no $ref, $defs, oneOf, allOf or not, and anyOf only to allow null', async () => {
    const nodes = (await listed()).flatMap((tool) => walk(tool.inputSchema, tool.name, []));
    for (const keyword of ['$ref', '$defs', 'definitions', 'oneOf', 'allOf', 'not', '$id']) {
      expect(nodes.filter(([, s]) => keyword in s).map(([p]) => p), keyword).toEqual([]);
    }
    const unions = nodes.filter(([, s]) => Array.isArray(s.anyOf));
    expect(unions.length).toBeGreaterThanOrEqual(10);
    for (const [path, s] of unions) {
      const branches = s.anyOf as Array<Record<string, unknown>>;
      expect(branches, path).toHaveLength(2);
      expect(branches[1], path).toEqual({ type: 'null' });
      expect(typeof branches[0]!.type, path).toBe('string');
    }
  });

  it('every schema stands alone: no $ref anywhere in tools/list, dangling or not', async () => {
    const text = JSON.stringify(await listed());
    expect(text).not.toContain('"$ref"');
    expect(text).not.toContain('"$id"');
  });

  it('still accept null where the schema allows it, and refuse a wrong value for what is wrong with it', async () => {
    const created = await rpc(t, pro.apiKey, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_folder', arguments: { name: 'Nullable', color: '#112233' } } });
    const folder = JSON.parse((created.json() as { result: { content: Array<{ text: string }> } }).result.content[0]!.text) as { id: string };
    const call = (color: unknown) => ({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'update_folder', arguments: { folderId: folder.id, color } } });
    const updated = (await rpc(t, pro.apiKey, call(null))).json() as { result: { isError?: boolean; content: Array<{ text: string }> } };
    expect(updated.result.isError).toBeUndefined();
    expect(JSON.parse(updated.result.content[0]!.text)).toMatchObject({ id: folder.id, color: null });
    // A number is neither a string nor null: refused as REST refuses it (a type error naming the field), not as "no branch".
    const refused = (await rpc(t, pro.apiKey, call(5))).json() as { result: { isError?: boolean; content: Array<{ text: string }> } };
    expect(refused.result.isError).toBe(true);
    const rest = await t.as(pro, { method: 'PATCH', url: `/api/v1/folders/${folder.id}`, payload: { color: 5 } });
    const { code, message } = rest.json<{ code: string; message: string }>();
    expect(JSON.parse(refused.result.content[0]!.text)).toEqual({ error: true, code, message: message.replace('The body', 'The arguments') });
  });
});
