import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SUPPORTED_PROTOCOL_VERSIONS, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { TOOLS } from '../../src/mcp/server.js';
import { useTestApp } from '../helpers/app.js';
import { EXPECTED_TOOLS, listenMcp } from '../helpers/mcp.js';
import { connectInVersion } from './versioned-client.js';

/**
 * Tool titles and annotations (MCP 2025-03-26 and later): tools/list gives every tool a title and the four behaviour
 * hints, true to what the tool does, to a client of every protocol version Snip negotiates (a client of an older
 * version ignores what it does not know), so a client can ask a person before a delete.
 */

type Hints = Required<Pick<NonNullable<Tool['annotations']>, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>>;

const READ: Hints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

describe('MCP tool annotations', () => {
  const t = useTestApp();
  const pro = t.user('pro');
  let url: URL;
  const open: Client[] = [];
  const listed = new Map<string, Tool[]>();

  beforeAll(async () => {
    url = await listenMcp(t);
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      const { client, agreed } = await connectInVersion(url, pro.apiKey, version);
      open.push(client);
      expect(agreed, version).toBe(version);
      listed.set(version, (await client.listTools()).tools);
    }
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
  });

  it('negotiates each protocol version the SDK supports, 2024-11-05, 2025-06-18 and 2025-11-25 among them', () => {
    expect([...listed.keys()]).toEqual(expect.arrayContaining(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']));
  });

  it.each([...SUPPORTED_PROTOCOL_VERSIONS])('in %s: all tools carry a title (also in annotations, as 2025-03-26 reads it) and four boolean hints', (version) => {
    const tools = listed.get(version)!;
    expect(tools.map((tool) => tool.name).sort()).toEqual([...EXPECTED_TOOLS].sort());
    for (const tool of tools) {
      expect(tool.title, tool.name).toMatch(/^[A-Z].{4,60}$/);
      expect(tool.annotations?.title, tool.name).toBe(tool.title);
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) expect(typeof tool.annotations?.[hint], `${tool.name} ${hint}`).toBe('boolean');
    }
    // One list for every version: what a version does not know, its clients ignore.
    expect(tools).toEqual(listed.get('2025-11-25'));
  });

  const tool = (name: string): Tool => listed.get('2025-11-25')!.find((candidate) => candidate.name === name)!;
  const hints = (name: string): Hints => {
    const { title: _title, ...rest } = tool(name).annotations!;
    return rest as Hints;
  };

  it('reads are read-only: get_link, list_links, the statistics, the exports, get_qr_code', () => {
    for (const name of ['get_link', 'list_links', 'get_link_stats', 'get_aggregate_stats', 'get_recent_clicks', 'get_usage', 'export_links', 'export_link_stats', 'get_qr_code', 'get_link_trust_score', 'discover_affiliate_programs']) {
      expect(hints(name), name).toEqual(READ);
    }
  });

  it('deletes are destructive (and idempotent: a second one changes nothing more): delete_link, remove_link_tag, delete_namespace, ...', () => {
    expect(hints('delete_link')).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false });
    for (const name of EXPECTED_TOOLS.filter((n) => /^(delete|remove)_/.test(n))) expect(hints(name), name).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
  });

  it('creates only add and are not idempotent (a second shorten_url makes a second link); updates replace and are idempotent', () => {
    expect(hints('shorten_url')).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });
    expect(hints('bulk_shorten')).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    for (const name of EXPECTED_TOOLS.filter((n) => n.startsWith('create_'))) expect(hints(name), name).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    // An update overwrites what was there (the old destination is gone): destructive, and the same update twice is one.
    expect(hints('update_link')).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false });
    for (const name of EXPECTED_TOOLS.filter((n) => n.startsWith('update_'))) expect(hints(name), name).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(hints('assign_link_to_folder')).toMatchObject({ readOnlyHint: false, idempotentHint: true });
  });

  it('the exceptions a tool declares: add_link_tag and set_namespace are idempotent; set_namespace keeps the old namespace', () => {
    expect(hints('add_link_tag')).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(hints('set_namespace')).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false });
  });

  it('open world only where a call reaches outside Snip: DNS (verify_domain), an HTTP delivery (test_webhook), where events go (create/update_webhook)', () => {
    const open = listed.get('2025-11-25')!.filter((candidate) => candidate.annotations?.openWorldHint).map((candidate) => candidate.name);
    expect(open.sort()).toEqual(['create_webhook', 'test_webhook', 'update_webhook', 'verify_domain']);
    expect(hints('verify_domain')).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true });
    expect(hints('test_webhook')).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true });
  });

  it('no read-only tool is hinted destructive, and every tool that returns data declares an object outputSchema', () => {
    for (const candidate of listed.get('2025-11-25')!) {
      if (candidate.annotations?.readOnlyHint) expect(candidate.annotations.destructiveHint, candidate.name).toBe(false);
      expect(candidate.outputSchema?.type, candidate.name).toBe('object');
    }
  });

  it('the hints agree with the HTTP method of the REST routes of the same operation (/openapi.yaml)', async () => {
    const doc = parse((await t.app.inject({ method: 'GET', url: '/openapi.yaml' })).body) as { paths: Record<string, Record<string, { operationId?: string }>> };
    const methods = new Map<string, string[]>();
    for (const operations of Object.values(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        if (op.operationId) methods.set(op.operationId, [...(methods.get(op.operationId) ?? []), method.toUpperCase()]);
      }
    }
    // REST verifies a domain with a GET that changes it (pending_txt -> verified); the tool says what it does.
    const restExceptions = new Set(['verify_domain']);
    let compared = 0;
    for (const spec of TOOLS) {
      const rest = [spec.operation.id, `${spec.operation.id}A`, `${spec.operation.id}B`].flatMap((id) => methods.get(id) ?? []);
      if (rest.length === 0 || restExceptions.has(spec.name)) continue;
      compared += 1;
      const h = hints(spec.name);
      expect(h.readOnlyHint, `${spec.name} (${rest.join(', ')})`).toBe(rest.every((m) => m === 'GET'));
      if (rest.includes('DELETE')) expect(h, spec.name).toMatchObject({ destructiveHint: true, idempotentHint: true });
      if (rest.some((m) => m === 'PUT' || m === 'PATCH')) expect(h.idempotentHint, spec.name).toBe(true);
    }
    expect(compared).toBeGreaterThanOrEqual(45);
  });
});
