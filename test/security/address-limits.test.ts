import { describe, expect, it } from 'vitest';
import { dialectName, useTestApp } from '../helpers/app.js';

/**
 * Attack: unauthenticated work is unlimited. 20 connections asking for uncached 1000-pixel QR codes saturated the
 * server. What answers without a key is limited per client address and minute (PUBLIC_REQUESTS_PER_MINUTE), with a
 * 429 and Retry-After; a found redirect is never limited, and one address's burst does not refuse another's.
 */
const BUDGET = 5;

describe(`per-address limits on what needs no key (${dialectName})`, () => {
  const t = useTestApp({ PUBLIC_REQUESTS_PER_MINUTE: String(BUDGET) });
  const owner = t.user('pro');
  let n = 0;
  const address = () => `198.51.100.${++n}`;

  const link = async () => (await t.as(owner, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/public' } })).json<{ shortCode: string }>().shortCode;

  it('refuses the request after the budget with 429 RATE_LIMITED and Retry-After, on QR images, trust scores, public stats and domain checks alike', async () => {
    const code = await link();
    const urls = [`/api/qr/${code}?size=1000`, `/api/link-scan/${code}`, `/api/stats/${code}`, '/api/domains/check/example.com'];
    for (const url of urls) {
      const ip = address();
      // Each address gets a whole minute: on a slow machine four loops can straddle a window's end.
      t.clock.startWindow();
      for (let i = 0; i < BUDGET; i++) expect((await t.app.inject({ method: 'GET', url, remoteAddress: ip })).statusCode, url).toBeLessThan(429);
      const refused = await t.app.inject({ method: 'GET', url, remoteAddress: ip });
      expect(refused.statusCode, url).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(refused.json<{ code: string }>().code).toBe('RATE_LIMITED');
    }
  });

  it('holds under concurrent requests: exactly the budget is served', async () => {
    const code = await link();
    const ip = address();
    t.clock.startWindow();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => t.app.inject({ method: 'GET', url: `/api/qr/${code}?size=${100 + i}`, remoteAddress: ip })));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(BUDGET);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(20 - BUDGET);
  });

  it("counts per address: one address's burst leaves another's budget whole", async () => {
    const code = await link();
    const [first, second] = [address(), address()];
    t.clock.startWindow();
    for (let i = 0; i <= BUDGET; i++) await t.app.inject({ method: 'GET', url: `/api/qr/${code}`, remoteAddress: first });
    expect((await t.app.inject({ method: 'GET', url: `/api/qr/${code}`, remoteAddress: first })).statusCode).toBe(429);
    expect((await t.app.inject({ method: 'GET', url: `/api/qr/${code}`, remoteAddress: second })).statusCode).toBe(200);
  });

  it('gives the budget back the next minute', async () => {
    const code = await link();
    const ip = address();
    t.clock.startWindow();
    for (let i = 0; i <= BUDGET; i++) await t.app.inject({ method: 'GET', url: `/api/link-scan/${code}`, remoteAddress: ip });
    expect((await t.app.inject({ method: 'GET', url: `/api/link-scan/${code}`, remoteAddress: ip })).statusCode).toBe(429);
    t.clock.advance(61_000);
    expect((await t.app.inject({ method: 'GET', url: `/api/link-scan/${code}`, remoteAddress: ip })).statusCode).toBe(200);
  });

  it('does not charge a key holder on the key-optional statistics (their plan limits apply instead)', async () => {
    const code = await link();
    const ip = address();
    for (let i = 0; i < BUDGET + 3; i++) {
      expect((await t.as(owner, { method: 'GET', url: `/api/stats/${code}`, remoteAddress: ip })).statusCode).toBe(200);
    }
  });

  it("limits the redirect path's misses and previews, and then refuses the address's hits too (no enumeration)", async () => {
    const code = await link();
    const ip = address();
    const visit = (url: string) => t.app.inject({ method: 'GET', url, remoteAddress: ip });
    t.clock.startWindow();
    expect((await visit(`/${code}+`)).statusCode).toBe(200);
    for (let i = 1; i < BUDGET; i++) expect((await visit(`/zz${String(i).padStart(4, '0')}`)).statusCode).toBe(404);
    const refused = await visit('/zzzzzz');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Over budget, a taken code answers like a free one: 429, so codes cannot be told apart at full speed.
    expect((await visit(`/${code}`)).statusCode).toBe(429);
    // Another address still follows the link.
    expect((await t.app.inject({ method: 'GET', url: `/${code}`, remoteAddress: address() })).statusCode).toBe(302);
    t.clock.advance(61_000);
    expect((await visit(`/${code}`)).statusCode).toBe(302);
  });

  it('counts an IPv6 /64 as one address: rotating through it gains nothing, the next /64 has its own budget', async () => {
    const code = await link();
    const prefix = `2001:db8:${(++n).toString(16)}:1`;
    t.clock.startWindow();
    for (let i = 1; i <= BUDGET; i++) expect((await t.app.inject({ method: 'GET', url: `/api/link-scan/${code}`, remoteAddress: `${prefix}::${i.toString(16)}` })).statusCode).toBe(200);
    const rotated = await t.app.inject({ method: 'GET', url: `/api/link-scan/${code}`, remoteAddress: `${prefix}:ffff:ffff:ffff:ffff` });
    expect(rotated.statusCode).toBe(429);
    // Blocked by its /64, a hit from another address in it is refused too; the neighbouring /64 is not.
    expect((await t.app.inject({ method: 'GET', url: `/zz${'9'.repeat(4)}`, remoteAddress: `${prefix}::abcd` })).statusCode).toBe(429);
    expect((await t.app.inject({ method: 'GET', url: `/api/link-scan/${code}`, remoteAddress: `2001:db8:${n.toString(16)}:2::1` })).statusCode).toBe(200);
  });

  it('never limits a redirect that finds its link', async () => {
    const code = await link();
    const ip = address();
    for (let i = 0; i < BUDGET * 3; i++) expect((await t.app.inject({ method: 'GET', url: `/${code}`, remoteAddress: ip })).statusCode).toBe(302);
  });
});
