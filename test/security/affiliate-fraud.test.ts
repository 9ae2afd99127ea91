import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/api-errors.js';
import { dialectName, useTestApp, type BlockApp, type TestUser } from '../helpers/app.js';
import { Clients, listenMcp, refused } from '../helpers/mcp.js';
import { BROWSER_UA } from '../helpers/user-agents.js';

/**
 * Attack (issue 26, item 4): affiliate payouts paid for fraud. A partner requesting its own partner link 20 times
 * earned 20 CPC commissions, also with rotating user agents and forged X-Forwarded-For addresses, and a partner
 * could PATCH its partner link to a competitor's URL and keep earning. Now a CPC program pays for a click only when
 * the redirect counts it (a GET by a person: no bot, agent or HEAD request), at most once per visitor address
 * (IPv4 address or IPv6 /64, as TRUST_PROXY reads it) per program per UTC day; and a partner link's destination
 * stays the program's URL on every surface that changes links.
 */

const CENTS = 5;
const UAS = Array.from({ length: 20 }, (_, i) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${100 + i}.0.${i}.1 Safari/537.36`);
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const AGENT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot';

interface Stats {
  clicks: number;
  paidClicks: number;
  earningsCents: number;
}

function affiliate(t: BlockApp, owner: TestUser) {
  let n = 0;
  const api = {
    /** A new CPC program of `owner` (so each test starts from nothing) and `partner`'s partner link in it. */
    async partnerLink(partner: TestUser, programId?: string): Promise<{ programId: string; code: string; url: string }> {
      let id = programId;
      const url = `https://shop-${++n}.example.com/landing`;
      if (id === undefined) {
        const created = await t.as(owner, { method: 'POST', url: '/api/v1/affiliate/programs', payload: { name: `Shop ${n}`, url, commissionType: 'CPC', commissionCents: CENTS } });
        expect(created.statusCode, created.body).toBe(201);
        id = created.json<{ id: string }>().id;
      }
      const joined = await t.as(partner, { method: 'POST', url: `/api/v1/affiliate/programs/${id}/join` });
      expect(joined.statusCode, joined.body).toBe(201);
      return { programId: id, code: joined.json<{ shortCode: string }>().shortCode, url };
    },
    async stats(programId: string, who: TestUser = owner): Promise<Stats> {
      const res = await t.as(who, { method: 'GET', url: `/api/v1/affiliate/programs/${programId}/stats` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Stats>();
    },
    async visit(code: string, options: { ip?: string; ua?: string; xff?: string; method?: 'GET' | 'HEAD' } = {}): Promise<number> {
      const headers: Record<string, string> = { 'user-agent': options.ua ?? BROWSER_UA };
      if (options.xff !== undefined) headers['x-forwarded-for'] = options.xff;
      const res = await t.app.inject({ method: options.method ?? 'GET', url: `/${code}`, remoteAddress: options.ip ?? '203.0.113.50', headers });
      return res.statusCode;
    },
  };
  return api;
}

