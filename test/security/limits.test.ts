import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { dialectName, useTestApp, type TestUser } from '../helpers/app.js';
import { mcpBatch, restOutcome, type Outcome } from '../parity/helpers.js';

/**
 * Per-account count limits and duplicate checks hold under concurrency (issue 16): a burst of creates sent at
 * once, over REST A, REST B and one MCP JSON-RPC batch, leaves exactly what the limit allows; every other call
 * gets the limit's own code, never a 500. A check-then-insert race shows only sometimes, so each burst is wide.
 */

// Small limits for Pro, everything else unmetered (the bursts must not meet a rate limit).
const plansDir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-limits-'));
const PLANS_FILE = path.join(plansDir, 'plans.json');
fs.writeFileSync(
  PLANS_FILE,
  JSON.stringify({
    pro: { requestsPerHour: null, requestsPerMonth: null, requestsPerMinute: null, linksPerDay: null, bulkRequestsPerHour: null, webhooks: 2, folders: 3, domains: 3 },
    builder: { requestsPerHour: null, requestsPerMonth: null, requestsPerMinute: null, linksPerDay: null, bulkRequestsPerHour: null, webhooks: null },
  }),
);
afterAll(() => fs.rmSync(plansDir, { recursive: true, force: true }));

type Request = Pick<InjectOptions, 'method' | 'url' | 'payload'>;
type ToolCall = [string, Record<string, unknown>];
/** How a burst is sent: REST A, REST B and an MCP batch together, or one MCP batch alone. */
type Shape = 'mixed' | 'mcp';
const SHAPES: Shape[] = ['mixed', 'mcp'];

let sequence = 0;
const unique = (label: string) => `${label}-${++sequence}`;

