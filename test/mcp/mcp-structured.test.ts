import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectName, useTestApp } from '../helpers/app.js';
import { startTxtServer, type TxtServer } from '../helpers/dns-txt.js';
import { Clients, EXPECTED_TOOLS, listenMcp, textJson } from '../helpers/mcp.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

/**
 * Structured tool output (MCP 2025-06-18): every tool that returns data declares an outputSchema (the response schema
 * of the REST route it mirrors) and answers structuredContent, the same data as its text block. Every tool is called
 * through the SDK's own client, which checks structuredContent against the outputSchema it listed, and each answer is
 * checked again by Ajv's draft 2020-12 validator in strict mode; the listed schemas compile there too.
 */

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const APP_LINKS = { ios: { deepLink: 'myapp://product/42', storeUrl: 'https://apps.apple.com/app/id123456' } };

/** A draft 2020-12 validator in strict mode: an unknown keyword or format, or a loose type, fails the compile. */
function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  return ajv;
}

describe('MCP tool schemas under a strict JSON Schema validator', () => {
  const t = useTestApp();
  const pro = t.user('pro');
  let tools: Tool[];
  const clients = new Clients(() => url);
  let url: URL;

  beforeAll(async () => {
    url = await listenMcp(t);
    tools = (await (await clients.for(pro)).listTools()).tools;
  });
  afterAll(() => clients.closeAll());

  it('every input and output schema of the tools compiles under Ajv 2020 in strict mode', () => {
    const ajv = strictAjv();
    expect(tools).toHaveLength(EXPECTED_TOOLS.length);
    for (const tool of tools) {
      expect(() => ajv.compile(tool.inputSchema), `${tool.name} input`).not.toThrow();
      expect(tool.outputSchema, tool.name).toBeDefined();
      expect(() => ajv.compile(tool.outputSchema!), `${tool.name} output`).not.toThrow();
    }
  });

  /** The ten properties of six tools that take null, each with the arguments that make the rest of a call valid. */
  const NULLABLE: Array<[tool: string, property: string, rest: Record<string, unknown>]> = [
    ['update_link', 'expiresAt', { shortPath: 'abcdef' }],
    ['update_link', 'maxClicks', { shortPath: 'abcdef' }],
    ['update_link', 'activeFrom', { shortPath: 'abcdef' }],
    ['update_link', 'blockedCountries', { shortPath: 'abcdef' }],
    ['update_link', 'appLinks', { shortPath: 'abcdef' }],
    ['shorten_url', 'appLinks', { url: 'https://example.com/' }],
    ['create_folder', 'color', { name: 'F' }],
    ['update_folder', 'color', { folderId: 'fld_x' }],
    ['assign_link_to_folder', 'folderId', { shortPath: 'abcdef' }],
    ['update_domain', 'notFoundPage', { domain: 'links.example.com' }],
  ];

  it.each(NULLABLE)('%s: %s null is valid under Ajv 2020 strict, and a wrong type is not', (name, property, rest) => {
    const validate = strictAjv().compile(tools.find((tool) => tool.name === name)!.inputSchema);
    expect(validate({ ...rest, [property]: null }) ? [] : validate.errors).toEqual([]);
    expect(validate({ ...rest, [property]: true })).toBe(false);
  });

  it('the documented expiresAt: null clears a link`s expiry through the SDK client', async () => {
    const client = await clients.for(pro);
    const made = (await client.callTool({ name: 'shorten_url', arguments: { url: 'https://example.com/expiring', expiresAt: new Date(Date.now() + 86_400_000).toISOString() } })) as CallToolResult;
    const { shortCode, expiresAt } = made.structuredContent as { shortCode: string; expiresAt: string | null };
    expect(expiresAt).not.toBeNull();
    const cleared = (await client.callTool({ name: 'update_link', arguments: { shortPath: shortCode, expiresAt: null } })) as CallToolResult;
    expect(cleared.isError ?? false).toBe(false);
    expect(cleared.structuredContent).toMatchObject({ shortCode, expiresAt: null });
  });
});