describe(`affiliate payouts: what a click earns (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('builder');
  const partner = t.user('pro');
  const other = t.user('pro');
  const api = affiliate(t, owner);

  it('20 self-clicks from one address earn one commission (all 20 are still tracked clicks)', async () => {
    const { programId, code } = await api.partnerLink(partner);
    for (let i = 0; i < 20; i++) expect(await api.visit(code, { ip: '198.51.100.7' })).toBe(302);
    expect(await api.stats(programId)).toMatchObject({ clicks: 20, paidClicks: 1, earningsCents: CENTS });
    expect(await api.stats(programId, partner)).toMatchObject({ paidClicks: 1, earningsCents: CENTS });
  });

  it('20 self-clicks with rotating user agents earn one', async () => {
    const { programId, code } = await api.partnerLink(partner);
    for (const ua of UAS) expect(await api.visit(code, { ip: '198.51.100.8', ua })).toBe(302);
    expect(await api.stats(programId)).toMatchObject({ clicks: 20, paidClicks: 1, earningsCents: CENTS });
  });

  it('20 self-clicks with rotating X-Forwarded-For and TRUST_PROXY unset earn one: the socket address counts', async () => {
    const { programId, code } = await api.partnerLink(partner);
    for (let i = 0; i < 20; i++) expect(await api.visit(code, { ip: '198.51.100.9', xff: `192.0.2.${i + 1}`, ua: UAS[i] })).toBe(302);
    expect(await api.stats(programId)).toMatchObject({ clicks: 20, paidClicks: 1, earningsCents: CENTS });
  });

  it('20 self-clicks from rotating addresses of one IPv6 /64 earn one', async () => {
    const { programId, code } = await api.partnerLink(partner);
    for (let i = 0; i < 20; i++) expect(await api.visit(code, { ip: `2001:db8:1:2::${(i + 1).toString(16)}`, ua: UAS[i] })).toBe(302);
    expect(await api.stats(programId)).toMatchObject({ clicks: 20, paidClicks: 1, earningsCents: CENTS });
  });

  it('genuine visitors from distinct addresses each earn one, once a day, and again the next day', async () => {
    const { programId, code } = await api.partnerLink(partner);
    const people = ['198.51.100.21', '198.51.100.22', '198.51.100.23', '2001:db8:9:1::1', '2001:db8:9:2::1'];
    for (const ip of people) expect(await api.visit(code, { ip })).toBe(302);
    expect(await api.stats(programId)).toMatchObject({ clicks: 5, paidClicks: 5, earningsCents: 5 * CENTS });
    // The same people again the same day: tracked, not paid again.
    for (const ip of people) expect(await api.visit(code, { ip })).toBe(302);
    expect(await api.stats(programId)).toMatchObject({ clicks: 10, paidClicks: 5, earningsCents: 5 * CENTS });
    t.clock.advance(24 * 60 * 60 * 1000);
    for (const ip of people) expect(await api.visit(code, { ip })).toBe(302);
    expect(await api.stats(programId)).toMatchObject({ clicks: 15, paidClicks: 10, earningsCents: 10 * CENTS });
  });

  it("a bot's, an AI agent's and a HEAD request's clicks earn nothing", async () => {
    const { programId, code } = await api.partnerLink(partner);
    expect(await api.visit(code, { ip: '198.51.100.31', ua: BOT })).toBe(302);
    expect(await api.visit(code, { ip: '198.51.100.32', ua: AGENT })).toBe(302);
    expect(await api.visit(code, { ip: '198.51.100.33', method: 'HEAD' })).toBe(302);
    expect(await api.stats(programId)).toMatchObject({ clicks: 0, paidClicks: 0, earningsCents: 0 });
    // The bot's address, as a person, is paid: what it was, not where it came from, kept it unpaid.
    expect(await api.visit(code, { ip: '198.51.100.31' })).toBe(302);
    expect(await api.stats(programId)).toMatchObject({ clicks: 1, paidClicks: 1, earningsCents: CENTS });
  });

  it('one visitor of two partner links of one program is paid once, to the first', async () => {
    const first = await api.partnerLink(partner);
    const second = await api.partnerLink(other, first.programId);
    expect(await api.visit(first.code, { ip: '198.51.100.41' })).toBe(302);
    expect(await api.visit(second.code, { ip: '198.51.100.41' })).toBe(302);
    expect(await api.stats(first.programId)).toMatchObject({ clicks: 2, paidClicks: 1, earningsCents: CENTS });
    expect(await api.stats(first.programId, partner)).toMatchObject({ paidClicks: 1, earningsCents: CENTS });
    expect(await api.stats(first.programId, other)).toMatchObject({ clicks: 1, paidClicks: 0, earningsCents: 0 });
  });
});

/** A GET over a real socket (the server's fast path answers cached links), with the headers a proxy would add. */
function socketGet(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: 'GET', headers: { host: 'snip.test', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each([
  ['1', 'a hop count'],
  ['127.0.0.1', "the proxy's address"],
])(`affiliate payouts behind a proxy: TRUST_PROXY=%s, %s (${dialectName})`, (trust) => {
  const t = useTestApp({ TRUST_PROXY: trust });
  const owner = t.user('builder');
  const partner = t.user('pro');
  const api = affiliate(t, owner);
  let port: number;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });

  it('20 self-clicks with rotating forged X-Forwarded-For entries earn one: the address the proxy appended counts', async () => {
    const { programId, code } = await api.partnerLink(partner);
    // An appending proxy (nginx's $proxy_add_x_forwarded_for) turns the client's forged header into "<forged>, <client>".
    for (let i = 0; i < 10; i++) expect(await api.visit(code, { ip: '127.0.0.1', xff: `192.0.2.${i + 1}, 198.51.100.60`, ua: UAS[i] })).toBe(302);
    // Over real sockets too, where the fast path reads the address for cached links.
    for (let i = 10; i < 20; i++) expect(await socketGet(port, `/${code}`, { 'x-forwarded-for': `192.0.2.${i + 1}, 198.51.100.60`, 'user-agent': UAS[i]! })).toBe(302);
    expect(await api.stats(programId)).toMatchObject({ clicks: 20, paidClicks: 1, earningsCents: CENTS });
  });

  it('distinct clients behind the proxy each earn one', async () => {
    const { programId, code } = await api.partnerLink(partner);
    for (let i = 1; i <= 3; i++) expect(await socketGet(port, `/${code}`, { 'x-forwarded-for': `198.51.100.${70 + i}`, 'user-agent': BROWSER_UA })).toBe(302);
    expect(await api.stats(programId)).toMatchObject({ clicks: 3, paidClicks: 3, earningsCents: 3 * CENTS });
  });
});

describe(`partner links stay on the program's destination (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('builder');
  const partner = t.user('pro');
  const api = affiliate(t, owner);
  const clients = new Clients(() => url);
  let url: URL;
  let mcp: Client;
  beforeAll(async () => {
    url = await listenMcp(t);
    mcp = await clients.for(partner);
  });
  afterAll(() => clients.closeAll());

  const competitor = 'https://competitor.example.net/deal';
  const appLinks = { ios: { deepLink: 'rival://deal', storeUrl: 'https://apps.apple.com/app/id123456789' } };
  const patch = (base: string, code: string, payload: object) => t.as(partner, { method: 'PATCH', url: `${base}/${code}`, payload });

  it('a PATCH of the destination or the app targets is refused with 409 PARTNER_LINK_DESTINATION on A, B and MCP', async () => {
    const link = await api.partnerLink(partner);
    expectError(await patch('/api/v1/links', link.code, { url: competitor }), 409, 'PARTNER_LINK_DESTINATION', 'A url');
    expectError(await patch('/api/links', link.code, { long: Buffer.from(competitor).toString('base64') }), 409, 'PARTNER_LINK_DESTINATION', 'B long');
    expectError(await patch('/api/links', link.code, { url: competitor }), 409, 'PARTNER_LINK_DESTINATION', 'B url');
    expectError(await patch('/api/v1/links', link.code, { appLinks }), 409, 'PARTNER_LINK_DESTINATION', 'A appLinks');
    // The destination together with a harmless change: nothing of it is applied.
    expectError(await patch('/api/v1/links', link.code, { url: competitor, maxClicks: 1000 }), 409, 'PARTNER_LINK_DESTINATION', 'A url + maxClicks');
    await refused(mcp, 'update_link', { shortPath: link.code, url: competitor }, 'PARTNER_LINK_DESTINATION');
    await refused(mcp, 'update_link', { shortPath: link.code, appLinks }, 'PARTNER_LINK_DESTINATION');

    const read = await t.as(partner, { method: 'GET', url: `/api/v1/links/${link.code}` });
    expect(read.json()).toMatchObject({ long: link.url, maxClicks: null });
    const visit = await t.app.inject({ method: 'GET', url: `/${link.code}`, headers: { 'user-agent': BROWSER_UA } });
    expect(visit.headers.location).toBe(link.url);
  });

  it("what leaves the destination alone still changes: the program's own URL, an expiry, a click cap", async () => {
    const link = await api.partnerLink(partner);
    expect((await patch('/api/v1/links', link.code, { url: link.url })).statusCode).toBe(200);
    const capped = await patch('/api/v1/links', link.code, { maxClicks: 50 });
    expect(capped.statusCode, capped.body).toBe(200);
    expect(capped.json()).toMatchObject({ long: link.url, maxClicks: 50 });
    expect((await patch('/api/v1/links', link.code, { appLinks: null })).statusCode).toBe(200);
  });

  it("an ordinary link's destination still changes", async () => {
    const made = await t.as(partner, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/mine' } });
    const code = made.json<{ shortCode: string }>().shortCode;
    const res = await patch('/api/v1/links', code, { url: competitor });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ long: competitor });
  });
});