describe(`Per-account limits under concurrency (${dialectName})`, () => {
  const t = useTestApp({ PLANS_FILE });

  /** Sends every REST request and the MCP batch at once; answers each call's outcome (REST first, then the batch). */
  async function burst(user: TestUser, requests: Request[], calls: ToolCall[]): Promise<Outcome[]> {
    const [batch, ...rest] = await Promise.all([
      calls.length > 0 ? mcpBatch(t, user, calls).then((b) => b.outcomes) : Promise.resolve([]),
      ...requests.map((r) => t.as(user, r).then(restOutcome)),
    ]);
    return [...(rest as Outcome[]), ...(batch as Outcome[])];
  }

  /** Exactly `succeeded` calls went through; every other one is refused with `code` (REST with `status`), none with a 500. */
  function expectOutcomes(outcomes: Outcome[], succeeded: number, status: number, code: string): void {
    const label = JSON.stringify(outcomes.filter((o) => !o.ok || o.status >= 500));
    for (const o of outcomes) expect(o.status, label).toBeLessThan(500);
    expect(outcomes.filter((o) => o.ok), label).toHaveLength(succeeded);
    for (const o of outcomes.filter((o) => !o.ok)) {
      expect(o, label).toMatchObject({ ok: false, code });
      if (!o.ok && o.via === 'http') expect(o.status, label).toBe(status);
    }
  }

  /**
   * `n` REST requests alternating between A and B and `n` tool calls in one batch (`mixed`), or `2n` tool calls in
   * one batch (`mcp`: the calls of a batch start together, the widest race there is); each built by its index.
   */
  function mixed(shape: Shape, n: number, a: (i: number) => Request, b: (i: number) => Request, tool: (i: number) => ToolCall): [Request[], ToolCall[]] {
    if (shape === 'mcp') return [[], Array.from({ length: 2 * n }, (_, i) => tool(i))];
    const requests = Array.from({ length: n }, (_, i) => (i % 2 === 0 ? a(i) : b(i)));
    return [requests, Array.from({ length: n }, (_, i) => tool(i + n))];
  }

  async function created(user: TestUser, request: Request): Promise<Record<string, unknown>> {
    const res = await t.as(user, request);
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json();
  }

  describe('webhooks', () => {
    const hook = (i: number) => ({ url: `https://hooks.example.com/${unique(`h${i}`)}`, events: ['link.created'] });
    const list = async (user: TestUser) => (await t.as(user, { method: 'GET', url: '/api/webhooks' })).json<{ webhooks: { id: string; url: string }[] }>().webhooks;

    it.each(SHAPES)('creates at most the plan limit (Pro: 2) when 30 creates arrive at once, from one below and from at the limit (%s)', async (shape) => {
      const pro = await t.createUser('pro');
      await created(pro, { method: 'POST', url: '/api/v1/webhooks', payload: hook(0) });
      const [requests, calls] = mixed(
        shape,
        15,
        (i) => ({ method: 'POST', url: '/api/v1/webhooks', payload: hook(i) }),
        (i) => ({ method: 'POST', url: '/api/webhooks', payload: hook(i) }),
        (i) => ['create_webhook', hook(i)],
      );
      expectOutcomes(await burst(pro, requests, calls), 1, 403, 'WEBHOOK_LIMIT_REACHED');
      expect(await list(pro)).toHaveLength(2);

      const [again, againCalls] = mixed(
        shape,
        6,
        (i) => ({ method: 'POST', url: '/api/v1/webhooks', payload: hook(i) }),
        (i) => ({ method: 'POST', url: '/api/webhooks', payload: hook(i) }),
        (i) => ['create_webhook', hook(i)],
      );
      expectOutcomes(await burst(pro, again, againCalls), 0, 403, 'WEBHOOK_LIMIT_REACHED');
      expect(await list(pro)).toHaveLength(2);
    });

    it.each(SHAPES)('creates one webhook when the same URL and events are sent 24 times at once (DUPLICATE_WEBHOOK) (%s)', async (shape) => {
      const builder = await t.createUser('builder');
      const same = { url: 'https://hooks.example.com/same', events: ['link.created', 'link.click'] };
      const [requests, calls] = mixed(
        shape,
        12,
        () => ({ method: 'POST', url: '/api/v1/webhooks', payload: same }),
        () => ({ method: 'POST', url: '/api/webhooks', payload: same }),
        () => ['create_webhook', same],
      );
      expectOutcomes(await burst(builder, requests, calls), 1, 400, 'DUPLICATE_WEBHOOK');
      expect(await list(builder)).toHaveLength(1);
    });

    it.each(SHAPES)('lets one of many webhooks changed at once to the same URL and events take them (DUPLICATE_WEBHOOK) (%s)', async (shape) => {
      const builder = await t.createUser('builder');
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(String((await created(builder, { method: 'POST', url: '/api/webhooks', payload: hook(i) })).id));
      const target = { url: 'https://hooks.example.com/target', events: ['link.created'] };
      const viaRest = shape === 'mcp' ? [] : ids.slice(0, 8);
      const requests: Request[] = viaRest.map((id, i) => ({ method: 'PATCH', url: `${i % 2 ? '/api/webhooks' : '/api/v1/webhooks'}/${id}`, payload: target }));
      const calls: ToolCall[] = ids.slice(viaRest.length).map((id) => ['update_webhook', { webhookId: id, ...target }]);
      expectOutcomes(await burst(builder, requests, calls), 1, 400, 'DUPLICATE_WEBHOOK');
      expect((await list(builder)).filter((w) => w.url === target.url)).toHaveLength(1);
    });
  });

  describe('tags per link', () => {
    it.each(SHAPES)('puts at most 20 tags on a link when 30 different tags arrive at once for a link with 19 (TOO_MANY_TAGS) (%s)', async (shape) => {
      const pro = await t.createUser('pro');
      const link = await created(pro, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/tagged' } });
      const code = String(link.shortCode);
      for (let i = 0; i < 19; i++) await created(pro, { method: 'POST', url: `/api/v1/links/${code}/tags`, payload: { tag: `kept ${i}` } });
      const [requests, calls] = mixed(
        shape,
        15,
        (i) => ({ method: 'POST', url: `/api/v1/links/${code}/tags`, payload: { tag: `burst ${i}` } }),
        (i) => ({ method: 'POST', url: `/api/links/${code}/tags`, payload: { tag: `burst ${i}` } }),
        (i) => ['add_link_tag', { shortPath: code, tag: `burst ${i}` }],
      );
      expectOutcomes(await burst(pro, requests, calls), 1, 400, 'TOO_MANY_TAGS');
      const details = await created(pro, { method: 'GET', url: `/api/v1/links/${code}` });
      expect(details.tags).toHaveLength(20);
    });
  });

  describe('UTM templates', () => {
    it.each(SHAPES)('creates one template when one name (in any case) is sent 24 times at once (TEMPLATE_EXISTS) (%s)', async (shape) => {
      const pro = await t.createUser('pro');
      const spelled = ['Launch', 'LAUNCH', 'launch'];
      const [requests, calls] = mixed(
        shape,
        12,
        (i) => ({ method: 'POST', url: '/api/v1/utm-templates', payload: { name: spelled[i % 3], utmSource: 'news' } }),
        (i) => ({ method: 'POST', url: '/api/utm-templates', payload: { name: spelled[i % 3], utmSource: 'news' } }),
        (i) => ['create_utm_template', { name: spelled[i % 3]!, utmSource: 'news' }],
      );
      expectOutcomes(await burst(pro, requests, calls), 1, 409, 'TEMPLATE_EXISTS');
      const list = await created(pro, { method: 'GET', url: '/api/utm-templates' });
      expect(list.templates).toHaveLength(1);
    });
  });

  describe('saved views', () => {
    const views = async (user: TestUser) => (await created(user, { method: 'GET', url: '/api/views' })).views as { id: string; name: string }[];

    it.each(SHAPES)('creates one view when one name is sent 24 times at once (VIEW_EXISTS) (%s)', async (shape) => {
      const pro = await t.createUser('pro');
      const body = { name: 'Mine', filters: { search: 'sale' } };
      const [requests, calls] = mixed(
        shape,
        12,
        () => ({ method: 'POST', url: '/api/v1/views', payload: body }),
        () => ({ method: 'POST', url: '/api/views', payload: body }),
        () => ['create_saved_view', body],
      );
      expectOutcomes(await burst(pro, requests, calls), 1, 409, 'VIEW_EXISTS');
      expect(await views(pro)).toHaveLength(1);
    });

    it.each(SHAPES)('lets one of many views renamed at once to one name take it (VIEW_EXISTS) (%s)', async (shape) => {
      const pro = await t.createUser('pro');
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(String((await created(pro, { method: 'POST', url: '/api/views', payload: { name: `View ${i}`, filters: { search: 'x' } } })).id));
      const viaRest = shape === 'mcp' ? [] : ids.slice(0, 8);
      const requests: Request[] = viaRest.map((id, i) => ({ method: 'PATCH', url: `${i % 2 ? '/api/views' : '/api/v1/views'}/${id}`, payload: { name: 'Same' } }));
      const calls: ToolCall[] = ids.slice(viaRest.length).map((id) => ['update_saved_view', { viewId: id, name: 'Same' }]);
      expectOutcomes(await burst(pro, requests, calls), 1, 409, 'VIEW_EXISTS');
      expect((await views(pro)).filter((v) => v.name === 'Same')).toHaveLength(1);
    });
  });

  describe('folders', () => {
    const folders = async (user: TestUser) => (await created(user, { method: 'GET', url: '/api/v1/folders' })).folders as unknown[];

    it.each(SHAPES)('creates at most the plan limit (3 here) when 30 creates arrive at once for an account with 2 (FOLDER_LIMIT_REACHED) (%s)', async (shape) => {
      const pro = await t.createUser('pro');
      for (let i = 0; i < 2; i++) await created(pro, { method: 'POST', url: '/api/v1/folders', payload: { name: `Kept ${i}` } });
      const [requests, calls] = mixed(
        shape,
        15,
        (i) => ({ method: 'POST', url: '/api/v1/folders', payload: { name: `Burst ${i}` } }),
        (i) => ({ method: 'POST', url: '/api/folders', payload: { name: `Burst ${i}` } }),
        (i) => ['create_folder', { name: `Burst ${i}` }],
      );
      expectOutcomes(await burst(pro, requests, calls), 1, 403, 'FOLDER_LIMIT_REACHED');
      expect(await folders(pro)).toHaveLength(3);
    });

    it.each(SHAPES)('creates one folder when one name is sent 24 times at once (FOLDER_EXISTS) (%s)', async (shape) => {
      const pro = await t.createUser('pro');
      const [requests, calls] = mixed(
        shape,
        12,
        () => ({ method: 'POST', url: '/api/v1/folders', payload: { name: 'Race' } }),
        () => ({ method: 'POST', url: '/api/folders', payload: { name: 'Race' } }),
        () => ['create_folder', { name: 'Race' }],
      );
      expectOutcomes(await burst(pro, requests, calls), 1, 409, 'FOLDER_EXISTS');
      expect(await folders(pro)).toHaveLength(1);
    });
  });

  describe('custom domains', () => {
    it.each(SHAPES)('adds at most the plan limit (Pro: 3) when 24 adds arrive at once for an account with 2 (DOMAIN_LIMIT_REACHED) (%s)', async (shape) => {
      const pro = await t.createUser('pro');
      const domain = () => `${unique('d')}.acme-limits.com`;
      for (let i = 0; i < 2; i++) await created(pro, { method: 'POST', url: '/api/user/domains', payload: { domain: domain() } });
      // Custom domains are a Description B route only.
      const requests: Request[] = Array.from({ length: shape === 'mcp' ? 0 : 12 }, () => ({ method: 'POST', url: '/api/user/domains', payload: { domain: domain() } }));
      const calls: ToolCall[] = Array.from({ length: 24 - requests.length }, () => ['add_domain', { domain: domain() }]);
      expectOutcomes(await burst(pro, requests, calls), 1, 403, 'DOMAIN_LIMIT_REACHED');
      const list = await created(pro, { method: 'GET', url: '/api/user/domains' });
      expect(list.domains).toHaveLength(3);
    });
  });
});
