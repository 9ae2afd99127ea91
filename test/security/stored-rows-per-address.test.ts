import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DISTINCT_PER_ADDRESS } from '../../src/clicks/visitor-hash.js';
import { dialectName, useTestApp, type BlockApp } from '../helpers/app.js';

/**
 * Attack (issue 26, item 7): what one address can make Snip store was unbounded. 400 iPhone visits from one address
 * wrote 400 web2app session rows in 3.6 s; the same address rotating user agents wrote a unique-visitor row per
 * request, and rotating Referer hosts a referrer rollup row per request. Each is bounded per address now: web2app
 * sessions by the per-address budget (PUBLIC_REQUESTS_PER_MINUTE sessions an hour), visitors and referrers by
 * DISTINCT_PER_ADDRESS a day, affiliate payouts by one per program a day. The redirect itself is never refused or
 * slowed: a visit past the bound gets its answer, only without a new row.
 */

const BUDGET = 5;
const VISITS = 400;
/** Past the bound on distinct user agents and referrers, by a hundred. */
const ROTATIONS = DISTINCT_PER_ADDRESS + 100;
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const desktop = (i: number) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.${i}.0 Safari/537.36`;
const APP_LINKS = { ios: { deepLink: 'myapp://product/42', storeUrl: 'https://apps.apple.com/app/id123456' } };
const SID = /snip_sid=(w2a_[A-Za-z0-9]{32})/;

async function rows(t: BlockApp, table: 'web2app_sessions' | 'click_visitors' | 'click_rollups' | 'affiliate_paid_clicks', linkId: string, where = sql`true`): Promise<number> {
  await t.core.clicks.settle();
  const result = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} where link_id = ${linkId} and ${where}`.execute(t.core.database.db);
  return Number(result.rows[0]!.n);
}

