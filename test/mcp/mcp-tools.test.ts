import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { LightMyRequestResponse } from 'fastify';
import jsqr from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectName, useTestApp, type BlockApp, type TestUser } from '../helpers/app.js';
import { startTxtServer, type TxtServer } from '../helpers/dns-txt.js';
import { LINKS_A, type LinkA } from '../helpers/links.js';
import {
  callTool,
  Clients,
  EXPECTED_TOOLS,
  failed,
  listenMcp,
  ok,
  refused,
  textJson,
  type ToolError,
} from '../helpers/mcp.js';
import { expectedSignature, startReceiver, waitFor, type Receiver } from '../helpers/receiver.js';

/**
 * Every MCP tool (spec 4.3) called through the SDK's own client over real HTTP: its effect, seen in the tool's
 * result and, where it matters, through REST; a bad argument for each (a schema refusal, or the service's own
 * rule with the code REST gives); the tier rules, read live; the rate limits MCP shares with REST.
 */

// jsqr is CommonJS whose exports are the function with itself as `default` (see test/qr/qr.test.ts).
const jsQR = jsqr.default;

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures');

/** What the link tools answer: Description A's link details. */
type LinkDetails = LinkA;

/** One describe block's app listening on a real port, with SDK clients for its accounts. */
function mcpBlock(env: Record<string, string> = {}) {
  const t = useTestApp(env);
  let url: URL;
  const clients = new Clients(() => url);
  beforeAll(async () => {
    url = await listenMcp(t);
  });
  afterAll(() => clients.closeAll());
  return { t, connect: (user: TestUser) => clients.for(user) };
}

/** REST through app.inject, asserting the status. */
async function rest<T = Record<string, unknown>>(t: BlockApp, user: TestUser | null, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object, status = 200): Promise<T> {
  const res = await t.as(user, { method, url, ...(payload === undefined ? {} : { payload }) });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  return res.json<T>();
}

/** The code of a REST error answer (asserting it is one). */
function restCode(res: LightMyRequestResponse): string {
  expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
  return res.json<{ code: string }>().code;
}

const linkUrl = (shortPath: string) => `${LINKS_A}/${encodeURIComponent(shortPath)}`;

/** A visitor's click: GET /<shortPath> with a browser User-Agent, asserting the redirect. */
async function click(t: BlockApp, shortPath: string, ua = CHROME, referer?: string): Promise<void> {
  const res = await t.app.inject({ method: 'GET', url: `/${shortPath}`, headers: { 'user-agent': ua, ...(referer ? { referer } : {}) } });
  expect(res.statusCode, res.body).toBe(302);
}

/** A bad argument: a tool error with the code REST gives for that field (INVALID_<FIELD> or MISSING_<FIELD>). */
async function badArgs(client: Client, name: string, args: Record<string, unknown>): Promise<void> {
  const body = textJson<ToolError>(await failed(client, name, args));
  expect(body, `${name} ${JSON.stringify(args)}`).toEqual({ error: true, code: expect.stringMatching(/^(INVALID|MISSING)_[A-Z_]+$/), message: expect.any(String) });
}

/** A tool that takes no arguments, called with arguments that are not an object: a JSON-RPC error, no result. */
async function notAnObject(client: Client, name: string): Promise<void> {
  const call = client.callTool({ name, arguments: 'not an object' as unknown as Record<string, unknown> });
  await expect(call, name).rejects.toBeInstanceOf(McpError);
}

async function shorten(client: Client, args: Record<string, unknown>): Promise<LinkDetails> {
  return ok<LinkDetails>(client, 'shorten_url', args);
}

describe(`MCP link tools (${dialectName})`, () => {
  const { t, connect } = mcpBlock();
  const pro = t.user('pro');
  const other = t.user('pro');
  const builder = t.user('builder');
  let client: Client;

  beforeAll(async () => {
    client = await connect(pro);
  });

  it('shorten_url creates a link: the result is the link as REST shows it, and it redirects', async () => {
    const link = await shorten(client, { url: 'https://example.com/mcp-shorten' });
    expect(link).toMatchObject({
      shortUrl: `http://snip.test/${link.shortCode}`,
      fullPath: null,
      namespace: null,
      long: 'https://example.com/mcp-shorten',
      clicks: 0,
      expiresAt: null,
      maxClicks: null,
      isCustom: false,
      folderId: null,
      domain: null,
    });
    expect(link.shortCode).toMatch(/^[A-Za-z0-9]{6}$/);
    expect(link.created).toMatch(ISO_INSTANT);
    expect(await rest(t, pro, 'GET', linkUrl(link.shortCode))).toEqual(link);
    const res = await t.app.inject({ method: 'GET', url: `/${link.shortCode}` });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://example.com/mcp-shorten');
  });

  it('shorten_url with a slug makes <namespace>/<slug>; expiry, click cap and blocked countries are kept', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const link = await shorten(client, { url: 'https://example.com/slugged', slug: 'Spring-Sale', expiresAt, maxClicks: 5, blockedCountries: ['DE'] });
    expect(link).toMatchObject({
      fullPath: `${pro.namespace}/Spring-Sale`,
      namespace: pro.namespace,
      shortUrl: `http://snip.test/${pro.namespace}/Spring-Sale`,
      isCustom: true,
      maxClicks: 5,
      blockedCountries: ['DE'],
    });
    expect(Date.parse(link.expiresAt!)).toBe(Date.parse(expiresAt));
    expect(await rest(t, pro, 'GET', linkUrl(link.fullPath!))).toEqual(link);
    const res = await t.app.inject({ method: 'GET', url: `/${link.fullPath}` });
    expect(res.headers.location).toBe('https://example.com/slugged');
  });

  it('shorten_url: bad arguments are refused by the schema; broken rules give REST`s codes', async () => {
    await badArgs(client, 'shorten_url', { url: 5 });
    await badArgs(client, 'shorten_url', {});
    await badArgs(client, 'shorten_url', { url: 'https://example.com', maxClicks: 0 });
    await badArgs(client, 'shorten_url', { url: 'https://example.com', blockedCountries: 'DE' });
    for (const [args, code] of [
      [{ url: 'ftp://x' }, 'INVALID_URL'],
      [{ url: 'not a url' }, 'INVALID_URL'],
      [{ url: 'http://snip.test/abcdef' }, 'INVALID_URL'],
      [{ url: 'https://example.com', slug: 'ab' }, 'INVALID_SLUG'],
      [{ url: 'https://example.com', expiresAt: 'tomorrow' }, 'INVALID_EXPIRES_AT'],
      [{ url: 'https://example.com', expiresAt: '2020-01-01T00:00:00Z' }, 'EXPIRES_AT_IN_PAST'],
      [{ url: 'https://example.com', blockedCountries: ['Germany'] }, undefined],
      [{ url: 'https://example.com', domain: 'not-mine.example.com' }, undefined],
    ] as const) {
      const { slug, ...body } = args as Record<string, unknown>;
      const restBody = { ...body, ...(slug === undefined ? {} : { customSlug: slug }) };
      const expected = restCode(await t.as(pro, { method: 'POST', url: LINKS_A, payload: restBody }));
      if (code) expect(expected).toBe(code);
      await refused(client, 'shorten_url', args, expected);
    }
  });

  it('shorten_url with a slug already taken is SLUG_TAKEN, as on REST', async () => {
    await shorten(client, { url: 'https://example.com/first', slug: 'taken-once' });
    await refused(client, 'shorten_url', { url: 'https://example.com/second', slug: 'taken-once' }, 'SLUG_TAKEN');
  });

  it('list_links pages through the caller`s links, newest first, as REST does', async () => {
    const user = await t.createUser('pro');
    const mine = await connect(user);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      made.push((await shorten(mine, { url: `https://example.com/list-${i}` })).shortCode);
      t.clock.advance(1000);
    }
    const first = await ok<{ links: LinkDetails[]; pagination: object }>(mine, 'list_links', { limit: 2 });
    expect(first.links.map((l) => l.shortCode)).toEqual([made[2], made[1]]);
    expect(first.pagination).toEqual({ limit: 2, offset: 0, hasMore: true, total: 3 });
    const second = await ok<{ links: LinkDetails[]; pagination: object }>(mine, 'list_links', { limit: 2, offset: 2 });
    expect(second.links.map((l) => l.shortCode)).toEqual([made[0]]);
    expect(second.pagination).toEqual({ limit: 2, offset: 2, hasMore: false, total: 3 });
    const all = await ok<{ links: LinkDetails[] }>(mine, 'list_links');
    expect(all).toEqual(await rest(t, user, 'GET', LINKS_A));
    // Only the caller's own links.
    expect((await ok<{ links: LinkDetails[] }>(await connect(other), 'list_links')).links.map((l) => l.shortCode)).not.toContain(made[0]);
  });

  it('list_links: bad arguments', async () => {
    await badArgs(client, 'list_links', { limit: 0 });
    await badArgs(client, 'list_links', { limit: 101 });
    await badArgs(client, 'list_links', { limit: 'ten' });
    await badArgs(client, 'list_links', { offset: -1 });
    await refused(client, 'list_links', { folderId: 'fld_nope' }, restCode(await t.as(pro, { method: 'GET', url: `${LINKS_A}?folderId=fld_nope` })));
  });

  it('get_link answers the details REST answers, by code and by namespaced path', async () => {
    const link = await shorten(client, { url: 'https://example.com/get', slug: 'get-me' });
    for (const shortPath of [link.shortCode, link.fullPath!]) {
      expect(await ok(client, 'get_link', { shortPath })).toEqual(await rest(t, pro, 'GET', linkUrl(shortPath)));
    }
  });

  it('get_link: bad arguments; unknown and foreign links give REST`s codes', async () => {
    await badArgs(client, 'get_link', {});
    await badArgs(client, 'get_link', { shortPath: 123456 });
    await badArgs(client, 'get_link', { shortPath: '' });
    const foreign = await shorten(await connect(other), { url: 'https://example.com/foreign' });
    for (const shortPath of ['zzzzzz', foreign.shortCode, `${pro.namespace}/no-such-slug`]) {
      await refused(client, 'get_link', { shortPath }, restCode(await t.as(pro, { method: 'GET', url: linkUrl(shortPath) })));
    }
    expect((await refused(client, 'get_link', { shortPath: foreign.shortCode }, 'ACCESS_DENIED')).message).not.toContain('foreign');
  });

  it('update_link changes the destination (the redirect follows), clears and sets fields', async () => {
    const link = await shorten(client, { url: 'https://example.com/before', maxClicks: 10 });
    const updated = await ok<LinkDetails>(client, 'update_link', { shortPath: link.shortCode, url: 'https://example.com/after', maxClicks: null });
    expect(updated).toMatchObject({ shortCode: link.shortCode, long: 'https://example.com/after', maxClicks: null });
    expect(await rest(t, pro, 'GET', linkUrl(link.shortCode))).toEqual(updated);
    const res = await t.app.inject({ method: 'GET', url: `/${link.shortCode}` });
    expect(res.headers.location).toBe('https://example.com/after');
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const again = await ok<LinkDetails>(client, 'update_link', { shortPath: link.shortCode, expiresAt, blockedCountries: ['FR', 'DE'] });
    expect(Date.parse(again.expiresAt!)).toBe(Date.parse(expiresAt));
    expect([...again.blockedCountries].sort()).toEqual(['DE', 'FR']);
  });

  it('update_link: bad arguments; broken rules give REST`s codes', async () => {
    const link = await shorten(client, { url: 'https://example.com/upd' });
    await badArgs(client, 'update_link', { url: 'https://example.com/x' });
    await badArgs(client, 'update_link', { shortPath: link.shortCode, maxClicks: 0 });
    await badArgs(client, 'update_link', { shortPath: link.shortCode, url: 7 });
    for (const change of [{ url: 'nope' }, { url: 'javascript:alert(1)' }, { expiresAt: '2020-01-01T00:00:00Z' }, { activeFrom: 'soon' }, { blockedCountries: ['Germany'] }]) {
      const expected = restCode(await t.as(pro, { method: 'PATCH', url: linkUrl(link.shortCode), payload: change }));
      await refused(client, 'update_link', { shortPath: link.shortCode, ...change }, expected);
    }
    expect((await rest<LinkDetails>(t, pro, 'GET', linkUrl(link.shortCode))).long).toBe('https://example.com/upd');
  });

  it('delete_link deletes: the result names the short URL, REST then answers 404, the redirect is gone', async () => {
    const link = await shorten(client, { url: 'https://example.com/doomed' });
    expect(await ok(client, 'delete_link', { shortPath: link.shortCode })).toEqual({ success: true, message: `Deleted http://snip.test/${link.shortCode}` });
    expect(restCode(await t.as(pro, { method: 'GET', url: linkUrl(link.shortCode) }))).toBe('NOT_FOUND');
    expect((await t.app.inject({ method: 'GET', url: `/${link.shortCode}` })).statusCode).toBe(404);
  });

  it('delete_link: bad arguments; a deleted, unknown or foreign link gives REST`s code and deletes nothing', async () => {
    await badArgs(client, 'delete_link', {});
    await badArgs(client, 'delete_link', { shortPath: null });
    const link = await shorten(client, { url: 'https://example.com/twice' });
    await ok(client, 'delete_link', { shortPath: link.shortCode });
    await refused(client, 'delete_link', { shortPath: link.shortCode }, 'NOT_FOUND');
    const foreign = await shorten(await connect(other), { url: 'https://example.com/keep' });
    await refused(client, 'delete_link', { shortPath: foreign.shortCode }, restCode(await t.as(pro, { method: 'DELETE', url: linkUrl(foreign.shortCode) })));
    await rest(t, other, 'GET', linkUrl(foreign.shortCode));
  });

  it('bulk_shorten (Builder) creates the good items and reports the bad one, in order', async () => {
    const bulk = await connect(builder);
    const result = await ok<{ total: number; succeeded: number; results: Array<Record<string, unknown>> }>(bulk, 'bulk_shorten', {
      links: [
        { url: 'https://example.com/bulk-1' },
        { url: 'ftp://not-allowed.example.com' },
        { url: 'https://example.com/bulk-3', slug: 'bulk-three' },
        { url: 'https://example.com/bulk-4', maxClicks: 3 },
      ],
    });
    expect(result.total).toBe(4);
    expect(result.succeeded).toBe(3);
    expect(result.results.map((r) => [r.url, r.success])).toEqual([
      ['https://example.com/bulk-1', true],
      ['ftp://not-allowed.example.com', false],
      ['https://example.com/bulk-3', true],
      ['https://example.com/bulk-4', true],
    ]);
    expect(result.results[1]).toMatchObject({ success: false, code: 'INVALID_URL', error: expect.any(String) });
    const made = result.results.filter((r) => r.success).map((r) => r.link as { shortCode: string; fullPath: string | null; long: string; maxClicks: number | null });
    expect(made[1]!.fullPath).toBe(`${builder.namespace}/bulk-three`);
    expect(made[2]!.maxClicks).toBe(3);
    for (const link of made) expect((await rest<LinkDetails>(t, builder, 'GET', linkUrl(link.shortCode))).long).toBe(link.long);
  });

  it('bulk_shorten: 51 links, no links, or not a list are refused by the schema; nothing is created', async () => {
    const bulk = await connect(builder);
    const before = (await rest<{ links: unknown[] }>(t, builder, 'GET', `${LINKS_A}?limit=100`)).links.length;
    const links51 = Array.from({ length: 51 }, (_, i) => ({ url: `https://example.com/too-many-${i}` }));
    await badArgs(bulk, 'bulk_shorten', { links: links51 });
    await badArgs(bulk, 'bulk_shorten', { links: [] });
    await badArgs(bulk, 'bulk_shorten', { links: 'https://example.com' });
    await badArgs(bulk, 'bulk_shorten', { links: ['https://example.com/not-an-object'] });
    expect((await rest<{ links: unknown[] }>(t, builder, 'GET', `${LINKS_A}?limit=100`)).links).toHaveLength(before);
    // 50 is the limit, and allowed.
    const fifty = await ok<{ total: number; succeeded: number }>(bulk, 'bulk_shorten', { links: links51.slice(0, 50) });
    expect(fifty).toMatchObject({ total: 50, succeeded: 50 });
  });
});