describe(`MCP structured output: every tool through the SDK client (${dialectName})`, () => {
  // The DNS server starts before the block's app, which reads DNS_RESOLVER when it starts.
  let dns: TxtServer;
  beforeAll(async () => {
    dns = await startTxtServer();
  });
  afterAll(async () => {
    await dns?.close();
  });
  const t = useTestApp({
    WEBHOOK_ALLOW_PRIVATE: 'true',
    get DNS_RESOLVER() {
      return dns.resolver;
    },
  } as Record<string, string>);
  const owner = t.user('builder');
  const partner = t.user('pro');
  let url: URL;
  const clients = new Clients(() => url);
  let mine: Client;
  let theirs: Client;
  let receiver: Receiver;
  const strict = new Map<string, ValidateFunction>();
  const covered = new Set<string>();

  beforeAll(async () => {
    url = await listenMcp(t);
    receiver = await startReceiver();
    mine = await clients.for(owner);
    theirs = await clients.for(partner);
    // Listing is what arms the SDK client's check of structuredContent against each tool's outputSchema.
    const { tools } = await mine.listTools();
    await theirs.listTools();
    const ajv = strictAjv();
    for (const tool of tools) if (tool.outputSchema) strict.set(tool.name, ajv.compile(tool.outputSchema));
  });
  afterAll(async () => {
    await clients.closeAll();
    await receiver?.close();
  });

  /**
   * Calls a tool that must succeed: the SDK client has checked structuredContent against the outputSchema (it throws
   * otherwise); here it must be an object, equal to the text block's JSON, and valid under Ajv 2020 strict too.
   */
  async function structured<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError ?? false, `${name}: ${JSON.stringify(result.content)}`).toBe(false);
    const data = result.structuredContent;
    expect(typeof data === 'object' && data !== null && !Array.isArray(data), name).toBe(true);
    expect(data, name).toEqual(textJson(result));
    const validate = strict.get(name)!;
    expect(validate(data) ? [] : validate.errors, name).toEqual([]);
    covered.add(name);
    return data as T;
  }

  let link: { shortCode: string; expiresAt: string | null };
  let sessionId: string;

  it('links: shorten, list, get, update (clearing with null), bulk (a success and a failure), recent clicks', async () => {
    link = await structured(mine, 'shorten_url', { url: 'https://shop.example.com/p/42', appLinks: APP_LINKS, expiresAt: new Date(Date.now() + 86_400_000).toISOString(), maxClicks: 100 });
    // A visit from a desktop browser (a click with a referrer) and one from an iPhone (a web2app session).
    expect((await t.app.inject({ method: 'GET', url: `/${link.shortCode}`, headers: { 'user-agent': CHROME, referer: 'https://news.example.org/a' } })).statusCode).toBe(302);
    const page = await t.app.inject({ method: 'GET', url: `/${link.shortCode}`, headers: { 'user-agent': IPHONE } });
    sessionId = /snip_sid=(w2a_[A-Za-z0-9]+)/.exec(page.body)![1]!;

    expect((await structured<{ links: unknown[] }>(mine, 'list_links', { limit: 5 })).links).toHaveLength(1);
    expect(await structured(mine, 'get_link', { shortPath: link.shortCode })).toMatchObject({ shortCode: link.shortCode, maxClicks: 100 });
    const cleared = await structured(mine, 'update_link', { shortPath: link.shortCode, expiresAt: null, maxClicks: null, activeFrom: null, blockedCountries: null });
    expect(cleared).toMatchObject({ expiresAt: null, maxClicks: null, blockedCountries: [] });
    const bulk = await structured<{ results: Array<{ success: boolean }> }>(mine, 'bulk_shorten', { links: [{ url: 'https://example.com/bulk' }, { url: 'not a url' }] });
    expect(bulk.results.map((r) => r.success)).toEqual([true, false]);
    expect(await structured(mine, 'get_recent_clicks', { shortPath: link.shortCode })).toMatchObject({ shortCode: link.shortCode, fullPath: null, byDestination: expect.any(Array) });
    expect(await structured(mine, 'resolve_link', { shortPath: link.shortCode, country: 'DE' })).toEqual({ url: 'https://shop.example.com/p/42', reason: 'destination' });
  });

  it('statistics: 24h, 7d, a link`s and the account`s aggregates, usage', async () => {
    expect(await structured(mine, 'get_link_stats', { shortPath: link.shortCode, period: '24h' })).toMatchObject({ period: '24h' });
    expect(await structured(mine, 'get_link_stats', { shortPath: link.shortCode, period: '7d' })).toMatchObject({ short: link.shortCode, shortCode: link.shortCode, period: '7d' });
    expect(await structured(mine, 'get_aggregate_stats', { shortPath: link.shortCode, period: '30d' })).toMatchObject({ shortCode: link.shortCode });
    expect(await structured(mine, 'get_aggregate_stats')).toMatchObject({ scope: 'account', period: '7d', topLinks: [expect.objectContaining({ shortCode: link.shortCode })] });
    await structured(mine, 'get_usage');
  });

  it('QR: the image tool`s details, the settings and their update', async () => {
    const result = (await mine.callTool({ name: 'get_qr_code', arguments: { shortPath: link.shortCode } })) as CallToolResult;
    expect(result.content.map((c) => c.type)).toEqual(['image', 'text']);
    expect(await structured(mine, 'get_qr_code', { shortPath: link.shortCode, size: 200 })).toMatchObject({ url: `http://snip.test/${link.shortCode}` });
    await structured(mine, 'get_qr_settings');
    expect(await structured(mine, 'update_qr_settings', { size: 400 })).toMatchObject({ size: 400 });
  });

  it('folders: list, create, update (colour null), file and unfile a link, delete', async () => {
    await structured(mine, 'list_folders');
    const folder = await structured<{ id: string }>(mine, 'create_folder', { name: 'Structured', color: '#112233' });
    expect(await structured(mine, 'update_folder', { folderId: folder.id, color: null })).toMatchObject({ color: null });
    expect(await structured(mine, 'assign_link_to_folder', { shortPath: link.shortCode, folderId: folder.id })).toEqual({ success: true, folderId: folder.id });
    expect(await structured(mine, 'delete_folder', { folderId: folder.id })).toEqual({ success: true, unassigned: 1 });
  });

  it('tags, UTM templates and saved views', async () => {
    expect(await structured(mine, 'add_link_tag', { shortPath: link.shortCode, tag: 'Launch' })).toEqual({ tags: ['Launch'] });
    expect(await structured(mine, 'remove_link_tag', { shortPath: link.shortCode, tag: 'launch' })).toEqual({ tags: [] });
    await structured(mine, 'list_utm_templates');
    const template = await structured<{ id: string }>(mine, 'create_utm_template', { name: 'Mail', utmSource: 'newsletter' });
    expect(await structured(mine, 'delete_utm_template', { templateId: template.id })).toMatchObject({ success: true, message: 'UTM template deleted', template: { id: template.id } });
    await structured(mine, 'list_saved_views');
    const view = await structured<{ id: string }>(mine, 'create_saved_view', { name: 'Launches', filters: { tag: 'launch' } });
    await structured(mine, 'update_saved_view', { viewId: view.id, name: 'Renamed' });
    expect(await structured(mine, 'delete_saved_view', { viewId: view.id })).toMatchObject({ success: true, message: 'Saved view deleted' });
  });

  it('domains (verified over real DNS), namespaces, the trust score, exports', async () => {
    const domain = 'go.structured-brand.com';
    await structured(mine, 'list_domains');
    const added = await structured<{ txtRecord: { name: string; value: string } }>(mine, 'add_domain', { domain });
    expect(await structured(mine, 'verify_domain', { domain })).toMatchObject({ verified: false, status: 'pending_txt' });
    dns.set(added.txtRecord.name, [added.txtRecord.value]);
    expect(await structured(mine, 'verify_domain', { domain })).toMatchObject({ verified: true, status: 'active', billing: { free: expect.any(Boolean) } });
    expect(await structured(mine, 'update_domain', { domain, notFoundPage: { type: 'html', html: '<p>Nothing here</p>' } })).toMatchObject({ domain, notFoundPage: { type: 'html' } });
    expect(await structured(mine, 'update_domain', { domain, notFoundPage: null })).toMatchObject({ notFoundPage: null });
    expect(await structured(mine, 'list_domains')).toMatchObject({ domains: [expect.objectContaining({ domain, status: 'active' })] });
    expect(await structured(mine, 'delete_domain', { domain })).toEqual({ success: true });

    // An old prefix stays held while a link uses it; once the link is gone, it can be released.
    const first = (await structured<{ namespace: string }>(mine, 'get_profile')).namespace;
    const slugged = await structured<{ fullPath: string }>(mine, 'shorten_url', { url: 'https://example.com/held', slug: 'held' });
    const namespace = `st-${randomBytes(3).toString('hex')}`;
    expect(await structured(mine, 'set_namespace', { namespace })).toEqual({ namespace });
    await structured(mine, 'delete_link', { shortPath: slugged.fullPath });
    expect(await structured(mine, 'delete_namespace', { namespace: first })).toEqual({ success: true, namespace: first });

    expect(await structured(mine, 'get_link_trust_score', { shortPath: link.shortCode })).toMatchObject({ short: link.shortCode });
    expect(await structured(mine, 'export_links', { format: 'json' })).toMatchObject({ contentType: expect.stringContaining('json') });
    await structured(mine, 'export_link_stats', { shortPath: link.shortCode });
  });

  it('webhooks: list, create, update, a test delivery to a real receiver, delete', async () => {
    await structured(mine, 'list_webhooks');
    const hook = await structured<{ id: string; secret: string }>(mine, 'create_webhook', { url: receiver.endpoint('/structured'), events: ['link.created'] });
    expect(hook.secret).toEqual(expect.any(String));
    await structured(mine, 'update_webhook', { webhookId: hook.id, name: 'Renamed' });
    expect(await structured(mine, 'test_webhook', { webhookId: hook.id })).toMatchObject({ success: true, statusCode: 200, error: null });
    expect(await structured(mine, 'delete_webhook', { webhookId: hook.id })).toEqual({ success: true, message: 'Webhook deleted' });
  });

  it('affiliate: a program, discovered and joined by another account, its partners, partnerships and stats', async () => {
    const program = await structured<{ id: string }>(mine, 'create_affiliate_program', { name: 'Structured', url: 'https://shop.example.com/', commissionType: 'CPC', commissionCents: 5 });
    await structured(mine, 'list_affiliate_programs');
    expect(await structured(theirs, 'discover_affiliate_programs')).toMatchObject({ programs: [expect.objectContaining({ id: program.id })] });
    await structured(theirs, 'join_affiliate_program', { programId: program.id });
    expect(await structured(mine, 'list_affiliate_partners', { programId: program.id })).toMatchObject({ partners: [expect.objectContaining({ programId: program.id })] });
    await structured(theirs, 'list_affiliate_partnerships');
    expect(await structured(mine, 'get_affiliate_stats', { programId: program.id })).toMatchObject({ scope: 'owner' });
    expect(await structured(theirs, 'get_affiliate_stats', { programId: program.id })).toMatchObject({ scope: 'partner' });
  });

  it('the account, agent links and the web2app session', async () => {
    expect(await structured(mine, 'get_profile')).toMatchObject({ email: owner.email, tier: 'builder' });
    await structured(mine, 'get_agentlink_stats', { shortCode: link.shortCode });
    await structured(mine, 'get_agentlink_account_stats');
    expect((await structured<{ links: unknown[] }>(mine, 'list_agentlink_links')).links.length).toBeGreaterThan(0);
    expect(await structured(mine, 'get_web2app_session', { sessionId })).toMatchObject({ id: sessionId });
  });

  it('delete_link answers REST`s {success, message}', async () => {
    expect(await structured(mine, 'delete_link', { shortPath: link.shortCode })).toEqual({ success: true, message: `Deleted http://snip.test/${link.shortCode}` });
  });

  it('a tool error carries no structuredContent, and the SDK client takes it as the tool error it is', async () => {
    // A refusal of the service (the link was deleted above), of the arguments' schema, of the plan.
    const calls = [
      [mine, 'get_link', { shortPath: link.shortCode }],
      [mine, 'bulk_shorten', { links: [] }],
      [theirs, 'create_affiliate_program', { name: 'P', url: 'https://example.com/', commissionType: 'CPC', commissionCents: 5 }],
    ] as const;
    for (const [client, name, args] of calls) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      expect(result.isError, name).toBe(true);
      expect(result.structuredContent, name).toBeUndefined();
      expect(textJson<{ error: boolean; code: string }>(result)).toEqual({ error: true, code: expect.any(String), message: expect.any(String) });
    }
  });

  it('every one of the tools declared an outputSchema and was called above', () => {
    expect([...strict.keys()].sort()).toEqual([...EXPECTED_TOOLS].sort());
    expect([...covered].sort()).toEqual([...EXPECTED_TOOLS].sort());
  });
});