describe(`rows a visitor's requests store, per address (${dialectName})`, () => {
  const t = useTestApp({ PUBLIC_REQUESTS_PER_MINUTE: String(BUDGET) });
  const owner = t.user('builder');
  const partner = t.user('pro');

  const createLink = async (payload: object): Promise<{ code: string; id: string }> => {
    const res = await t.as(owner, { method: 'POST', url: '/api/v1/links', payload });
    expect(res.statusCode, res.body).toBe(201);
    const code = res.json<{ shortCode: string }>().shortCode;
    const row = await t.core.database.db.selectFrom('links').select('id').where('code', '=', code).executeTakeFirstOrThrow();
    return { code, id: row.id };
  };
  const visit = (code: string, ip: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url: `/${code}`, remoteAddress: ip, headers });

  it(`${VISITS} iPhone visits from one address store at most ${BUDGET} web2app sessions; every visit still gets the app page; another address gets its own`, async () => {
    t.clock.startWindow(3_600_000);
    const link = await createLink({ url: 'https://shop.example.com/p/42', appLinks: APP_LINKS });
    let withSession = 0;
    for (let i = 0; i < VISITS; i++) {
      const res = await visit(link.code, '198.51.100.1', { 'user-agent': IPHONE });
      expect(res.statusCode).toBe(200);
      // Past the bound the page is the same, without a session: the app still opens, or the store.
      expect(res.body).toContain('href="myapp://product/42');
      expect(res.body).toContain('href="https://apps.apple.com/app/id123456');
      if (SID.test(res.body)) withSession += 1;
    }
    expect(withSession).toBe(BUDGET);
    expect(await rows(t, 'web2app_sessions', link.id)).toBe(BUDGET);

    // A second address is not held back by the first.
    const other = await visit(link.code, '198.51.100.2', { 'user-agent': IPHONE });
    expect(other.body).toMatch(SID);
    expect(await rows(t, 'web2app_sessions', link.id)).toBe(BUDGET + 1);
    // Rotating through an IPv6 /64 is one address.
    for (let i = 1; i <= 20; i++) await visit(link.code, `2001:db8:7:7::${i.toString(16)}`, { 'user-agent': IPHONE });
    expect(await rows(t, 'web2app_sessions', link.id)).toBe(2 * BUDGET + 1);

    // The first address was never blocked: its other links still redirect, and the next hour it opens sessions again.
    const plain = await createLink({ url: 'https://example.com/plain' });
    expect((await visit(plain.code, '198.51.100.1', { 'user-agent': IPHONE })).statusCode).toBe(302);
    t.clock.advance(3_600_000);
    expect((await visit(link.code, '198.51.100.1', { 'user-agent': IPHONE })).body).toMatch(SID);
  });

  it(`${ROTATIONS} visits from one address with rotating user agents store at most ${DISTINCT_PER_ADDRESS + 1} unique-visitor rows; another address still counts`, async () => {
    const link = await createLink({ url: 'https://example.com/visitors' });
    for (let i = 0; i < ROTATIONS; i++) expect((await visit(link.code, '198.51.100.3', { 'user-agent': desktop(i) })).statusCode).toBe(302);
    const stored = await rows(t, 'click_visitors', link.id);
    expect(stored).toBeGreaterThanOrEqual(DISTINCT_PER_ADDRESS);
    expect(stored).toBeLessThanOrEqual(DISTINCT_PER_ADDRESS + 1);
    // Every visit is still a click.
    expect(await rows(t, 'click_rollups', link.id, sql`dimension = 'total'`)).toBeGreaterThan(0);
    const total = await sql<{ n: number | string }>`select sum(clicks) as n from click_rollups where link_id = ${link.id} and dimension = 'total'`.execute(t.core.database.db);
    expect(Number(total.rows[0]!.n)).toBe(ROTATIONS);
    expect((await visit(link.code, '198.51.100.4', { 'user-agent': desktop(0) })).statusCode).toBe(302);
    expect(await rows(t, 'click_visitors', link.id)).toBe(stored + 1);
  });

  it(`${ROTATIONS} visits from one address with rotating Referer hosts store at most ${DISTINCT_PER_ADDRESS} referrer rows`, async () => {
    const link = await createLink({ url: 'https://example.com/referrers' });
    for (let i = 0; i < ROTATIONS; i++) {
      expect((await visit(link.code, '198.51.100.5', { 'user-agent': desktop(0), referer: `https://site-${i}.example.org/page` })).statusCode).toBe(302);
    }
    const referrers = await rows(t, 'click_rollups', link.id, sql`dimension = 'referrer' and value <> ''`);
    expect(referrers).toBe(DISTINCT_PER_ADDRESS);
    await visit(link.code, '198.51.100.6', { 'user-agent': desktop(0), referer: 'https://elsewhere.example.org/' });
    expect(await rows(t, 'click_rollups', link.id, sql`dimension = 'referrer' and value <> ''`)).toBe(DISTINCT_PER_ADDRESS + 1);
  });

  it(`${VISITS} visits of a partner link from one address store one paid click`, async () => {
    const program = await t.as(owner, { method: 'POST', url: '/api/v1/affiliate/programs', payload: { name: 'Rows', url: 'https://rows.example.com/', commissionType: 'CPC', commissionCents: 1 } });
    const joined = await t.as(partner, { method: 'POST', url: `/api/v1/affiliate/programs/${program.json<{ id: string }>().id}/join` });
    const code = joined.json<{ shortCode: string }>().shortCode;
    const { id } = await t.core.database.db.selectFrom('links').select('id').where('code', '=', code).executeTakeFirstOrThrow();
    for (let i = 0; i < VISITS; i++) expect((await visit(code, '198.51.100.7', { 'user-agent': desktop(i) })).statusCode).toBe(302);
    expect(await rows(t, 'affiliate_paid_clicks', id)).toBe(1);
    await visit(code, '198.51.100.8', { 'user-agent': desktop(0) });
    expect(await rows(t, 'affiliate_paid_clicks', id)).toBe(2);
  });
});