describe(`MCP update tools given nothing to change (${dialectName})`, () => {
  const { t, connect } = mcpBlock({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  const pro = t.user('pro');
  let client: Client;
  const targets: Record<string, { args: Record<string, unknown>; rest: string }> = {};

  beforeAll(async () => {
    client = await connect(pro);
    const link = await shorten(client, { url: 'https://example.com/unchanged' });
    const folder = await ok<{ id: string }>(client, 'create_folder', { name: 'Unchanged' });
    const hook = await ok<{ id: string }>(client, 'create_webhook', { url: 'http://127.0.0.1:59999/unchanged', events: ['link.click'] });
    const domain = (await ok<{ domain: string }>(client, 'add_domain', { domain: 'unchanged.mcp-brand.com' })).domain;
    targets.update_link = { args: { shortPath: link.shortCode }, rest: linkUrl(link.shortCode) };
    targets.update_folder = { args: { folderId: folder.id }, rest: `/api/v1/folders/${folder.id}` };
    targets.update_webhook = { args: { webhookId: hook.id }, rest: `/api/v1/webhooks/${hook.id}` };
    targets.update_domain = { args: { domain }, rest: `/api/user/domains/${domain}` };
    const view = await ok<{ id: string }>(client, 'create_saved_view', { name: 'Unchanged', filters: {} });
    targets.update_saved_view = { args: { viewId: view.id }, rest: `/api/v1/views/${view.id}` };
  });

  it('update_qr_settings with nothing to change is REST`s INVALID_BODY', async () => {
    const expected = restCode(await t.as(pro, { method: 'PATCH', url: '/api/v1/qr-settings', payload: {} }));
    await refused(client, 'update_qr_settings', {}, expected);
  });

  // REST refuses a change naming no field (400 INVALID_BODY); so do the update tools, or an assistant that forgot
  // the field to change would be told it worked.
  for (const name of ['update_link', 'update_folder', 'update_webhook', 'update_domain', 'update_saved_view']) {
    it(`${name} with nothing to change is REST's INVALID_BODY`, async () => {
      const expected = restCode(await t.as(pro, { method: 'PATCH', url: targets[name]!.rest, payload: {} }));
      expect(expected).toBe('INVALID_BODY');
      await refused(client, name, targets[name]!.args, expected);
    });
  }
});

describe(`MCP analytics tools (${dialectName})`, () => {
  const { t, connect } = mcpBlock();
  const pro = t.user('pro');
  const other = t.user('pro');
  let client: Client;
  let link: LinkDetails;
  let second: LinkDetails;

  beforeAll(async () => {
    client = await connect(pro);
    link = await shorten(client, { url: 'https://example.com/clicked' });
    second = await shorten(client, { url: 'https://example.com/clicked-2' });
    await click(t, link.shortCode, CHROME, 'https://news.example.org/story');
    await click(t, link.shortCode, CHROME);
    await click(t, link.shortCode, IPHONE);
    await click(t, second.shortCode, CHROME);
  });

  it('get_link_stats 24h: the last 24 hours hour by hour, this hour holding the clicks', async () => {
    const hourOf = (ms: number) => Math.floor(ms / 3_600_000) * 3_600_000;
    const before = hourOf(t.clock.now().getTime());
    const stats = await ok<{ shortCode: string; period: string; totalClicks: number; clicksByHour: { hour: string; clicks: number }[] }>(client, 'get_link_stats', {
      shortPath: link.shortCode,
      period: '24h',
    });
    expect(stats.shortCode).toBe(link.shortCode);
    expect(stats.period).toBe('24h');
    expect(stats.totalClicks).toBe(3);
    expect(stats.clicksByHour).toHaveLength(24);
    const hours = stats.clicksByHour.map((h) => Date.parse(h.hour));
    for (let i = 1; i < 24; i++) expect(hours[i]! - hours[i - 1]!).toBe(3_600_000);
    expect([before, hourOf(t.clock.now().getTime())]).toContain(hours[23]);
    expect(stats.clicksByHour.reduce((n, h) => n + h.clicks, 0)).toBe(3);
    expect(stats.clicksByHour[23]!.clicks + stats.clicksByHour[22]!.clicks).toBe(3);
  });

  it.each(['7d', '30d'] as const)('get_link_stats %s: the aggregate REST answers, with the breakdowns', async (period) => {
    const stats = await ok<Record<string, unknown>>(client, 'get_link_stats', { shortPath: link.shortCode, period });
    expect(stats).toMatchObject({ shortCode: link.shortCode, period, totalClicks: 3, deviceBreakdown: { desktop: 2, mobile: 1, tablet: 0 }, tierLimit: 90 });
    expect(stats.clicksByDay).toHaveLength(Number(period.slice(0, -1)));
    const aggregate = await rest<Record<string, unknown>>(t, pro, 'GET', `/api/stats/${link.shortCode}/aggregate?period=${period}`);
    for (const key of ['totalClicks', 'clicksByDay', 'deviceBreakdown', 'countryBreakdown', 'referrerBreakdown', 'browserBreakdown', 'osBreakdown', 'hourBreakdown', 'uniqueVisitors', 'tierLimit']) {
      expect(stats[key], key).toEqual(aggregate[key]);
    }
  });

  it('get_link_stats defaults to 7d', async () => {
    expect(await ok(client, 'get_link_stats', { shortPath: link.shortCode })).toMatchObject({ period: '7d', totalClicks: 3 });
  });

  it('get_link_stats: period 90d and other bad arguments are refused by the schema; unknown and foreign links give REST`s codes', async () => {
    await badArgs(client, 'get_link_stats', { shortPath: link.shortCode, period: '90d' });
    await badArgs(client, 'get_link_stats', { shortPath: link.shortCode, period: '1h' });
    await badArgs(client, 'get_link_stats', { period: '7d' });
    const foreign = await shorten(await connect(other), { url: 'https://example.com/theirs' });
    for (const code of ['zzzzzz', foreign.shortCode]) {
      await refused(client, 'get_link_stats', { shortPath: code }, restCode(await t.as(pro, { method: 'GET', url: `/api/stats/${code}/aggregate` })));
    }
  });

  it('get_aggregate_stats for a link: REST`s aggregate; 90d is within Pro`s history', async () => {
    for (const period of ['7d', '90d'] as const) {
      const stats = await ok<Record<string, unknown>>(client, 'get_aggregate_stats', { shortPath: link.shortCode, period });
      const aggregate = await rest<Record<string, unknown>>(t, pro, 'GET', `/api/stats/${link.shortCode}/aggregate?period=${period}`);
      expect(stats).toMatchObject({ shortCode: link.shortCode, period, totalClicks: aggregate.totalClicks, clicksByDay: aggregate.clicksByDay, tierLimit: 90 });
    }
  });

  it('get_aggregate_stats without a link: the whole account, as /api/analytics counts it', async () => {
    const stats = await ok<Record<string, unknown>>(client, 'get_aggregate_stats', {});
    expect(stats).toMatchObject({ scope: 'account', period: '7d', totalClicks: 4, deviceBreakdown: { desktop: 3, mobile: 1, tablet: 0 } });
    const account = await rest<Record<string, unknown>>(t, pro, 'GET', '/api/analytics?period=7d');
    for (const key of ['totalClicks', 'clicksByDay', 'deviceBreakdown', 'browserBreakdown', 'uniqueVisitors', 'tierLimit']) expect(stats[key], key).toEqual(account[key]);
    // Another account's figures are its own.
    expect(await ok(await connect(other), 'get_aggregate_stats', { period: '30d' })).toMatchObject({ scope: 'account', totalClicks: 0 });
  });

  it('get_aggregate_stats: 365d beyond Pro`s history is REST`s PERIOD_EXCEEDS_PLAN; bad periods are refused by the schema', async () => {
    const expected = restCode(await t.as(pro, { method: 'GET', url: `/api/stats/${link.shortCode}/aggregate?period=365d` }));
    expect(expected).toBe('PERIOD_EXCEEDS_PLAN');
    await refused(client, 'get_aggregate_stats', { shortPath: link.shortCode, period: '365d' }, expected);
    await refused(client, 'get_aggregate_stats', { period: '365d' }, expected);
    await badArgs(client, 'get_aggregate_stats', { period: '24h' });
    await badArgs(client, 'get_aggregate_stats', { shortPath: 42 });
  });

  it('get_recent_clicks: the newest clicks with their details, and the total; limit cuts the list', async () => {
    const recent = await ok<{ shortCode: string; totalClicks: number; clicks: Array<Record<string, unknown>> }>(client, 'get_recent_clicks', { shortPath: link.shortCode });
    expect(recent.shortCode).toBe(link.shortCode);
    expect(recent.totalClicks).toBe(3);
    expect(recent.clicks).toHaveLength(3);
    for (const c of recent.clicks) {
      expect(Object.keys(c).sort()).toEqual(['browser', 'city', 'country', 'device', 'os', 'referrer', 'region', 'timestamp']);
      expect(c.timestamp).toMatch(ISO_INSTANT);
    }
    expect(recent.clicks.map((c) => c.device).sort()).toEqual(['desktop', 'desktop', 'mobile']);
    expect(recent.clicks.map((c) => c.referrer)).toContain('news.example.org');
    const linkStats = await rest<{ clicks: unknown[] }>(t, pro, 'GET', `${linkUrl(link.shortCode)}/stats`);
    expect(recent.clicks).toEqual(linkStats.clicks);
    const two = await ok<{ clicks: unknown[] }>(client, 'get_recent_clicks', { shortPath: link.shortCode, limit: 2 });
    expect(two.clicks).toEqual(recent.clicks.slice(0, 2));
  });

  it('get_recent_clicks: bad arguments; unknown link', async () => {
    await badArgs(client, 'get_recent_clicks', { shortPath: link.shortCode, limit: 101 });
    await badArgs(client, 'get_recent_clicks', { shortPath: link.shortCode, limit: 0 });
    await badArgs(client, 'get_recent_clicks', {});
    await refused(client, 'get_recent_clicks', { shortPath: 'zzzzzz' }, 'NOT_FOUND');
  });

  it('get_usage: this cycle`s tracked clicks and the plan, exactly what GET /api/usage answers', async () => {
    const usage = await ok<Record<string, unknown>>(client, 'get_usage');
    expect(usage).toMatchObject({ trackedClicks: 4, includedClicks: 50_000, overageClicks: 0, capReached: false, recordingPaused: false });
    expect(usage).toEqual(await rest(t, pro, 'GET', '/api/usage'));
    await notAnObject(client, 'get_usage');
  });
});

describe(`MCP QR tools (${dialectName})`, () => {
  const { t, connect } = mcpBlock();
  const pro = t.user('pro');
  const other = t.user('pro');
  let client: Client;

  beforeAll(async () => {
    client = await connect(pro);
  });

  /** The PNG of an image content item and what a scanner reads in it. */
  function scan(result: CallToolResult): { png: PNG; text: string } {
    const image = result.content.find((c) => c.type === 'image') as { type: 'image'; data: string; mimeType: string } | undefined;
    expect(image, JSON.stringify(result)).toBeDefined();
    expect(image!.mimeType).toBe('image/png');
    const png = PNG.sync.read(Buffer.from(image!.data, 'base64'));
    const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(code, 'the image decodes as a QR code').not.toBeNull();
    return { png, text: code!.data };
  }

  it('get_qr_code answers a PNG that decodes to the short URL, and JSON naming it', async () => {
    const link = await shorten(client, { url: 'https://example.com/qr' });
    const result = await callTool(client, 'get_qr_code', { shortPath: link.shortCode });
    expect(result.isError ?? false).toBe(false);
    const { png, text } = scan(result);
    expect(text).toBe(`http://snip.test/${link.shortCode}`);
    expect([png.width, png.height]).toEqual([300, 300]);
    expect(textJson(result)).toEqual({ url: `http://snip.test/${link.shortCode}`, etag: expect.any(String), qrUrl: `http://snip.test/api/qr/${link.shortCode}` });
    // The same pixels the public REST route serves.
    const image = result.content.find((c) => c.type === 'image') as { data: string };
    const res = await t.app.inject({ method: 'GET', url: `/api/qr/${link.shortCode}` });
    expect(res.rawPayload.equals(Buffer.from(image.data, 'base64'))).toBe(true);
  });

  it('get_qr_code of a namespaced link, with size, colours, margin and error correction', async () => {
    const link = await shorten(client, { url: 'https://example.com/qr-ns', slug: 'qr-menu' });
    const result = await callTool(client, 'get_qr_code', { shortPath: link.fullPath!, size: 420, color: '1A2B3C', bgColor: 'FFFFEE', margin: 2, ecc: 'H' });
    const { png, text } = scan(result);
    expect(text).toBe(`http://snip.test/${pro.namespace}/qr-menu`);
    expect([png.width, png.height]).toEqual([420, 420]);
    expect(Buffer.from(png.data.subarray(0, 3)).toString('hex').toUpperCase()).toBe('FFFFEE');
    expect(textJson<{ qrUrl: string }>(result).qrUrl).toBe(`http://snip.test/api/qr/${pro.namespace}/qr-menu`);
  });

  it('get_qr_code: bad arguments; bad colours give REST`s code; only the caller`s own links', async () => {
    const link = await shorten(client, { url: 'https://example.com/qr-bad' });
    await badArgs(client, 'get_qr_code', { shortPath: link.shortCode, size: 50 });
    await badArgs(client, 'get_qr_code', { shortPath: link.shortCode, ecc: 'X' });
    await badArgs(client, 'get_qr_code', { size: 300 });
    const restRed = restCode(await t.app.inject({ method: 'GET', url: `/api/qr/${link.shortCode}?color=red` }));
    await refused(client, 'get_qr_code', { shortPath: link.shortCode, color: 'red' }, restRed);
    await refused(client, 'get_qr_code', { shortPath: 'zzzzzz' }, 'NOT_FOUND');
    const foreign = await shorten(await connect(other), { url: 'https://example.com/their-qr' });
    await refused(client, 'get_qr_code', { shortPath: foreign.shortCode }, 'ACCESS_DENIED');
  });

  // Parameters are checked before the link, as on REST (docs/decisions.md §4.1 QR).
  it('get_qr_code checks its parameters before the link, like REST: a bad colour on an unknown link is INVALID_COLOR', async () => {
    const expected = restCode(await t.app.inject({ method: 'GET', url: '/api/qr/zzzzzz?color=red' }));
    await refused(client, 'get_qr_code', { shortPath: 'zzzzzz', color: 'red' }, expected);
  });

  it('get_qr_settings and update_qr_settings: the defaults, a change (REST sees it), and new codes drawn with it', async () => {
    const user = await t.createUser('pro');
    const mine = await connect(user);
    expect(await ok(mine, 'get_qr_settings')).toEqual({ color: '000000', bgColor: 'FFFFFF', size: 300, errorCorrection: 'M', margin: 4, updatedAt: null });
    const updated = await ok<Record<string, unknown>>(mine, 'update_qr_settings', { size: 500, bgColor: 'EEFFEE' });
    expect(updated).toMatchObject({ color: '000000', bgColor: 'EEFFEE', size: 500, errorCorrection: 'M', margin: 4, updatedAt: expect.stringMatching(ISO_INSTANT) });
    expect(await ok(mine, 'get_qr_settings')).toEqual(updated);
    expect(await rest(t, user, 'GET', '/api/v1/qr-settings')).toEqual(updated);
    const link = await shorten(mine, { url: 'https://example.com/qr-settings' });
    const { png } = scan(await callTool(mine, 'get_qr_code', { shortPath: link.shortCode }));
    expect(png.width).toBe(500);
    expect(Buffer.from(png.data.subarray(0, 3)).toString('hex').toUpperCase()).toBe('EEFFEE');
  });

  it('get_qr_settings / update_qr_settings: bad arguments; an empty change is REST`s INVALID_BODY; bad values REST`s codes', async () => {
    await notAnObject(client, 'get_qr_settings');
    await badArgs(client, 'update_qr_settings', { size: 'big' });
    await badArgs(client, 'update_qr_settings', { margin: 11 });
    await badArgs(client, 'update_qr_settings', { errorCorrection: 'Z' });
    await refused(client, 'update_qr_settings', {}, restCode(await t.as(pro, { method: 'PATCH', url: '/api/v1/qr-settings', payload: {} })));
    await refused(client, 'update_qr_settings', { color: '#12345' }, restCode(await t.as(pro, { method: 'PATCH', url: '/api/v1/qr-settings', payload: { color: '#12345' } })));
  });
});

describe(`MCP folder tools (${dialectName})`, () => {
  const { t, connect } = mcpBlock();
  const pro = t.user('pro');
  const other = t.user('pro');
  let client: Client;

  interface Folder {
    id: string;
    name: string;
    color: string | null;
    linkCount: number;
    createdAt: string;
  }
  const folderList = (c: Client) => ok<{ folders: Folder[]; limit: number | null }>(c, 'list_folders');
  const count = async (c: Client, id: string) => (await folderList(c)).folders.find((f) => f.id === id)?.linkCount;

  beforeAll(async () => {
    client = await connect(pro);
  });

  it('create_folder then list_folders; REST lists the same folder', async () => {
    const folder = await ok<Folder>(client, 'create_folder', { name: 'Campaigns', color: '#12ab34' });
    expect(folder).toEqual({ id: expect.stringMatching(/^fld_/), name: 'Campaigns', color: '#12AB34', linkCount: 0, createdAt: expect.stringMatching(ISO_INSTANT) });
    const list = await folderList(client);
    expect(list.folders).toContainEqual(folder);
    expect(list.limit).toBeNull();
    expect((await rest<{ folders: Folder[] }>(t, pro, 'GET', '/api/v1/folders')).folders).toContainEqual(folder);
  });

  it('update_folder renames and recolours; null removes the colour', async () => {
    const folder = await ok<Folder>(client, 'create_folder', { name: 'Old name' });
    const renamed = await ok<Folder>(client, 'update_folder', { folderId: folder.id, name: 'New name', color: '#000000' });
    expect(renamed).toMatchObject({ id: folder.id, name: 'New name', color: '#000000' });
    expect(await ok<Folder>(client, 'update_folder', { folderId: folder.id, color: null })).toMatchObject({ name: 'New name', color: null });
    expect((await rest<{ folders: Folder[] }>(t, pro, 'GET', '/api/v1/folders')).folders.find((f) => f.id === folder.id)).toMatchObject({ name: 'New name', color: null });
  });

  it('assign_link_to_folder files, moves and unfiles a link: linkCount follows, in list_folders and on REST', async () => {
    const a = await ok<Folder>(client, 'create_folder', { name: 'Folder A' });
    const b = await ok<Folder>(client, 'create_folder', { name: 'Folder B' });
    const link = await shorten(client, { url: 'https://example.com/filed', slug: 'filed-link' });

    expect(await ok(client, 'assign_link_to_folder', { shortPath: link.fullPath!, folderId: a.id })).toEqual({ success: true, folderId: a.id });
    expect([await count(client, a.id), await count(client, b.id)]).toEqual([1, 0]);
    expect((await rest<LinkDetails>(t, pro, 'GET', linkUrl(link.shortCode))).folderId).toBe(a.id);
    const inA = await ok<{ links: LinkDetails[] }>(client, 'list_links', { folderId: a.id });
    expect(inA.links.map((l) => l.shortCode)).toEqual([link.shortCode]);

    await ok(client, 'assign_link_to_folder', { shortPath: link.shortCode, folderId: b.id });
    expect([await count(client, a.id), await count(client, b.id)]).toEqual([0, 1]);
    const restFolders = (await rest<{ folders: Folder[] }>(t, pro, 'GET', '/api/v1/folders')).folders;
    expect(restFolders.find((f) => f.id === b.id)?.linkCount).toBe(1);

    expect(await ok(client, 'assign_link_to_folder', { shortPath: link.shortCode, folderId: null })).toEqual({ success: true, folderId: null });
    expect([await count(client, a.id), await count(client, b.id)]).toEqual([0, 0]);
    expect((await rest<LinkDetails>(t, pro, 'GET', linkUrl(link.shortCode))).folderId).toBeNull();
  });

  it('delete_folder deletes it; its links stay, unfiled', async () => {
    const folder = await ok<Folder>(client, 'create_folder', { name: 'Short-lived' });
    const link = await shorten(client, { url: 'https://example.com/survivor' });
    await ok(client, 'assign_link_to_folder', { shortPath: link.shortCode, folderId: folder.id });
    expect(await ok(client, 'delete_folder', { folderId: folder.id })).toEqual({ success: true, unassigned: 1 });
    expect((await folderList(client)).folders.map((f) => f.id)).not.toContain(folder.id);
    expect(await rest(t, pro, 'GET', linkUrl(link.shortCode))).toMatchObject({ folderId: null, long: 'https://example.com/survivor' });
  });

  it('folder tools: bad arguments; broken rules give REST`s codes', async () => {
    await notAnObject(client, 'list_folders');
    await badArgs(client, 'create_folder', {});
    await badArgs(client, 'create_folder', { name: 5 });
    await badArgs(client, 'update_folder', { name: 'x' });
    await badArgs(client, 'delete_folder', {});
    await badArgs(client, 'assign_link_to_folder', { shortPath: 'abcdef' });
    await badArgs(client, 'assign_link_to_folder', { shortPath: 'abcdef', folderId: 5 });
    for (const body of [{ name: '' }, { name: 'x'.repeat(51) }, { name: 'Blue', color: 'blue' }]) {
      await refused(client, 'create_folder', body, restCode(await t.as(pro, { method: 'POST', url: '/api/v1/folders', payload: body })));
    }
    await ok(client, 'create_folder', { name: 'Twice' });
    await refused(client, 'create_folder', { name: 'twice' }, restCode(await t.as(pro, { method: 'POST', url: '/api/v1/folders', payload: { name: 'TWICE' } })));
    await refused(client, 'update_folder', { folderId: 'fld_nope', name: 'x' }, 'FOLDER_NOT_FOUND');
    await refused(client, 'delete_folder', { folderId: 'fld_nope' }, restCode(await t.as(pro, { method: 'DELETE', url: '/api/v1/folders/fld_nope' })));
    const link = await shorten(client, { url: 'https://example.com/unfiled' });
    await refused(
      client,
      'assign_link_to_folder',
      { shortPath: link.shortCode, folderId: 'fld_nope' },
      restCode(await t.as(pro, { method: 'POST', url: `${linkUrl(link.shortCode)}/folder`, payload: { folderId: 'fld_nope' } })),
    );
    // Another account's folder.
    const theirs = await ok<Folder>(await connect(other), 'create_folder', { name: 'Theirs' });
    await refused(client, 'assign_link_to_folder', { shortPath: link.shortCode, folderId: theirs.id }, 'FOLDER_ACCESS_DENIED');
    await refused(client, 'delete_folder', { folderId: theirs.id }, 'FOLDER_NOT_FOUND');
  });
});

describe(`MCP webhook tools (${dialectName})`, () => {
  const { t, connect } = mcpBlock({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  const pro = t.user('pro');
  let client: Client;
  let receiver: Receiver;

  interface Webhook {
    id: string;
    url: string;
    name: string;
    events: string[];
    enabled: boolean;
    createdAt: string;
    lastDeliveryAt: string | null;
    lastStatus: number | null;
  }

  beforeAll(async () => {
    receiver = await startReceiver();
    client = await connect(pro);
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('create, list, update, test and delete a webhook; REST sees every step, the receiver gets a signed test', async () => {
    const url = receiver.endpoint('/hooks/mcp');
    const created = await ok<Webhook & { secret: string }>(client, 'create_webhook', { url, events: ['link.created', 'link.deleted'], name: 'From MCP' });
    expect(created).toMatchObject({ id: expect.stringMatching(/^whk_/), url, name: 'From MCP', events: ['link.created', 'link.deleted'], enabled: true, secret: expect.any(String) });
    const { secret, ...hook } = created;

    const listed = await ok<{ webhooks: Webhook[]; limit: number }>(client, 'list_webhooks');
    expect(listed).toEqual({ webhooks: [hook], limit: 2 });
    expect(await rest(t, pro, 'GET', '/api/v1/webhooks')).toEqual(listed);

    // A link made through MCP is announced like any other.
    const link = await shorten(client, { url: 'https://example.com/announced' });
    const delivery = await waitFor('the link.created delivery', () => receiver.to('/hooks/mcp').find((r) => r.headers['x-snip-event'] === 'link.created'));
    expect(JSON.parse(delivery.body.toString('utf8'))).toMatchObject({ event: 'link.created', data: expect.objectContaining({ shortCode: link.shortCode }) });
    expect(delivery.headers['x-snip-signature']).toBe(expectedSignature(secret, delivery.body));

    const newUrl = receiver.endpoint('/hooks/mcp-2');
    const updated = await ok<Webhook>(client, 'update_webhook', { webhookId: hook.id, url: newUrl, events: ['link.click'], name: 'Renamed', enabled: false });
    expect(updated).toMatchObject({ id: hook.id, url: newUrl, events: ['link.click'], name: 'Renamed', enabled: false });
    expect(await rest(t, pro, 'GET', `/api/v1/webhooks/${hook.id}`)).toEqual(updated);
    expect(await ok(client, 'update_webhook', { webhookId: hook.id, enabled: true })).toMatchObject({ enabled: true, name: 'Renamed' });

    const tested = await ok<{ success: boolean; statusCode: number; durationMs: number }>(client, 'test_webhook', { webhookId: hook.id });
    expect(tested).toMatchObject({ success: true, statusCode: 200, durationMs: expect.any(Number) });
    const test = receiver.to('/hooks/mcp-2').find((r) => r.headers['x-snip-event'] === 'webhook.test');
    expect(test, 'the receiver got the test delivery').toBeDefined();
    expect(test!.headers['x-snip-signature']).toBe(expectedSignature(secret, test!.body));
    expect(JSON.parse(test!.body.toString('utf8'))).toMatchObject({ event: 'webhook.test', data: { webhookId: hook.id } });
    expect((await rest<Webhook>(t, pro, 'GET', `/api/v1/webhooks/${hook.id}`)).lastStatus).toBe(200);

    // REST's answer to the same delete.
    expect(await ok(client, 'delete_webhook', { webhookId: hook.id })).toEqual({ success: true, message: 'Webhook deleted' });
    expect(await ok(client, 'list_webhooks')).toEqual({ webhooks: [], limit: 2 });
    expect(restCode(await t.as(pro, { method: 'GET', url: `/api/v1/webhooks/${hook.id}` }))).toBe('WEBHOOK_NOT_FOUND');
  });

  it('test_webhook reports a failing endpoint as success false with its status', async () => {
    const created = await ok<Webhook>(client, 'create_webhook', { url: receiver.endpoint('/hooks/failing', 503), events: ['link.click'] });
    expect(await ok(client, 'test_webhook', { webhookId: created.id })).toMatchObject({ success: false, statusCode: 503 });
    await ok(client, 'delete_webhook', { webhookId: created.id });
  });

  it('webhook tools: bad arguments; broken rules give REST`s codes', async () => {
    await notAnObject(client, 'list_webhooks');
    await badArgs(client, 'create_webhook', { url: receiver.endpoint('/hooks/x') });
    await badArgs(client, 'create_webhook', { url: receiver.endpoint('/hooks/x'), events: 'link.click' });
    await badArgs(client, 'update_webhook', { webhookId: 'whk_x', enabled: 'yes' });
    await badArgs(client, 'update_webhook', { enabled: true });
    await badArgs(client, 'test_webhook', {});
    await badArgs(client, 'delete_webhook', { webhookId: 5 });
    for (const body of [
      { url: receiver.endpoint('/hooks/x'), events: ['click'] },
      { url: receiver.endpoint('/hooks/x'), events: [] },
      { url: 'not a url', events: ['link.click'] },
    ]) {
      await refused(client, 'create_webhook', body, restCode(await t.as(pro, { method: 'POST', url: '/api/v1/webhooks', payload: body })));
    }
    expect((await refused(client, 'create_webhook', { url: receiver.endpoint('/hooks/x'), events: ['click'] }, 'INVALID_EVENTS')).message).toMatch(/link\.click/);
    expect(await ok(client, 'list_webhooks')).toMatchObject({ webhooks: [] });
    const unknown = restCode(await t.as(pro, { method: 'POST', url: '/api/v1/webhooks/whk_nope/test' }));
    await refused(client, 'update_webhook', { webhookId: 'whk_nope', name: 'x' }, unknown);
    await refused(client, 'test_webhook', { webhookId: 'whk_nope' }, unknown);
    await refused(client, 'delete_webhook', { webhookId: 'whk_nope' }, unknown);
  });
});

describe(`MCP domain tools (${dialectName})`, () => {
  // The DNS server starts before the block's app, which reads DNS_RESOLVER when it starts.
  let dns: TxtServer;
  beforeAll(async () => {
    dns = await startTxtServer();
  });
  afterAll(async () => {
    await dns?.close();
  });
  const { t, connect } = mcpBlock({
    get DNS_RESOLVER() {
      return dns.resolver;
    },
  });
  const builder = t.user('builder');
  const pro = t.user('pro');
  let client: Client;

  interface Added {
    domain: string;
    status: string;
    verificationToken: string;
    txtRecord: { name: string; type: string; value: string };
    cnameRecord: { name: string; type: string; value: string };
  }

  beforeAll(async () => {
    client = await connect(builder);
  });

  it('add_domain answers the TXT record; verify_domain finds it on a real DNS server and activates; the domain then carries links', async () => {
    const domain = 'go.mcp-brand.com';
    const added = await ok<Added>(client, 'add_domain', { domain });
    expect(added).toEqual({
      domain,
      status: 'pending_txt',
      verificationToken: expect.any(String),
      txtRecord: { name: `_snip-verify.${domain}`, type: 'TXT', value: `snip-verify=${added.verificationToken}` },
      cnameRecord: { name: domain, type: 'CNAME', value: 'snip.test' },
    });
    const listed = await ok<{ domains: Array<Record<string, unknown>>; monthlyPrice: number }>(client, 'list_domains');
    expect(listed).toEqual(await rest(t, builder, 'GET', '/api/user/domains'));
    expect(listed.domains).toEqual([expect.objectContaining({ domain, status: 'pending_txt' })]);

    // Not published yet: not verified, with a hint, still pending.
    const early = await ok<{ verified: boolean; status: string; hint: string }>(client, 'verify_domain', { domain });
    expect(early).toMatchObject({ verified: false, status: 'pending_txt', hint: expect.stringMatching(/48 hours/) });
    await refused(client, 'shorten_url', { url: 'https://example.com/too-early', domain }, 'DOMAIN_NOT_ACTIVE');

    dns.set(added.txtRecord.name, [added.txtRecord.value]);
    const verified = await ok<Record<string, unknown>>(client, 'verify_domain', { domain });
    expect(verified).toMatchObject({ verified: true, status: 'active', billing: { free: true } });
    expect(dns.asked(added.txtRecord.name).length).toBeGreaterThanOrEqual(2);
    expect((await rest<{ domains: Array<Record<string, unknown>> }>(t, builder, 'GET', '/api/user/domains')).domains[0]).toMatchObject({ domain, status: 'active', sslStatus: 'active' });
    // Verifying again keeps it active.
    expect(await ok(client, 'verify_domain', { domain })).toMatchObject({ verified: true, status: 'active' });

    const link = await shorten(client, { url: 'https://example.com/on-domain', domain });
    expect(link).toMatchObject({ shortUrl: `http://${domain}/${link.shortCode}`, domain });
    const res = await t.app.inject({ method: 'GET', url: `/${link.shortCode}`, headers: { host: domain } });
    expect(res.headers.location).toBe('https://example.com/on-domain');
  });

  it('update_domain makes the domain the default and sets its not-found page; delete_domain removes it', async () => {
    const domain = 'links.mcp-brand.com';
    const added = await ok<Added>(client, 'add_domain', { domain });
    dns.set(added.txtRecord.name, [added.txtRecord.value]);
    await ok(client, 'verify_domain', { domain });
    const updated = await ok<Record<string, unknown>>(client, 'update_domain', { domain, setDefault: true, notFoundPage: { type: 'redirect', redirectUrl: 'https://mcp-brand.com/' } });
    expect(updated).toMatchObject({ domain, isDefault: true, notFoundPage: { type: 'redirect', redirectUrl: 'https://mcp-brand.com/' } });
    const item = (await rest<{ domains: Array<Record<string, unknown>> }>(t, builder, 'GET', '/api/user/domains')).domains.find((d) => d.domain === domain);
    expect(item).toEqual(updated);
    const byDefault = await shorten(client, { url: 'https://example.com/default-domain' });
    expect(byDefault.shortUrl).toBe(`http://${domain}/${byDefault.shortCode}`);
    const unknown = await t.app.inject({ method: 'GET', url: '/nothing-here', headers: { host: domain } });
    expect(unknown.statusCode).toBe(302);
    expect(unknown.headers.location).toBe('https://mcp-brand.com/');
    expect(await ok(client, 'update_domain', { domain, notFoundPage: null })).toMatchObject({ notFoundPage: null });

    expect(await ok(client, 'delete_domain', { domain })).toEqual({ success: true });
    expect((await ok<{ domains: Array<{ domain: string }> }>(client, 'list_domains')).domains.map((d) => d.domain)).not.toContain(domain);
    expect(await rest(t, builder, 'GET', linkUrl(byDefault.shortCode))).toMatchObject({ domain: null, shortUrl: `http://snip.test/${byDefault.shortCode}` });
  });

  it('Pro may use the domain tools too', async () => {
    const mine = await connect(pro);
    expect(await ok(mine, 'list_domains')).toEqual({ domains: [], monthlyPrice: 0 });
    expect((await ok<Added>(mine, 'add_domain', { domain: 'pro.mcp-brand.com' })).status).toBe('pending_txt');
  });

  it('domain tools: bad arguments; broken rules give REST`s codes', async () => {
    await notAnObject(client, 'list_domains');
    await badArgs(client, 'add_domain', {});
    await badArgs(client, 'verify_domain', { domain: 5 });
    await badArgs(client, 'update_domain', { domain: 'x.mcp-brand.com', notFoundPage: { type: 'bogus' } });
    await badArgs(client, 'update_domain', { domain: 'x.mcp-brand.com', setDefault: 'yes' });
    await badArgs(client, 'delete_domain', {});
    for (const domain of ['not a domain', 'snip.test', 'localhost']) {
      await refused(client, 'add_domain', { domain }, restCode(await t.as(builder, { method: 'POST', url: '/api/user/domains', payload: { domain } })));
    }
    const unknown = restCode(await t.as(builder, { method: 'GET', url: '/api/user/domains/nowhere.mcp-brand.com/verify' }));
    expect(unknown).toBe('DOMAIN_NOT_FOUND');
    await refused(client, 'verify_domain', { domain: 'nowhere.mcp-brand.com' }, unknown);
    await refused(client, 'update_domain', { domain: 'nowhere.mcp-brand.com', setDefault: true }, unknown);
    await refused(client, 'delete_domain', { domain: 'nowhere.mcp-brand.com' }, unknown);
    const pending = await ok<Added>(client, 'add_domain', { domain: 'pending.mcp-brand.com' });
    await refused(client, 'update_domain', { domain: pending.domain, setDefault: true }, 'DOMAIN_NOT_ACTIVE');
    await refused(client, 'add_domain', { domain: pending.domain }, 'DOMAIN_EXISTS');
    const html = { type: 'html', html: 'x'.repeat(10_001) };
    const restHtml = restCode(await t.as(builder, { method: 'PATCH', url: `/api/user/domains/${pending.domain}`, payload: { notFoundPage: html } }));
    await refused(client, 'update_domain', { domain: pending.domain, notFoundPage: html }, restHtml);
  });
});

describe(`MCP account tools (${dialectName})`, () => {
  const { t, connect } = mcpBlock();
  const pro = t.user('pro');
  const free = t.user('free');
  const other = t.user('pro');
  let client: Client;

  beforeAll(async () => {
    client = await connect(pro);
  });

  it('get_profile answers GET /api/user: email, plan, namespace and limits; Free too', async () => {
    for (const user of [pro, free]) {
      const profile = await ok<Record<string, unknown>>(await connect(user), 'get_profile');
      expect(profile).toMatchObject({ email: user.email, tier: user.tier, namespace: user.namespace, limits: expect.any(Object) });
      expect(profile).toEqual(await rest(t, user, 'GET', '/api/user'));
    }
    await notAnObject(client, 'get_profile');
  });

  it('get_link_trust_score: the public score of any link (another account`s too), as /api/link-scan answers it; Free may ask', async () => {
    const link = await shorten(await connect(other), { url: 'https://example.com/trusted' });
    // Links are scanned just after they are made: wait for the scan, so both answers see the same one.
    const expected = await waitFor('the scan', async () => {
      const score = await rest<{ scannedAt: string | null }>(t, null, 'GET', `/api/link-scan/${link.shortCode}`);
      return score.scannedAt === null ? null : score;
    });
    expect(expected).toMatchObject({ short: link.shortCode, destination: 'https://example.com/trusted', trustStatus: 'safe', threats: [] });
    expect(await ok(client, 'get_link_trust_score', { shortPath: link.shortCode })).toEqual(expected);
    expect(await ok(await connect(free), 'get_link_trust_score', { shortPath: link.shortCode })).toEqual(expected);
  });

  it('get_link_trust_score: bad arguments; an unknown link is REST`s code', async () => {
    await badArgs(client, 'get_link_trust_score', {});
    await badArgs(client, 'get_link_trust_score', { shortPath: 123 });
    await badArgs(client, 'get_link_trust_score', { shortPath: '' });
    await refused(client, 'get_link_trust_score', { shortPath: 'zzzzzz' }, restCode(await t.as(null, { method: 'GET', url: '/api/link-scan/zzzzzz' })));
  });

  it('set_namespace claims a new prefix: get_profile and new custom slugs use it; old links keep theirs', async () => {
    const user = await t.createUser('pro');
    const mine = await connect(user);
    const old = await shorten(mine, { url: 'https://example.com/old-prefix', slug: 'promo' });
    const ns = `mcp-${user.id.slice(-6).toLowerCase()}`;
    expect(await ok(mine, 'set_namespace', { namespace: ns.toUpperCase() })).toEqual({ namespace: ns });
    expect(await ok(mine, 'get_profile')).toMatchObject({ namespace: ns });
    const fresh = await shorten(mine, { url: 'https://example.com/new-prefix', slug: 'promo' });
    expect(fresh.fullPath).toBe(`${ns}/promo`);
    expect((await rest<LinkDetails>(t, user, 'GET', linkUrl(old.fullPath!))).fullPath).toBe(`${user.namespace}/promo`);
  });

  it('set_namespace: bad arguments; broken rules give REST`s codes', async () => {
    await badArgs(client, 'set_namespace', {});
    await badArgs(client, 'set_namespace', { namespace: 42 });
    for (const namespace of ['A!', 'ab', 'api', other.namespace!]) {
      await refused(client, 'set_namespace', { namespace }, restCode(await t.as(pro, { method: 'PUT', url: '/api/user/namespace', payload: { namespace } })));
    }
    await refused(client, 'set_namespace', { namespace: other.namespace! }, 'NAMESPACE_TAKEN');
  });
});

describe(`MCP namespace release: delete_namespace (${dialectName})`, () => {
  const { t, connect } = mcpBlock();
  const pro = t.user('pro');
  const other = t.user('pro');

  interface Held {
    namespace: string;
    current: boolean;
    linkCount: number;
  }
  const held = async (user: TestUser) => (await rest<{ namespaces: Held[] }>(t, user, 'GET', '/api/user/namespaces')).namespaces.map((n) => n.namespace);

  it('releases a prefix the account no longer uses: REST stops listing it, and another account may claim it', async () => {
    const user = await t.createUser('pro');
    const client = await connect(user);
    const first = user.namespace!;
    const next = `next-${user.id.slice(-6).toLowerCase()}`;
    // An old prefix stays held while a link uses it (without one, the change releases it at once).
    const link = await shorten(client, { url: 'https://example.com/held-prefix', slug: 'held' });
    await ok(client, 'set_namespace', { namespace: next });
    expect(await held(user)).toEqual(expect.arrayContaining([first, next]));
    await refused(client, 'delete_namespace', { namespace: first }, 'NAMESPACE_HAS_LINKS');
    await ok(client, 'delete_link', { shortPath: link.fullPath! });
    expect(await ok(client, 'delete_namespace', { namespace: first })).toEqual({ success: true, namespace: first });
    expect(await held(user)).toEqual([next]);
    expect(await ok(await connect(other), 'set_namespace', { namespace: first })).toEqual({ namespace: first });
  });

  it('delete_namespace: bad arguments; the current prefix, a prefix with links and someone else`s give REST`s codes', async () => {
    const client = await connect(pro);
    await badArgs(client, 'delete_namespace', {});
    await badArgs(client, 'delete_namespace', { namespace: 3 });
    const first = pro.namespace!;
    await shorten(client, { url: 'https://example.com/keeps-prefix', slug: 'kept' });
    await ok(client, 'set_namespace', { namespace: `moved-${pro.id.slice(-6).toLowerCase()}` });
    const current = (await ok<{ namespace: string }>(client, 'get_profile')).namespace;
    const cases: Array<[string, string]> = [
      [current, 'NAMESPACE_IN_USE'],
      [first, 'NAMESPACE_HAS_LINKS'],
      [other.namespace!, 'NAMESPACE_NOT_FOUND'],
      ['never-claimed-ns', 'NAMESPACE_NOT_FOUND'],
    ];
    for (const [namespace, code] of cases) {
      const expected = restCode(await t.as(pro, { method: 'DELETE', url: `/api/user/namespaces/${namespace}` }));
      expect(expected, namespace).toBe(code);
      await refused(client, 'delete_namespace', { namespace }, expected);
    }
    expect(await held(pro)).toEqual(expect.arrayContaining([first, current]));
  });
});

describe(`MCP tag, UTM template and saved view tools (${dialectName})`, () => {
  const { t, connect } = mcpBlock();
  const pro = t.user('pro');
  const other = t.user('pro');
  let client: Client;

  interface Template {
    id: string;
    name: string;
    utmSource: string | null;
    utmMedium: string | null;
    utmCampaign: string | null;
    utmTerm: string | null;
    utmContent: string | null;
    createdAt: string;
  }
  interface View {
    id: string;
    name: string;
    filters: Record<string, string>;
    createdAt: string;
    updatedAt: string;
  }
  const codes = async (args: Record<string, unknown>) => (await ok<{ links: LinkDetails[] }>(client, 'list_links', args)).links.map((l) => l.shortCode).sort();

  beforeAll(async () => {
    client = await connect(pro);
  });

  it('add_link_tag and remove_link_tag: the link`s tags (one per spelling, any case), on get_link, REST and list_links by tag', async () => {
    const link = await shorten(client, { url: 'https://example.com/tagged' });
    const plain = await shorten(client, { url: 'https://example.com/untagged' });
    expect(await ok(client, 'add_link_tag', { shortPath: link.shortCode, tag: 'Sale' })).toEqual({ tags: ['Sale'] });
    expect(await ok(client, 'add_link_tag', { shortPath: link.shortCode, tag: 'sale' })).toEqual({ tags: ['Sale'] });
    expect(await ok(client, 'add_link_tag', { shortPath: link.shortCode, tag: 'VIP' })).toEqual({ tags: ['Sale', 'VIP'] });
    expect((await ok<{ tags: string[] }>(client, 'get_link', { shortPath: link.shortCode })).tags).toEqual(['Sale', 'VIP']);
    expect((await rest<{ tags: string[] }>(t, pro, 'GET', linkUrl(link.shortCode))).tags).toEqual(['Sale', 'VIP']);
    expect(await rest(t, pro, 'GET', '/api/v1/tags')).toEqual({ tags: [{ tag: 'Sale', linkCount: 1 }, { tag: 'VIP', linkCount: 1 }] });
    expect(await codes({ tag: 'SALE' })).toEqual([link.shortCode]);
    expect(await codes({})).toEqual([link.shortCode, plain.shortCode].sort());

    expect(await ok(client, 'remove_link_tag', { shortPath: link.shortCode, tag: 'SALE' })).toEqual({ tags: ['VIP'] });
    expect((await rest<{ tags: string[] }>(t, pro, 'GET', linkUrl(link.shortCode))).tags).toEqual(['VIP']);
    expect(await codes({ tag: 'sale' })).toEqual([]);
  });

  it('add_link_tag / remove_link_tag: bad arguments; broken rules give REST`s codes', async () => {
    const link = await shorten(client, { url: 'https://example.com/tag-rules' });
    const tagsUrl = `${linkUrl(link.shortCode)}/tags`;
    await badArgs(client, 'add_link_tag', { shortPath: link.shortCode });
    await badArgs(client, 'add_link_tag', { shortPath: link.shortCode, tag: 5 });
    await badArgs(client, 'remove_link_tag', { tag: 'x' });
    for (const tag of ['', 'bad!', 'x'.repeat(31)]) {
      await refused(client, 'add_link_tag', { shortPath: link.shortCode, tag }, restCode(await t.as(pro, { method: 'POST', url: tagsUrl, payload: { tag } })));
    }
    await refused(client, 'remove_link_tag', { shortPath: link.shortCode, tag: 'absent' }, restCode(await t.as(pro, { method: 'DELETE', url: `${tagsUrl}/absent` })));
    await refused(client, 'remove_link_tag', { shortPath: link.shortCode, tag: 'absent' }, 'TAG_NOT_FOUND');
    await refused(client, 'add_link_tag', { shortPath: 'zzzzzz', tag: 'x' }, 'NOT_FOUND');
    const foreign = await shorten(await connect(other), { url: 'https://example.com/their-tags' });
    await refused(client, 'add_link_tag', { shortPath: foreign.shortCode, tag: 'mine' }, restCode(await t.as(pro, { method: 'POST', url: `${linkUrl(foreign.shortCode)}/tags`, payload: { tag: 'mine' } })));
    for (let i = 0; i < 20; i++) await ok(client, 'add_link_tag', { shortPath: link.shortCode, tag: `t${i}` });
    await refused(client, 'add_link_tag', { shortPath: link.shortCode, tag: 'one-too-many' }, restCode(await t.as(pro, { method: 'POST', url: tagsUrl, payload: { tag: 'one-too-many' } })));
    await refused(client, 'add_link_tag', { shortPath: link.shortCode, tag: 'one-too-many' }, 'TOO_MANY_TAGS');
  });

  it('create_utm_template, list_utm_templates, shorten_url with utmTemplateId, delete_utm_template', async () => {
    const template = await ok<Template>(client, 'create_utm_template', { name: 'Newsletter', utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'spring sale' });
    expect(template).toEqual({
      id: expect.any(String),
      name: 'Newsletter',
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'spring sale',
      utmTerm: null,
      utmContent: null,
      createdAt: expect.stringMatching(ISO_INSTANT),
    });
    const listed = await ok<{ templates: Template[] }>(client, 'list_utm_templates');
    expect(listed).toEqual({ templates: [template] });
    expect(await rest(t, pro, 'GET', '/api/v1/utm-templates')).toEqual(listed);

    // A parameter of the same name is replaced, the others kept in place, the template's follow in order.
    const link = await shorten(client, { url: 'https://example.com/p?ref=1&utm_source=old#top', utmTemplateId: template.id });
    const expected = 'https://example.com/p?ref=1&utm_source=newsletter&utm_medium=email&utm_campaign=spring%20sale#top';
    expect(link.long).toBe(expected);
    const viaRest = await rest<{ long: string }>(t, pro, 'POST', LINKS_A, { url: 'https://example.com/p?ref=1&utm_source=old#top', utmTemplateId: template.id }, 201);
    expect(viaRest.long).toBe(expected);
    expect((await t.app.inject({ method: 'GET', url: `/${link.shortCode}` })).headers.location).toBe(expected);

    expect(await ok(client, 'delete_utm_template', { templateId: template.id })).toEqual({ success: true, message: 'UTM template deleted', template });
    expect(await ok(client, 'list_utm_templates')).toEqual({ templates: [] });
    expect((await rest<LinkDetails>(t, pro, 'GET', linkUrl(link.shortCode))).long).toBe(expected);
  });

  it('UTM template tools: bad arguments; broken rules give REST`s codes', async () => {
    await notAnObject(client, 'list_utm_templates');
    await badArgs(client, 'create_utm_template', { utmSource: 'x' });
    await badArgs(client, 'create_utm_template', { name: 'Typed', utmSource: 5 });
    await badArgs(client, 'delete_utm_template', {});
    for (const body of [{ name: 'Empty' }, { name: '', utmSource: 'x' }, { name: 'Long', utmSource: 'x'.repeat(201) }]) {
      await refused(client, 'create_utm_template', body, restCode(await t.as(pro, { method: 'POST', url: '/api/v1/utm-templates', payload: body })));
    }
    await refused(client, 'create_utm_template', { name: 'Empty' }, 'MISSING_UTM_FIELDS');
    await ok(client, 'create_utm_template', { name: 'Once', utmSource: 'x' });
    await refused(client, 'create_utm_template', { name: 'ONCE', utmSource: 'y' }, 'TEMPLATE_EXISTS');
    const unknown = restCode(await t.as(pro, { method: 'DELETE', url: '/api/v1/utm-templates/tpl_nope' }));
    expect(unknown).toBe('TEMPLATE_NOT_FOUND');
    await refused(client, 'delete_utm_template', { templateId: 'tpl_nope' }, unknown);
    await refused(client, 'shorten_url', { url: 'https://example.com/u', utmTemplateId: 'tpl_nope' }, restCode(await t.as(pro, { method: 'POST', url: LINKS_A, payload: { url: 'https://example.com/u', utmTemplateId: 'tpl_nope' } })));
    // Another account's template is unknown to the caller.
    const theirs = await ok<Template>(await connect(other), 'create_utm_template', { name: 'Theirs', utmSource: 'them' });
    await refused(client, 'shorten_url', { url: 'https://example.com/u', utmTemplateId: theirs.id }, 'TEMPLATE_NOT_FOUND');
    await refused(client, 'delete_utm_template', { templateId: theirs.id }, 'TEMPLATE_NOT_FOUND');
  });

  it('create_saved_view, list_saved_views, list_links by view (as REST lists it), update_saved_view, delete_saved_view', async () => {
    const user = await t.createUser('pro');
    const mine = await connect(user);
    const promo = await shorten(mine, { url: 'https://example.com/promo-page' });
    const tagged = await shorten(mine, { url: 'https://example.com/tagged-page' });
    await shorten(mine, { url: 'https://example.com/other-page' });
    await ok(mine, 'add_link_tag', { shortPath: tagged.shortCode, tag: 'Launch' });

    const view = await ok<View>(mine, 'create_saved_view', { name: 'Launch links', filters: { tag: 'launch' } });
    expect(view).toEqual({ id: expect.any(String), name: 'Launch links', filters: { tag: 'launch' }, createdAt: expect.stringMatching(ISO_INSTANT), updatedAt: expect.stringMatching(ISO_INSTANT) });
    const listed = await ok<{ views: View[] }>(mine, 'list_saved_views');
    expect(listed).toEqual({ views: [view] });
    expect(await rest(t, user, 'GET', '/api/v1/views')).toEqual(listed);

    const byView = await ok<{ links: LinkDetails[] }>(mine, 'list_links', { view: view.id });
    expect(byView.links.map((l) => l.shortCode)).toEqual([tagged.shortCode]);
    expect(byView).toEqual(await rest(t, user, 'GET', `${LINKS_A}?view=${view.id}`));

    t.clock.advance(1000);
    const updated = await ok<View>(mine, 'update_saved_view', { viewId: view.id, name: 'Promo links', filters: { search: 'PROMO' } });
    expect(updated).toMatchObject({ id: view.id, name: 'Promo links', filters: { search: 'PROMO' }, createdAt: view.createdAt });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(view.updatedAt));
    expect((await ok<{ links: LinkDetails[] }>(mine, 'list_links', { view: view.id })).links.map((l) => l.shortCode)).toEqual([promo.shortCode]);
    expect((await ok<View>(mine, 'update_saved_view', { viewId: view.id, name: 'Renamed only' })).filters).toEqual({ search: 'PROMO' });

    expect(await ok(mine, 'delete_saved_view', { viewId: view.id })).toEqual({ success: true, message: 'Saved view deleted', view: expect.objectContaining({ id: view.id, name: 'Renamed only' }) });
    expect(await ok(mine, 'list_saved_views')).toEqual({ views: [] });
    await refused(mine, 'list_links', { view: view.id }, restCode(await t.as(user, { method: 'GET', url: `${LINKS_A}?view=${view.id}` })));
    await refused(mine, 'list_links', { view: view.id }, 'VIEW_NOT_FOUND');
  });

  it('saved view tools: bad arguments; broken rules give REST`s codes', async () => {
    await notAnObject(client, 'list_saved_views');
    await badArgs(client, 'create_saved_view', { name: 'No filters' });
    await badArgs(client, 'create_saved_view', { name: 'Typed', filters: { tag: 5 } });
    await badArgs(client, 'create_saved_view', { name: 'Typed', filters: 'tag:sale' });
    await badArgs(client, 'update_saved_view', { name: 'x' });
    await badArgs(client, 'delete_saved_view', { viewId: 5 });
    for (const body of [
      { name: '', filters: {} },
      { name: 'Bad tag', filters: { tag: 'bad!' } },
      { name: 'No folder', filters: { folderId: 'fld_nope' } },
      { name: 'Long search', filters: { search: 'x'.repeat(201) } },
    ]) {
      await refused(client, 'create_saved_view', body, restCode(await t.as(pro, { method: 'POST', url: '/api/v1/views', payload: body })));
    }
    await ok(client, 'create_saved_view', { name: 'Only once', filters: {} });
    await refused(client, 'create_saved_view', { name: 'ONLY ONCE', filters: {} }, 'VIEW_EXISTS');
    const unknown = restCode(await t.as(pro, { method: 'DELETE', url: '/api/v1/views/view_nope' }));
    expect(unknown).toBe('VIEW_NOT_FOUND');
    await refused(client, 'update_saved_view', { viewId: 'view_nope', name: 'x' }, unknown);
    await refused(client, 'delete_saved_view', { viewId: 'view_nope' }, unknown);
    const theirs = await ok<View>(await connect(other), 'create_saved_view', { name: 'Theirs', filters: {} });
    await refused(client, 'delete_saved_view', { viewId: theirs.id }, 'VIEW_NOT_FOUND');
    await refused(client, 'list_links', { view: theirs.id }, 'VIEW_NOT_FOUND');
  });

  // A filter the service does not know is REST's INVALID_FILTERS over MCP too, never a view of every link.
  it('create_saved_view with a filter it does not know is REST`s INVALID_FILTERS, not a view of every link', async () => {
    const body = { name: 'Typo', filters: { folder: 'fld_x' } };
    const expected = restCode(await t.as(pro, { method: 'POST', url: '/api/v1/views', payload: body }));
    expect(expected).toBe('INVALID_FILTERS');
    await refused(client, 'create_saved_view', body, expected);
  });
});

describe(`MCP export tools (${dialectName})`, () => {
  const { t, connect } = mcpBlock();
  const pro = t.user('pro');
  const other = t.user('pro');
  let client: Client;
  let link: LinkDetails;

  interface ExportFile {
    filename: string;
    contentType: string;
    content: string;
  }

  /** REST's export: the body and the file name of its Content-Disposition. */
  async function restExport(user: TestUser, url: string): Promise<ExportFile> {
    const res = await t.as(user, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    const filename = /filename="([^"]+)"/.exec(String(res.headers['content-disposition']))?.[1];
    return { filename: filename!, contentType: String(res.headers['content-type']), content: res.body };
  }

  beforeAll(async () => {
    client = await connect(pro);
    link = await shorten(client, { url: 'https://example.com/exported', slug: 'exported' });
    await shorten(client, { url: 'https://example.com/exported-2' });
    await click(t, link.shortCode);
    await click(t, link.shortCode, IPHONE);
  });

  it('export_links: every link as CSV (the default) or JSON, the same file REST sends', async () => {
    const csv = await ok<ExportFile>(client, 'export_links');
    expect(csv.contentType).toMatch(/^text\/csv/);
    expect(csv.filename).toMatch(/^snip-links-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...rows] = csv.content.trim().split(/\r?\n/);
    expect(header).toBe('shortCode,shortUrl,fullPath,destination,clicks,createdAt,expiresAt,maxClicks,activeFrom,folderId,blockedCountries,domain');
    expect(rows).toHaveLength(2);
    expect(csv).toEqual(await restExport(pro, '/api/v1/export/links'));

    const json = await ok<ExportFile>(client, 'export_links', { format: 'json' });
    expect(json.contentType).toMatch(/^application\/json/);
    expect(json.filename).toMatch(/\.json$/);
    const parsed = JSON.parse(json.content) as { links: Array<{ shortCode: string; fullPath: string | null; clicks: number; destination: string }> };
    expect(parsed.links.map((l) => l.shortCode).sort()).toEqual((await ok<{ links: LinkDetails[] }>(client, 'list_links')).links.map((l) => l.shortCode).sort());
    expect(parsed.links.find((l) => l.shortCode === link.shortCode)).toMatchObject({ fullPath: `${pro.namespace}/exported`, clicks: 2, destination: 'https://example.com/exported' });
    expect(json).toEqual(await restExport(pro, '/api/v1/export/links?format=json'));
    // Only the caller's links.
    expect(JSON.parse((await ok<ExportFile>(await connect(other), 'export_links', { format: 'json' })).content)).toEqual({ links: [] });
  });

  it('export_link_stats: a link`s statistics as CSV or JSON over a period, the same file REST sends', async () => {
    const json = await ok<ExportFile>(client, 'export_link_stats', { shortPath: link.fullPath!, format: 'json', period: '7d' });
    const stats = JSON.parse(json.content) as Record<string, unknown>;
    expect(stats).toMatchObject({ shortCode: link.shortCode, fullPath: link.fullPath, period: '7d', totalClicks: 2, deviceBreakdown: { desktop: 1, mobile: 1, tablet: 0 } });
    expect(json).toEqual(await restExport(pro, `/api/v1/export/links/${encodeURIComponent(link.fullPath!)}/stats?format=json&period=7d`));

    const csv = await ok<ExportFile>(client, 'export_link_stats', { shortPath: link.shortCode });
    expect(csv.filename).toMatch(/-30d-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = csv.content.trim().split(/\r?\n/);
    expect(lines[0]).toBe('dimension,value,clicks');
    expect(lines[1]).toBe('total,,2');
    expect(lines.filter((l) => l.startsWith('day,'))).toHaveLength(30);
    expect(csv).toEqual(await restExport(pro, `/api/v1/export/links/${link.shortCode}/stats`));
  });

  it('export tools: bad arguments; broken rules give REST`s codes', async () => {
    await badArgs(client, 'export_links', { format: 'xml' });
    await badArgs(client, 'export_link_stats', { format: 'csv' });
    await badArgs(client, 'export_link_stats', { shortPath: link.shortCode, period: '24h' });
    const over = restCode(await t.as(pro, { method: 'GET', url: `/api/v1/export/links/${link.shortCode}/stats?period=365d` }));
    expect(over).toBe('PERIOD_EXCEEDS_PLAN');
    await refused(client, 'export_link_stats', { shortPath: link.shortCode, period: '365d' }, over);
    await refused(client, 'export_link_stats', { shortPath: 'zzzzzz' }, 'NOT_FOUND');
    const foreign = await shorten(await connect(other), { url: 'https://example.com/their-export' });
    await refused(client, 'export_link_stats', { shortPath: foreign.shortCode }, restCode(await t.as(pro, { method: 'GET', url: `/api/v1/export/links/${foreign.shortCode}/stats` })));
  });
});

describe(`MCP tier rules (${dialectName})`, () => {
  const { t, connect } = mcpBlock();
  const free = t.user('free');
  const pro = t.user('pro');

  /** Arguments of the right shape for every tool, so that only the tier can refuse the call first. */
  const SHAPED: Record<(typeof EXPECTED_TOOLS)[number], Record<string, unknown>> = {
    shorten_url: { url: 'https://example.com/tiers' },
    list_links: {},
    get_link: { shortPath: 'abcdef' },
    update_link: { shortPath: 'abcdef', url: 'https://example.com/x' },
    delete_link: { shortPath: 'abcdef' },
    resolve_link: { shortPath: 'abcdef' },
    bulk_shorten: { links: [{ url: 'https://example.com/tiers-bulk' }] },
    get_recent_clicks: { shortPath: 'abcdef' },
    get_link_stats: { shortPath: 'abcdef' },
    get_aggregate_stats: {},
    get_usage: {},
    get_qr_code: { shortPath: 'abcdef' },
    get_qr_settings: {},
    update_qr_settings: { size: 400 },
    list_folders: {},
    create_folder: { name: 'Tiers' },
    update_folder: { folderId: 'fld_x', name: 'y' },
    delete_folder: { folderId: 'fld_x' },
    assign_link_to_folder: { shortPath: 'abcdef', folderId: null },
    add_link_tag: { shortPath: 'abcdef', tag: 'sale' },
    remove_link_tag: { shortPath: 'abcdef', tag: 'sale' },
    list_utm_templates: {},
    create_utm_template: { name: 'Tiers', utmSource: 'mcp' },
    delete_utm_template: { templateId: 'tpl_x' },
    list_saved_views: {},
    create_saved_view: { name: 'Tiers', filters: {} },
    update_saved_view: { viewId: 'view_x', name: 'y' },
    delete_saved_view: { viewId: 'view_x' },
    list_domains: {},
    add_domain: { domain: 'tiers.example.com' },
    verify_domain: { domain: 'tiers.example.com' },
    update_domain: { domain: 'tiers.example.com', setDefault: true },
    delete_domain: { domain: 'tiers.example.com' },
    set_namespace: { namespace: 'tiers-ns' },
    delete_namespace: { namespace: 'tiers-ns' },
    get_link_trust_score: { shortPath: 'abcdef' },
    export_links: {},
    export_link_stats: { shortPath: 'abcdef' },
    list_webhooks: {},
    create_webhook: { url: 'https://example.com/hook', events: ['link.click'] },
    update_webhook: { webhookId: 'whk_x', name: 'y' },
    test_webhook: { webhookId: 'whk_x' },
    delete_webhook: { webhookId: 'whk_x' },
    get_profile: {},
    create_affiliate_program: { name: 'P', url: 'https://example.com/p', commissionType: 'CPC', commissionCents: 5 },
    list_affiliate_programs: {},
    discover_affiliate_programs: {},
    join_affiliate_program: { programId: 'afp_x' },
    list_affiliate_partners: { programId: 'afp_x' },
    list_affiliate_partnerships: {},
    get_affiliate_stats: { programId: 'afp_x' },
    get_agentlink_stats: { shortCode: 'abcdef' },
    get_agentlink_account_stats: {},
    list_agentlink_links: {},
    get_web2app_session: { sessionId: 'w2a_x' },
  };
  const EVERYONE = new Set(['get_profile', 'get_usage', 'get_link_trust_score']);
  const BUILDER_TOOLS = new Set(['bulk_shorten', 'create_affiliate_program']);

  // The same code REST answers for the same plan: custom domains use Description B's upgrade code.
  const tierCode = (name: string) => (name.endsWith('_domain') || name === 'list_domains' ? 'TIER_UPGRADE_REQUIRED' : 'TIER_REQUIRED');

  it.each(EXPECTED_TOOLS.filter((name) => !EVERYONE.has(name)))('Free calling %s gets the tier code REST gives, naming the plan to upgrade to', async (name) => {
    const body = await refused(await connect(free), name, SHAPED[name], tierCode(name));
    expect(body.message).toMatch(BUILDER_TOOLS.has(name) ? /\bBuilder\b/ : /\bPro\b/);
    expect(body.message).toMatch(/upgrade/i);
  });

  it('Free may use get_profile, get_usage and get_link_trust_score', async () => {
    const client = await connect(free);
    expect(await ok(client, 'get_profile')).toMatchObject({ email: free.email, tier: 'free' });
    expect(await ok(client, 'get_usage')).toMatchObject({ includedClicks: 1000 });
    const result = await callTool(client, 'get_link_trust_score', { shortCode: 'abcdef' });
    expect(textJson<ToolError>(result).code).not.toBe('TIER_REQUIRED');
  });

  it('Free calling shorten_url: an upgrade message naming Pro; no link is made', async () => {
    const body = await refused(await connect(free), 'shorten_url', { url: 'https://example.com/free' }, 'TIER_REQUIRED');
    // Word for word what POST /api/v1/links answers the same account.
    expect(body.message).toBe('This requires the Pro plan or higher; upgrade your plan to use it');
    expect((await t.core.links.list(await t.core.accounts.callerFor(free.email), { limit: 10, offset: 0 })).links).toEqual([]);
  });

  it('Pro is refused bulk_shorten and create_affiliate_program only, with an upgrade message naming Builder', async () => {
    const client = await connect(pro);
    for (const name of EXPECTED_TOOLS) {
      const result = await callTool(client, name, SHAPED[name]);
      const code = result.isError ? textJson<ToolError>(result).code : null;
      if (BUILDER_TOOLS.has(name)) {
        expect(code).toBe('TIER_REQUIRED');
        expect(textJson<ToolError>(result).message).toMatch(/\bBuilder\b/);
      } else {
        expect(code, name).not.toBe('TIER_REQUIRED');
      }
    }
  });

  it('the tier is read live: after an upgrade the very next call on the same connection works; after a downgrade it is refused', async () => {
    const user = await t.createUser('free');
    const client = await connect(user);
    await refused(client, 'shorten_url', { url: 'https://example.com/live' }, 'TIER_REQUIRED');
    await t.core.accounts.setTier(user.email, 'pro');
    const link = await shorten(client, { url: 'https://example.com/live' });
    await refused(client, 'bulk_shorten', { links: [{ url: 'https://example.com/live-bulk' }] }, 'TIER_REQUIRED');
    await t.core.accounts.setTier(user.email, 'builder');
    expect(await ok(client, 'bulk_shorten', { links: [{ url: 'https://example.com/live-bulk' }] })).toMatchObject({ total: 1, succeeded: 1 });
    await t.core.accounts.setTier(user.email, 'free');
    await refused(client, 'get_link', { shortPath: link.shortCode }, 'TIER_REQUIRED');
    expect(await ok(client, 'get_profile')).toMatchObject({ tier: 'free' });
  });

  it('Enterprise may call bulk_shorten', async () => {
    const client = await connect(await t.createUser('enterprise'));
    expect(await ok(client, 'bulk_shorten', { links: [{ url: 'https://example.com/enterprise' }] })).toMatchObject({ succeeded: 1 });
  });
});

describe(`MCP and the rate limits REST counts (${dialectName})`, () => {
  describe('bulk_shorten counts against bulk requests per hour, with REST`s bulk requests', () => {
    const { t, connect } = mcpBlock({ PLANS_FILE: path.join(FIXTURES, 'plans-bulk-per-hour.json') });
    const builder = t.user('builder');

    it('Builder`s 3 bulk requests an hour: one on REST and two over MCP, then the fourth is RATE_LIMITED on both', async () => {
      const client = await connect(builder);
      await rest(t, builder, 'POST', '/api/v1/bulk', { urls: [{ url: 'https://example.com/rest-bulk' }] });
      for (let i = 0; i < 2; i++) await ok(client, 'bulk_shorten', { links: [{ url: `https://example.com/mcp-bulk-${i}` }] });
      // Over a limit the whole POST is refused with REST's 429 body, which the SDK client raises.
      await expect(callTool(client, 'bulk_shorten', { links: [{ url: 'https://example.com/mcp-bulk-over' }] })).rejects.toThrow(/"code":"RATE_LIMITED"/);
      expect(restCode(await t.as(builder, { method: 'POST', url: '/api/v1/bulk', payload: { urls: [{ url: 'https://example.com/rest-over' }] } }))).toBe('RATE_LIMITED');
      // Single links are not bulk requests.
      await shorten(client, { url: 'https://example.com/single' });
    });
  });

  describe('links made over MCP count against links per day', () => {
    const { t, connect } = mcpBlock({ PLANS_FILE: path.join(FIXTURES, 'plans-links-per-day.json') });
    const pro = t.user('pro');

    it('Pro`s 5 links a day: 4 over MCP and 1 on REST, then the sixth is refused on both with one code', async () => {
      const client = await connect(pro);
      for (let i = 0; i < 4; i++) await shorten(client, { url: `https://example.com/daily-${i}` });
      await rest(t, pro, 'POST', LINKS_A, { url: 'https://example.com/daily-rest' }, 201);
      const code = restCode(await t.as(pro, { method: 'POST', url: LINKS_A, payload: { url: 'https://example.com/daily-over' } }));
      await refused(client, 'shorten_url', { url: 'https://example.com/daily-over' }, code);
    });
  });

  describe('each POST /mcp counts against requests per minute', () => {
    const { t } = mcpBlock({ PLANS_FILE: path.join(FIXTURES, 'plans-minute.json') });
    const free = t.user('free');

    it('Free`s 3 requests a minute: the fourth POST /mcp is 429 RATE_LIMITED', async () => {
      const post = () =>
        t.app.inject({
          method: 'POST',
          url: '/mcp',
          headers: { authorization: `Bearer ${free.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_profile', arguments: {} } },
        });
      for (let i = 0; i < 3; i++) expect((await post()).statusCode).toBe(200);
      const over = await post();
      expect(over.statusCode).toBe(429);
      // Every answer on /mcp is JSON-RPC (issue 26): REST's code is the error's data.code.
      expect(over.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { data: { code: 'RATE_LIMITED' } } });
      expect(over.headers['retry-after']).toEqual(expect.any(String));
    });
  });
});
