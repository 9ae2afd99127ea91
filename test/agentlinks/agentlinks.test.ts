import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/api-errors.js';
import { dialectName, useTestApp } from '../helpers/app.js';
import { Browser, uniqueEmail } from '../sessions/session-client.js';
import { Clients, connectClientAs, listenMcp, ok, refused } from '../helpers/mcp.js';

/**
 * Agent links (issue 18): every link says where it was made, links made over MCP name their client, and visits by
 * AI agents are counted apart from people's clicks and never as tracked clicks.
 */

const BROWSER = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const AGENTS = {
  chatgpt: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
  claude: 'Claude-User/1.0 (+https://www.anthropic.com)',
  perplexity: 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
};
const CRAWLER = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

interface LinkA {
  shortCode: string;
  source: string;
  clientName: string | null;
  clicks: number;
}

describe(`agent links (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('pro');
  const other = t.user('pro');
  const clients = new Clients(() => url);
  let url: URL;
  let mcp: Client;
  let viaMcp: LinkA;
  let viaApi: LinkA;

  beforeAll(async () => {
    url = await listenMcp(t);
    mcp = await clients.for(owner);
    viaMcp = await ok<LinkA>(mcp, 'shorten_url', { url: 'https://docs.example.com/agent' });
    viaApi = (await t.as(owner, { method: 'POST', url: '/api/links', payload: { url: 'https://docs.example.com/person' } })).json<LinkA>();
  });
  afterAll(() => clients.closeAll());

  const visit = (code: string, ua: string) => t.app.inject({ method: 'GET', url: `/${code}`, headers: { 'user-agent': ua } });
  const tracked = async () => (await ok<{ trackedClicks: number }>(mcp, 'get_usage')).trackedClicks;

  it('each link says where it was made: MCP links name the client from initialize; REST links say api', async () => {
    expect(viaMcp).toMatchObject({ source: 'mcp', clientName: 'test' });
    expect(viaApi).toMatchObject({ source: 'api', clientName: null });
    const onA = await t.as(owner, { method: 'GET', url: `/api/v1/links/${viaMcp.shortCode}` });
    expect(onA.json()).toMatchObject({ source: 'mcp', clientName: 'test' });
  });

  it('links made in the dashboard say dashboard, and links the operator CLI imports say cli; a Free dashboard may not set app targets', async () => {
    const browser = new Browser(t.app);
    await browser.signUp(uniqueEmail('agentlinks'));
    const made = await browser.send({ method: 'POST', url: '/api/links', payload: { url: 'https://docs.example.com/dashboard' } });
    expect(made.json()).toMatchObject({ source: 'dashboard', clientName: null });
    const appLinks = { ios: { deepLink: 'myapp://x', storeUrl: 'https://apps.apple.com/app/id1' } };
    const refusedForFree = await browser.send({ method: 'POST', url: '/api/links', payload: { url: 'https://docs.example.com/free-app', appLinks } });
    expectError(refusedForFree, 403, 'TIER_REQUIRED');
    // The CLI's import acts through the operator's caller for the account (src/cli/links-import.ts).
    const operator = await t.core.accounts.callerFor(other.email);
    const [imported] = await t.core.links.createMany(operator, [{ url: 'https://docs.example.com/imported' }], { maxItems: 10 });
    expect(imported).toMatchObject({ link: { source: 'cli', clientName: null } });
  });

  it('list_agentlink_links and GET …/agentlinks/links list the MCP links only, on A, B and MCP', async () => {
    const listed = await ok<{ links: LinkA[] }>(mcp, 'list_agentlink_links');
    expect(listed.links.map((l) => l.shortCode)).toEqual([viaMcp.shortCode]);
    for (const base of ['/api/v1/agentlinks/links', '/api/agentlinks/links']) {
      const res = await t.as(owner, { method: 'GET', url: base });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ links: LinkA[] }>().links.map((l) => l.shortCode)).toEqual([viaMcp.shortCode]);
    }
    expect((await t.as(other, { method: 'GET', url: '/api/v1/agentlinks/links' })).json()).toMatchObject({ links: [] });
  });

  it('agents are counted apart, by agent; crawlers not at all; only people make tracked clicks', async () => {
    const before = await tracked();
    for (const ua of [BROWSER, BROWSER, AGENTS.chatgpt, AGENTS.chatgpt, AGENTS.claude, CRAWLER]) {
      const res = await visit(viaMcp.shortCode, ua);
      // Agents and crawlers still get where the link goes.
      expect(res.headers.location).toBe('https://docs.example.com/agent');
    }
    await visit(viaApi.shortCode, BROWSER);
    await visit(viaApi.shortCode, AGENTS.perplexity);

    const stats = await ok(mcp, 'get_agentlink_stats', { shortCode: viaMcp.shortCode });
    expect(stats).toEqual({ shortCode: viaMcp.shortCode, source: 'mcp', clientName: 'test', humanClicks: 2, agentClicks: 3, byAgent: { 'ChatGPT-User': 2, 'Claude-User': 1 } });
    expect(await tracked()).toBe(before + 3);
    // The link's own click count is people's clicks.
    expect((await t.as(owner, { method: 'GET', url: `/api/v1/links/${viaMcp.shortCode}` })).json()).toMatchObject({ clicks: 2 });

    const account = { humanClicks: 3, agentClicks: 4, bySource: { api: 1, mcp: 2, cli: 0, dashboard: 0 }, byAgent: { 'ChatGPT-User': 2, 'Claude-User': 1, PerplexityBot: 1 } };
    expect(await ok(mcp, 'get_agentlink_account_stats')).toMatchObject({ ...account, linksBySource: { api: 1, mcp: 1, cli: 0, dashboard: 0 } });
    for (const base of ['/api/v1/agentlinks', '/api/agentlinks']) {
      expect((await t.as(owner, { method: 'GET', url: `${base}/stats` })).json()).toMatchObject(account);
      expect((await t.as(owner, { method: 'GET', url: `${base}/links/${viaApi.shortCode}/stats` })).json()).toMatchObject({ humanClicks: 1, agentClicks: 1, byAgent: { PerplexityBot: 1 } });
    }
  });

  it('another account’s link is refused, an unknown one is 404', async () => {
    expectError(await t.as(other, { method: 'GET', url: `/api/v1/agentlinks/links/${viaMcp.shortCode}/stats` }), 403, 'ACCESS_DENIED');
    await refused(mcp, 'get_agentlink_stats', { shortCode: 'zzzzzz' }, 'NOT_FOUND');
  });

  it('a client that introduces itself under another name names the links it makes from then on', async () => {
    const renamed = await connectClientAs(url, owner.apiKey, 'claude-desktop');
    try {
      expect(await ok(renamed, 'shorten_url', { url: 'https://docs.example.com/renamed' })).toMatchObject({ source: 'mcp', clientName: 'claude-desktop' });
    } finally {
      await renamed.close();
    }
  });

  it('the agent list is one data file, each agent with its operator and where it is documented', () => {
    const file = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'assets', 'ai-agents.json'), 'utf8')) as { agents: Record<string, string>[] };
    const names = file.agents.map((a) => a.name);
    for (const name of ['ChatGPT-User', 'OAI-SearchBot', 'Claude-User', 'PerplexityBot']) expect(names).toContain(name);
    for (const agent of file.agents) {
      expect(agent, JSON.stringify(agent)).toMatchObject({ name: expect.any(String), token: expect.any(String), operator: expect.any(String) });
      expect(agent.source, agent.name).toMatch(/^https:\/\//);
    }
  });
});
