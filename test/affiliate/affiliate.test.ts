import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/api-errors.js';
import { dialectName, useTestApp, type TestUser } from '../helpers/app.js';
import { Clients, listenMcp, ok, refused } from '../helpers/mcp.js';

/**
 * Affiliate programs end to end (issue 18): created over REST, discovered, joined over MCP (the SDK client), the
 * partner link clicked by browsers, bots, HEAD requests and AI agents, conversions reported once, and earnings right
 * for CPC and CPA, over Description A and B paths alike.
 */

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const AGENT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot';

interface Program {
  id: string;
  status: string;
  public: boolean;
}
interface Partnership {
  id: string;
  programId: string;
  shortCode: string;
  shortUrl: string;
}

describe(`affiliate programs (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('builder');
  const partner = t.user('pro');
  const second = t.user('pro');
  const stranger = t.user('pro');
  const clients = new Clients(() => url);
  let url: URL;
  let partnerMcp: Client;
  let ownerMcp: Client;

  beforeAll(async () => {
    url = await listenMcp(t);
    partnerMcp = await clients.for(partner);
    ownerMcp = await clients.for(owner);
  });
  afterAll(() => clients.closeAll());

  const post = (user: TestUser, path: string, payload: unknown = {}) => t.as(user, { method: 'POST', url: path, payload: payload as object });
  const get = (user: TestUser, path: string) => t.as(user, { method: 'GET', url: path });
  const createProgram = async (body: Record<string, unknown>, path = '/api/v1/affiliate/programs'): Promise<Program> => {
    const res = await post(owner, path, { name: 'Shop', url: 'https://shop.example.com/landing?ref=snip', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Program>();
  };
  const visit = (code: string, ua: string, method: 'GET' | 'HEAD' = 'GET', remoteAddress = '127.0.0.1') => t.app.inject({ method, url: `/${code}`, remoteAddress, headers: { 'user-agent': ua } });
  const programCount = async () => (await get(owner, '/api/v1/affiliate/programs')).json<{ programs: unknown[] }>().programs.length;

  it('a Builder creates a program over A or B: active, public by default, in USD', async () => {
    const a = await createProgram({ commissionType: 'CPC', commissionCents: 5 });
    expect(a).toMatchObject({ id: expect.stringMatching(/^afp_/), status: 'active', public: true, currency: 'USD', commissionType: 'CPC', commissionCents: 5, own: true, partners: 0 });
    const b = await createProgram({ commissionType: 'CPA', commissionCents: 250, public: false }, '/api/affiliate/programs');
    expect(b).toMatchObject({ status: 'active', public: false, commissionType: 'CPA' });
    const listed = (await get(owner, '/api/affiliate/programs')).json<{ programs: Program[] }>().programs.map((p) => p.id);
    expect(listed).toEqual(expect.arrayContaining([a.id, b.id]));
  });

  it('refuses bad programs with stable codes and creates nothing', async () => {
    const before = await programCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'X', url: 'https://e.com', commissionCents: 5 }, 'MISSING_COMMISSION_TYPE'],
      [{ name: 'X', url: 'https://e.com', commissionType: 'CPM', commissionCents: 5 }, 'INVALID_COMMISSION_TYPE'],
      [{ name: 'X', url: 'https://e.com', commissionType: 'CPC' }, 'MISSING_COMMISSION_CENTS'],
      [{ name: 'X', url: 'https://e.com', commissionType: 'CPC', commissionCents: 0 }, 'INVALID_COMMISSION_CENTS'],
      [{ name: 'X', url: 'https://e.com', commissionType: 'CPC', commissionCents: 9e15 }, 'INVALID_COMMISSION_CENTS'],
      [{ name: 'X', url: 'javascript:alert(1)', commissionType: 'CPC', commissionCents: 5 }, 'INVALID_URL'],
      [{ url: 'https://e.com', commissionType: 'CPC', commissionCents: 5 }, 'MISSING_NAME'],
      [{ name: 'bad\u0000name', url: 'https://e.com', commissionType: 'CPC', commissionCents: 5 }, 'INVALID_NAME'],
    ];
    for (const [body, code] of cases) expectError(await post(owner, '/api/v1/affiliate/programs', body), 400, code, JSON.stringify(body));
    expect(await programCount()).toBe(before);
  });

  it('running a program needs Builder: Pro gets the upgrade code over REST and MCP alike', async () => {
    const body = { name: 'P', url: 'https://e.com', commissionType: 'CPC', commissionCents: 5 };
    const res = await post(partner, '/api/v1/affiliate/programs', body);
    expectError(res, 403, 'TIER_REQUIRED');
    expect(res.json<{ message: string }>().message).toMatch(/Builder/);
    expect((await refused(partnerMcp, 'create_affiliate_program', body, 'TIER_REQUIRED')).message).toMatch(/Builder/);
  });

  it('CPC: discovered, joined over MCP, clicked by browsers, bots, HEAD and an agent; only browser clicks earn', async () => {
    const program = await ok<Program>(ownerMcp, 'create_affiliate_program', { name: 'Per click', url: 'https://cpc.example.com/', commissionType: 'CPC', commissionCents: 7 });
    expect(program).toMatchObject({ id: expect.any(String), status: 'active' });

    const discovered = await ok<{ programs: Program[] }>(partnerMcp, 'discover_affiliate_programs', {});
    expect(discovered.programs.map((p) => p.id)).toContain(program.id);
    // Private programs and one's own are not offered.
    expect(discovered.programs.every((p) => p.public)).toBe(true);
    expect((await ok<{ programs: Program[] }>(ownerMcp, 'discover_affiliate_programs', {})).programs.map((p) => p.id)).not.toContain(program.id);

    const joined = await ok<Partnership>(partnerMcp, 'join_affiliate_program', { programId: program.id });
    expect(joined).toMatchObject({ id: expect.stringMatching(/^prt_/), programId: program.id, shortCode: expect.stringMatching(/^[A-Za-z0-9]{6}$/) });
    expect(joined.shortUrl).toBe(`http://snip.test/${joined.shortCode}`);
    // The partner link is the partner's own link, made over MCP.
    const link = await get(partner, `/api/v1/links/${joined.shortCode}`);
    expect(link.json()).toMatchObject({ long: 'https://cpc.example.com/', source: 'mcp', clientName: 'test' });

    // Three people (three addresses), each paid once (issue 26: at most once per address, program and day).
    for (let i = 1; i <= 3; i++) expect((await visit(joined.shortCode, BROWSER, 'GET', `198.51.100.${i}`)).headers.location).toBe('https://cpc.example.com/');
    for (let i = 0; i < 2; i++) expect((await visit(joined.shortCode, BOT, 'GET', `198.51.100.${10 + i}`)).statusCode).toBe(302);
    expect((await visit(joined.shortCode, BROWSER, 'HEAD', '198.51.100.20')).statusCode).toBe(302);
    expect((await visit(joined.shortCode, AGENT, 'GET', '198.51.100.21')).statusCode).toBe(302);

    const expected = { programId: program.id, clicks: 3, paidClicks: 3, conversions: 0, earningsCents: 21 };
    expect(await ok(ownerMcp, 'get_affiliate_stats', { programId: program.id })).toMatchObject({ ...expected, scope: 'owner', partners: 1 });
    expect(await ok(partnerMcp, 'get_affiliate_stats', { programId: program.id })).toMatchObject({ ...expected, scope: 'partner' });
    expect((await get(owner, `/api/affiliate/programs/${program.id}/stats`)).json()).toMatchObject(expected);
    await refused(await clients.for(stranger), 'get_affiliate_stats', { programId: program.id }, 'AFFILIATE_PROGRAM_NOT_FOUND');

    const partners = await ok<{ partners: Record<string, unknown>[] }>(ownerMcp, 'list_affiliate_partners', { programId: program.id });
    expect(partners.partners).toEqual([expect.objectContaining({ id: joined.id, partnerEmail: partner.email, shortCode: joined.shortCode, clicks: 3, paidClicks: 3, earningsCents: 21 })]);
    await refused(partnerMcp, 'list_affiliate_partners', { programId: program.id }, 'AFFILIATE_PROGRAM_NOT_FOUND');
    const mine = await ok<{ partnerships: Record<string, unknown>[] }>(partnerMcp, 'list_affiliate_partnerships', {});
    expect(mine.partnerships).toContainEqual(expect.objectContaining({ id: joined.id, programId: program.id, clicks: 3, earningsCents: 21, programName: 'Per click' }));
    expect((await ok<{ programs: Program[] }>(ownerMcp, 'list_affiliate_programs', {})).programs).toContainEqual(expect.objectContaining({ id: program.id, partners: 1 }));
  });

  it('refuses joining twice, one’s own, a private, a closed or an unknown program, with stable codes', async () => {
    const open = await createProgram({ commissionType: 'CPC', commissionCents: 1 });
    expect((await post(partner, `/api/v1/affiliate/programs/${open.id}/join`)).statusCode).toBe(201);
    expectError(await post(partner, `/api/affiliate/programs/${open.id}/join`), 409, 'ALREADY_JOINED');
    expectError(await post(owner, `/api/v1/affiliate/programs/${open.id}/join`), 403, 'OWN_PROGRAM');
    const hidden = await createProgram({ commissionType: 'CPC', commissionCents: 1, public: false });
    expectError(await post(partner, `/api/v1/affiliate/programs/${hidden.id}/join`), 403, 'PROGRAM_PRIVATE');
    const closing = await createProgram({ commissionType: 'CPC', commissionCents: 1 });
    const closed = await t.as(owner, { method: 'PATCH', url: `/api/v1/affiliate/programs/${closing.id}`, payload: { status: 'closed' } });
    expect(closed.json()).toMatchObject({ status: 'closed' });
    expectError(await post(partner, `/api/v1/affiliate/programs/${closing.id}/join`), 403, 'PROGRAM_CLOSED');
    expectError(await post(partner, '/api/v1/affiliate/programs/afp_nope/join'), 404, 'AFFILIATE_PROGRAM_NOT_FOUND');
    expectError(await t.as(partner, { method: 'PATCH', url: `/api/v1/affiliate/programs/${open.id}`, payload: { status: 'closed' } }), 403, 'TIER_REQUIRED');
  });

  it('eight concurrent joins by one partner make one partnership and one partner link', async () => {
    const program = await createProgram({ commissionType: 'CPC', commissionCents: 3 });
    const linksBefore = (await get(second, '/api/v1/links?limit=100')).json<{ links: unknown[] }>().links.length;
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(second, `/api/v1/affiliate/programs/${program.id}/join`)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((a) => a.statusCode === 409)) expect(r.json()).toMatchObject({ code: 'ALREADY_JOINED' });
    expect((await get(second, '/api/v1/links?limit=100')).json<{ links: unknown[] }>().links.length).toBe(linksBefore + 1);
    expect((await get(owner, `/api/v1/affiliate/programs/${program.id}/partners`)).json<{ partners: unknown[] }>().partners).toHaveLength(1);
  });

  describe('CPA: click ids and conversions', () => {
    let program: Program;
    let joined: Partnership;
    const clickIdOf = (res: LightMyRequestResponse) => new URL(res.headers.location as string).searchParams.get('snip_cid');

    beforeAll(async () => {
      program = await createProgram({ url: 'https://cpa.example.com/buy?plan=gold', commissionType: 'CPA', commissionCents: 250 });
      joined = (await post(partner, `/api/affiliate/programs/${program.id}/join`)).json<Partnership>();
    });

    it('each browser click gets its own click id on the destination; bots and HEAD get the destination as it is', async () => {
      const first = await visit(joined.shortCode, BROWSER);
      const again = await visit(joined.shortCode, BROWSER);
      const location = new URL(first.headers.location as string);
      expect(`${location.origin}${location.pathname}`).toBe('https://cpa.example.com/buy');
      expect(location.searchParams.get('plan')).toBe('gold');
      expect(clickIdOf(first)).toMatch(/^prt_[A-Za-z0-9]+\.[A-Za-z0-9]{12}\.[A-Za-z0-9_-]{22}$/);
      expect(clickIdOf(again)).not.toBe(clickIdOf(first));
      expect((await visit(joined.shortCode, BOT)).headers.location).toBe('https://cpa.example.com/buy?plan=gold');
      expect((await visit(joined.shortCode, BROWSER, 'HEAD')).headers.location).toBe('https://cpa.example.com/buy?plan=gold');
    });

    it('the owner reports a conversion once (201), a second time is 409; a partner, a forged or an unknown id is 404', async () => {
      const clickId = clickIdOf(await visit(joined.shortCode, BROWSER))!;
      const first = await post(owner, '/api/v1/affiliate/conversions', { clickId, amountCents: 4999 });
      expect(first.statusCode, first.body).toBe(201);
      expect(first.json()).toMatchObject({ clickId, programId: program.id, partnershipId: joined.id, amountCents: 4999, commissionCents: 250 });
      expectError(await post(owner, '/api/affiliate/conversions', { clickId }), 409, 'ALREADY_CONVERTED');

      const other = clickIdOf(await visit(joined.shortCode, BROWSER))!;
      expectError(await post(partner, '/api/v1/affiliate/conversions', { clickId: other }), 404, 'CLICK_NOT_FOUND');
      const forged = `${other.slice(0, -4)}AAAA`;
      expectError(await post(owner, '/api/v1/affiliate/conversions', { clickId: forged }), 404, 'CLICK_NOT_FOUND');
      expectError(await post(owner, '/api/v1/affiliate/conversions', { clickId: 'nope' }), 404, 'CLICK_NOT_FOUND');
      expectError(await post(owner, '/api/v1/affiliate/conversions', {}), 400, 'MISSING_CLICK_ID');
      expectError(await post(owner, '/api/v1/affiliate/conversions', { clickId: other, amountCents: -1 }), 400, 'INVALID_AMOUNT_CENTS');
      // The refusals above converted nothing: the second click id still converts, over B.
      expect((await post(owner, '/api/affiliate/conversions', { clickId: other })).statusCode).toBe(201);
    });

    it('six concurrent reports of one click id: exactly one 201, and the earnings count it once', async () => {
      const clickId = clickIdOf(await visit(joined.shortCode, BROWSER))!;
      const answers = await Promise.all(Array.from({ length: 6 }, () => post(owner, '/api/v1/affiliate/conversions', { clickId, amountCents: 1000 })));
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      // Browser clicks: 2 + 2 + 1 in this block; three of them converted, at 250 cents each.
      const expected = { clicks: 5, conversions: 3, earningsCents: 750, revenueCents: 5999 };
      expect(await ok(ownerMcp, 'get_affiliate_stats', { programId: program.id })).toMatchObject({ ...expected, scope: 'owner' });
      expect(await ok(partnerMcp, 'get_affiliate_stats', { programId: program.id })).toMatchObject({ ...expected, scope: 'partner' });
    });

    it('a closed program keeps counting its partner links but mints no more click ids', async () => {
      await t.as(owner, { method: 'PATCH', url: `/api/v1/affiliate/programs/${program.id}`, payload: { status: 'closed' } });
      expect((await visit(joined.shortCode, BROWSER)).headers.location).toBe('https://cpa.example.com/buy?plan=gold');
    });
  });
});
