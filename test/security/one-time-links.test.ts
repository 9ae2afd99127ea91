import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectName, useTestApp } from '../helpers/app.js';
import { LINKS_A, type CreatedLinkA, type LinkA } from '../helpers/links.js';
import { Clients, listenMcp, textJson } from '../helpers/mcp.js';

/**
 * Attack: read or burn a one-time link without opening it. A link with a click cap (`maxClicks`) shows its
 * destination only to a visit that counts one of its clicks: HEAD requests, link-preview bots (chat apps, mail
 * scanners), the `+` preview page, the public statistics and the public trust score (REST and MCP) never see it,
 * before or after the link is used up. Its owner still does, in the link details and in keyed statistics.
 */
const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const BOTS = [
  ['Slackbot', 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'],
  ['Twitterbot', 'Twitterbot/1.0'],
  ['facebookexternalhit', 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)'],
] as const;

/** Everything a client receives: status line, every header and the body, as one text to search. */
const rawText = (res: LightMyRequestResponse): string => `${res.statusCode}\n${JSON.stringify(res.headers)}\n${res.body}`;

describe(`one-time links do not leak to requests that count no click (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('pro');
  const stranger = t.user('pro');
  const clients = new Clients(() => mcpUrl);
  let mcpUrl: URL;
  let ownerMcp: Client;
  let strangerMcp: Client;

  beforeAll(async () => {
    mcpUrl = await listenMcp(t);
    ownerMcp = await clients.for(owner);
    strangerMcp = await clients.for(stranger);
  });
  afterAll(() => clients.closeAll());

  const visit = (path: string, options: { method?: 'GET' | 'HEAD'; ua?: string } = {}) =>
    t.app.inject({ method: options.method ?? 'GET', url: `/${path}`, headers: { 'user-agent': options.ua ?? BROWSER } });

  /** A link of `owner` to a destination with a token found nowhere else, scanned. */
  const createLink = async (body: Record<string, unknown>) => {
    const token = `otl-${randomBytes(6).toString('hex')}`;
    const destination = `https://example.com/${token}/landing`;
    const res = await t.as(owner, { method: 'POST', url: LINKS_A, payload: { url: destination, ...body } });
    expect(res.statusCode, res.body).toBe(201);
    await t.core.trust.settle();
    return { link: res.json<CreatedLinkA>(), destination, token };
  };

  const details = async (code: string): Promise<LinkA> => {
    const res = await t.as(owner, { method: 'GET', url: `${LINKS_A}/${code}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<LinkA>();
  };

  const trustTool = async (client: Client, shortPath: string): Promise<{ text: string; body: Record<string, unknown> }> => {
    const result = (await client.callTool({ name: 'get_link_trust_score', arguments: { shortPath } })) as CallToolResult;
    expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
    return { text: JSON.stringify(result), body: textJson<Record<string, unknown>>(result) };
  };

  /**
   * Every request that counts no click, on the code and on the namespaced path: none of them may carry the
   * destination (nor its token) anywhere. `usedUp` says whether the redirect itself answers 410 by now.
   */
  const expectNoLeak = async (link: CreatedLinkA, token: string, usedUp: boolean) => {
    const [prefix, slug] = link.fullPath!.split('/') as [string, string];
    for (const path of [link.shortCode, link.fullPath!]) {
      const head = await visit(path, { method: 'HEAD' });
      expect(rawText(head), `HEAD /${path}`).not.toContain(token);
      expect(head.headers.location, `HEAD /${path}`).toBeUndefined();
      expect(head.statusCode, `HEAD /${path}`).toBe(usedUp ? 410 : 200);

      for (const [name, ua] of BOTS) {
        const bot = await visit(path, { ua });
        expect(rawText(bot), `${name} on /${path}`).not.toContain(token);
        expect(bot.headers.location, name).toBeUndefined();
        expect(bot.statusCode, name).toBe(usedUp ? 410 : 200);
        expect(bot.headers['content-type']).toMatch(/^text\/html/);
        expect(bot.headers['cache-control']).toBe('no-store');
        if (!usedUp) expect(bot.body).toMatch(/limited-use/i);
      }

      const preview = await visit(`${path}+`);
      expect(preview.statusCode, preview.body).toBe(200);
      expect(rawText(preview), `/${path}+`).not.toContain(token);
      expect(preview.body).toMatch(/limited-use link/i);
    }

    for (const url of [`/api/stats/${link.shortCode}`, `/api/ns/stats/${prefix}/${slug}`]) {
      for (const caller of [null, stranger]) {
        const stats = await t.as(caller, { method: 'GET', url });
        expect(stats.statusCode, stats.body).toBe(200);
        expect(rawText(stats), url).not.toContain(token);
        expect(stats.json<{ long: string | null }>().long).toBeNull();
      }
    }

    for (const caller of [null, stranger, owner]) {
      const scan = await t.as(caller, { method: 'GET', url: `/api/link-scan/${link.shortCode}` });
      expect(scan.statusCode, scan.body).toBe(200);
      expect(rawText(scan)).not.toContain(token);
      expect(scan.json<{ destination: string | null }>().destination).toBeNull();
    }
    for (const client of [strangerMcp, ownerMcp]) {
      for (const shortPath of [link.shortCode, link.fullPath!]) {
        const { text, body } = await trustTool(client, shortPath);
        expect(text).not.toContain(token);
        expect(body.destination).toBeNull();
      }
    }
  };

  it.each([1, 3])('maxClicks %i: nothing shows the destination before or after use; a browser redirects and counts exactly once per visit', async (maxClicks) => {
    const { link, destination, token } = await createLink({ maxClicks, customSlug: `once-${maxClicks}-${randomBytes(3).toString('hex')}` });

    await expectNoLeak(link, token, false);
    expect((await details(link.shortCode)).clicks).toBe(0);

    // The owner sees the destination: link details and keyed statistics.
    expect((await details(link.shortCode)).long).toBe(destination);
    const ownStats = await t.as(owner, { method: 'GET', url: `/api/stats/${link.shortCode}` });
    expect(ownStats.json<{ long: string }>().long).toBe(destination);

    for (let i = 1; i <= maxClicks; i++) {
      const res = await visit(i % 2 === 0 ? link.fullPath! : link.shortCode);
      expect(res.statusCode, res.body).toBe(302);
      expect(res.headers.location).toBe(destination);
      expect((await details(link.shortCode)).clicks).toBe(i);
      if (i < maxClicks) await expectNoLeak(link, token, false);
    }

    await expectNoLeak(link, token, true);
    for (const path of [link.shortCode, link.fullPath!]) {
      const gone = await visit(path);
      expect(gone.statusCode).toBe(410);
      expect(rawText(gone)).not.toContain(token);
    }
    const after = await details(link.shortCode);
    expect(after).toMatchObject({ clicks: maxClicks, long: destination });
    const list = await t.as(owner, { method: 'GET', url: `${LINKS_A}?limit=100` });
    expect(list.body).toContain(destination);
  });

  it('an uncapped link: HEAD and bots are still redirected, uncounted; its statistics and score show the destination', async () => {
    const { link, destination } = await createLink({});
    const head = await visit(link.shortCode, { method: 'HEAD' });
    expect(head.statusCode).toBe(302);
    expect(head.headers.location).toBe(destination);
    for (const [name, ua] of BOTS) {
      const bot = await visit(link.shortCode, { ua });
      expect(bot.statusCode, name).toBe(302);
      expect(bot.headers.location, name).toBe(destination);
    }
    expect((await details(link.shortCode)).clicks).toBe(0);
    expect((await visit(`${link.shortCode}+`)).body).toContain(destination);
    expect((await t.as(null, { method: 'GET', url: `/api/stats/${link.shortCode}` })).json<{ long: string }>().long).toBe(destination);
    expect((await t.as(null, { method: 'GET', url: `/api/link-scan/${link.shortCode}` })).json<{ destination: string }>().destination).toBe(destination);
    expect((await trustTool(strangerMcp, link.shortCode)).body.destination).toBe(destination);
    const res = await visit(link.shortCode);
    expect(res.statusCode).toBe(302);
    expect((await details(link.shortCode)).clicks).toBe(1);
  });

  it('uncapping a link shows its destination again at once; capping it hides it at once', async () => {
    const { link, destination, token } = await createLink({ maxClicks: 5 });
    expect((await visit(link.shortCode, { ua: BOTS[0][1] })).statusCode).toBe(200);
    const patch = (body: object) => t.as(owner, { method: 'PATCH', url: `${LINKS_A}/${link.shortCode}`, payload: body });
    expect((await patch({ maxClicks: null })).statusCode).toBe(200);
    expect((await visit(link.shortCode, { ua: BOTS[0][1] })).headers.location).toBe(destination);
    expect((await patch({ maxClicks: 2 })).statusCode).toBe(200);
    const bot = await visit(link.shortCode, { ua: BOTS[0][1] });
    expect(bot.statusCode).toBe(200);
    expect(rawText(bot)).not.toContain(token);
  });
});
