import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dialectName, useTestApp } from '../helpers/app.js';
import { connectClient, ok } from '../helpers/mcp.js';
import { call, IP, UA, visitors } from './routing-visitors.js';

/**
 * Link routing as visitors meet it: rules (device, country, language, query, address; all conditions of a rule,
 * first matching rule) and the A/B split of variants, through real redirects, the resolve endpoint and MCP tool,
 * and the fast path. TRUST_PROXY is on so that X-Forwarded-For is the visitor's address (and its GeoIP country).
 */

const DEST = 'https://example.com/default';

describe(`link routing (${dialectName})`, () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  const owner = t.user('pro');
  const { create, goes, visit, details, clicks, resolve } = visitors(t, () => owner);
  let port: number;
  let mcp: Client;

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    mcp = await connectClient(new URL(`http://127.0.0.1:${port}/mcp`), owner.apiKey);
  });
  afterAll(async () => {
    await mcp?.close();
  });

  describe('device rules', () => {
    it('send each system to its own rule, by real user agents', async () => {
      const code = await create({
        url: DEST,
        rules: ['ios', 'android', 'windows', 'macos', 'chromeos', 'linux'].map((value) => ({ conditions: [{ type: 'device', value }], url: `https://example.com/${value}` })),
      });
      expect(await goes(code, { ua: UA.iphone })).toBe('https://example.com/ios');
      expect(await goes(code, { ua: UA.ipad })).toBe('https://example.com/ios');
      expect(await goes(code, { ua: UA.android })).toBe('https://example.com/android');
      expect(await goes(code, { ua: UA.windows })).toBe('https://example.com/windows');
      expect(await goes(code, { ua: UA.mac })).toBe('https://example.com/macos');
      expect(await goes(code, { ua: UA.chromebook })).toBe('https://example.com/chromeos');
      expect(await goes(code, { ua: UA.linux })).toBe('https://example.com/linux');
      expect(await goes(code, { ua: UA.ubuntu })).toBe('https://example.com/linux');
      // Something no rule names goes to the destination.
      expect(await goes(code, { ua: 'curl/8.5.0' })).toBe(DEST);
      expect(await clicks(code)).toBe(9);
    });

    it('tell phones and tablets (mobile) from computers (desktop)', async () => {
      const code = await create({
        url: DEST,
        rules: [
          { conditions: [{ type: 'device', value: 'mobile' }], url: 'https://example.com/m' },
          { conditions: [{ type: 'device', value: 'desktop' }], url: 'https://example.com/d' },
        ],
      });
      for (const ua of [UA.iphone, UA.ipad, UA.android]) expect(await goes(code, { ua })).toBe('https://example.com/m');
      for (const ua of [UA.windows, UA.mac, UA.linux, UA.chromebook]) expect(await goes(code, { ua })).toBe('https://example.com/d');
    });
  });

  it('country rules follow the GeoIP country of the visitor address, as statistics do', async () => {
    const code = await create({
      url: DEST,
      rules: [
        { conditions: [{ type: 'country', value: 'de' }], url: 'https://example.com/de' },
        { conditions: [{ type: 'country', value: 'FR' }], url: 'https://example.com/fr' },
      ],
    });
    expect((await details(code)).rules).toEqual([
      { conditions: [{ type: 'country', value: 'DE' }], url: 'https://example.com/de' },
      { conditions: [{ type: 'country', value: 'FR' }], url: 'https://example.com/fr' },
    ]);
    expect(await goes(code, { ip: IP.DE })).toBe('https://example.com/de');
    expect(await goes(code, { ip: IP.FR })).toBe('https://example.com/fr');
    expect(await goes(code, { ip: IP.US })).toBe(DEST);
    // An address GeoIP cannot place matches no country.
    expect(await goes(code, { ip: '10.1.2.3' })).toBe(DEST);
    const stats = await t.as(owner, { method: 'GET', url: `/api/v1/links/${code}/stats` });
    expect(stats.statusCode, stats.body).toBe(200);
    expect(JSON.stringify(stats.json())).toMatch(/"DE"/);
  });

  it('language rules read Accept-Language: a base tag matches its regions, weights count, q=0 refuses', async () => {
    const code = await create({
      url: DEST,
      rules: [
        { conditions: [{ type: 'language', value: 'fr-CA' }], url: 'https://example.com/quebec' },
        { conditions: [{ type: 'language', value: 'fr' }], url: 'https://example.com/fr' },
        { conditions: [{ type: 'language', value: 'de' }], url: 'https://example.com/de' },
      ],
    });
    expect(await goes(code, { lang: 'fr-CA,fr;q=0.9,en;q=0.8' })).toBe('https://example.com/quebec');
    expect(await goes(code, { lang: 'FR-ca' })).toBe('https://example.com/quebec');
    expect(await goes(code, { lang: 'fr' })).toBe('https://example.com/fr');
    expect(await goes(code, { lang: 'fr-BE' })).toBe('https://example.com/fr');
    // Accepted at a low weight is still accepted; the first matching rule wins, not the visitor's favourite.
    expect(await goes(code, { lang: 'en-US,en;q=0.9,fr;q=0.2' })).toBe('https://example.com/fr');
    expect(await goes(code, { lang: 'de-DE, fr;q=0.5' })).toBe('https://example.com/fr');
    // q=0 means "not this one".
    expect(await goes(code, { lang: 'fr;q=0, de;q=0.7' })).toBe('https://example.com/de');
    expect(await goes(code, { lang: 'fr-CA;q=0.0, fr;q=0' })).toBe(DEST);
    // A tag that only starts with the same letters is another language.
    expect(await goes(code, { lang: 'fro, frr' })).toBe(DEST);
    expect(await goes(code, { lang: 'en-GB' })).toBe(DEST);
    expect(await goes(code, {})).toBe(DEST);
  });

  it('query rules match a parameter present, or present with a value', async () => {
    const code = await create({
      url: DEST,
      rules: [
        { conditions: [{ type: 'query', key: 'ref', value: 'newsletter' }], url: 'https://example.com/news' },
        { conditions: [{ type: 'query', key: 'beta' }], url: 'https://example.com/beta' },
      ],
    });
    expect(await goes(code, { query: 'ref=newsletter' })).toBe('https://example.com/news');
    expect(await goes(code, { query: 'ref=other&ref=newsletter' })).toBe('https://example.com/news');
    expect(await goes(code, { query: 'ref=Newsletter' })).toBe(DEST);
    expect(await goes(code, { query: 'beta' })).toBe('https://example.com/beta');
    expect(await goes(code, { query: 'beta=' })).toBe('https://example.com/beta');
    expect(await goes(code, { query: 'ref=other&beta=1' })).toBe('https://example.com/beta');
    expect(await goes(code, { query: 'betas=1' })).toBe(DEST);
  });

  it('address rules match an IPv4 or IPv6 address or CIDR range', async () => {
    const code = await create({
      url: DEST,
      rules: [
        { conditions: [{ type: 'address', value: '203.0.113.7' }], url: 'https://example.com/one' },
        { conditions: [{ type: 'address', value: '198.51.100.0/24' }], url: 'https://example.com/v4' },
        { conditions: [{ type: 'address', value: '2001:db8:abcd::/48' }], url: 'https://example.com/v6' },
      ],
    });
    expect(await goes(code, { ip: '203.0.113.7' })).toBe('https://example.com/one');
    expect(await goes(code, { ip: '203.0.113.8' })).toBe(DEST);
    expect(await goes(code, { ip: '198.51.100.254' })).toBe('https://example.com/v4');
    expect(await goes(code, { ip: '198.51.101.1' })).toBe(DEST);
    expect(await goes(code, { ip: '2001:db8:abcd:12::1' })).toBe('https://example.com/v6');
    expect(await goes(code, { ip: '2001:db8:abce::1' })).toBe(DEST);
  });

  it('a rule needs every condition; the first matching rule wins', async () => {
    const code = await create({
      url: DEST,
      rules: [
        { conditions: [{ type: 'device', value: 'ios' }, { type: 'country', value: 'DE' }, { type: 'language', value: 'de' }], url: 'https://example.com/de-iphone' },
        { conditions: [{ type: 'device', value: 'mobile' }, { type: 'query', key: 'promo' }], url: 'https://example.com/promo-mobile' },
        { conditions: [{ type: 'device', value: 'ios' }], url: 'https://example.com/iphone' },
        { conditions: [{ type: 'country', value: 'DE' }], url: 'https://example.com/de' },
      ],
    });
    expect(await goes(code, { ua: UA.iphone, ip: IP.DE, lang: 'de-DE,en;q=0.5' })).toBe('https://example.com/de-iphone');
    expect(await goes(code, { ua: UA.iphone, ip: IP.DE, lang: 'en' })).toBe('https://example.com/iphone');
    expect(await goes(code, { ua: UA.iphone, ip: IP.FR, lang: 'de' })).toBe('https://example.com/iphone');
    expect(await goes(code, { ua: UA.iphone, ip: IP.DE, lang: 'de', query: 'promo=1' })).toBe('https://example.com/de-iphone');
    expect(await goes(code, { ua: UA.iphone, ip: IP.FR, query: 'promo=1' })).toBe('https://example.com/promo-mobile');
    expect(await goes(code, { ua: UA.android, ip: IP.DE, query: 'promo=1' })).toBe('https://example.com/promo-mobile');
    expect(await goes(code, { ua: UA.windows, ip: IP.DE, query: 'promo=1' })).toBe('https://example.com/de');
    expect(await goes(code, { ua: UA.windows, ip: IP.US, query: 'promo=1' })).toBe(DEST);
  });

  it('rules decide before variants; variants only split the rest', async () => {
    const code = await create({
      url: DEST,
      rules: [{ conditions: [{ type: 'device', value: 'ios' }], url: 'https://example.com/ios' }],
      variants: [
        { url: 'https://example.com/a', weight: 50 },
        { url: 'https://example.com/b', weight: 50 },
      ],
    });
    for (let i = 0; i < 20; i++) expect(await goes(code, { ua: UA.iphone, ip: `198.51.100.${i}` })).toBe('https://example.com/ios');
    const others = new Set<string>();
    for (let i = 0; i < 40; i++) others.add(await goes(code, { ua: UA.windows, ip: `198.51.100.${i}` }));
    expect([...others].sort()).toEqual(['https://example.com/a', 'https://example.com/b']);
  });

  describe('A/B split', () => {
    /** 1,000 distinct visitors: distinct addresses, and user agents that differ by version. */
    const crowd = Array.from({ length: 1000 }, (_, i) => ({
      ip: `100.${64 + (i >> 8)}.${i & 255}.${(i * 7) % 250 + 1}`,
      ua: i % 2 === 0 ? UA.windows.replace('124.0.0.0', `124.0.${i}.0`) : UA.iphone.replace('17_4', `17_${i % 9}`),
    }));

    async function split(variants: { url: string; weight: number }[]) {
      const code = await create({ url: DEST, variants });
      const counts = new Map<string, number>();
      const seen: string[] = [];
      for (let i = 0; i < crowd.length; i += 50) {
        const batch = await Promise.all(crowd.slice(i, i + 50).map((v) => goes(code, v)));
        seen.push(...batch);
        for (const url of batch) counts.set(url, (counts.get(url) ?? 0) + 1);
      }
      return { code, counts, seen };
    }

    it('splits 1,000 visitors 50/50 within ±6%, each keeping its variant, every visit counted', async () => {
      const { code, counts, seen } = await split([
        { url: 'https://example.com/a', weight: 50 },
        { url: 'https://example.com/b', weight: 50 },
      ]);
      expect([...counts.keys()].sort()).toEqual(['https://example.com/a', 'https://example.com/b']);
      for (const n of counts.values()) {
        expect(n).toBeGreaterThanOrEqual(440);
        expect(n).toBeLessThanOrEqual(560);
      }
      // Sticky: the same visitor (address and browser) comes back to the same variant, later too.
      t.clock.advance(3 * 86_400_000);
      for (let i = 0; i < 100; i++) expect(await goes(code, crowd[i]!)).toBe(seen[i]);
      expect(await clicks(code)).toBe(1100);
    });

    it('splits 20/30/50 within bounds', async () => {
      const { counts } = await split([
        { url: 'https://example.com/x', weight: 20 },
        { url: 'https://example.com/y', weight: 30 },
        { url: 'https://example.com/z', weight: 50 },
      ]);
      const share = (url: string) => (counts.get(url) ?? 0) / 1000;
      expect(share('https://example.com/x')).toBeGreaterThan(0.14);
      expect(share('https://example.com/x')).toBeLessThan(0.26);
      expect(share('https://example.com/y')).toBeGreaterThan(0.24);
      expect(share('https://example.com/y')).toBeLessThan(0.36);
      expect(share('https://example.com/z')).toBeGreaterThan(0.44);
      expect(share('https://example.com/z')).toBeLessThan(0.56);
    });

    it('a bot and a HEAD request follow the same decision, uncounted', async () => {
      const code = await create({ url: DEST, variants: [{ url: 'https://example.com/a', weight: 50 }, { url: 'https://example.com/b', weight: 50 }], rules: [{ conditions: [{ type: 'country', value: 'FR' }], url: 'https://example.com/fr' }] });
      const bot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
      for (let i = 0; i < 10; i++) {
        const ip = `100.70.0.${i + 1}`;
        expect(await goes(code, { ua: bot, ip })).toBe(await goes(code, { ua: bot, ip, method: 'HEAD' }));
        expect(await goes(code, { ua: UA.windows, ip, method: 'HEAD' })).toBe(await goes(code, { ua: UA.windows, ip }));
      }
      expect(await goes(code, { ua: bot, ip: IP.FR })).toBe('https://example.com/fr');
      expect(await goes(code, { ip: IP.FR, method: 'HEAD' })).toBe('https://example.com/fr');
      expect(await clicks(code)).toBe(10);
    });
  });

  describe('resolve (REST and MCP)', () => {
    it('answers what a real visit does, for every kind of visitor, and counts nothing', async () => {
      const code = await create({
        url: DEST,
        rules: [
          { conditions: [{ type: 'device', value: 'android' }], url: 'https://example.com/android' },
          { conditions: [{ type: 'country', value: 'DE' }, { type: 'language', value: 'de' }], url: 'https://example.com/de' },
          // No query rule here: query conditions cannot be saved yet (see the query test); the query is still passed.
          { conditions: [{ type: 'address', value: '192.0.2.0/24' }], url: 'https://example.com/lab' },
        ],
        variants: [
          { url: 'https://example.com/a', weight: 30 },
          { url: 'https://example.com/b', weight: 70 },
        ],
      });
      const cases: { visit: { ua: string; ip: string; lang?: string; query?: string }; country: string; reason: string; rule?: number }[] = [
        { visit: { ua: UA.android, ip: IP.US }, country: 'US', reason: 'rule', rule: 0 },
        { visit: { ua: UA.windows, ip: IP.DE, lang: 'de-AT, en;q=0.3' }, country: 'DE', reason: 'rule', rule: 1 },
        { visit: { ua: UA.iphone, ip: '192.0.2.44', query: 'ref=x' }, country: '', reason: 'rule', rule: 2 },
        ...Array.from({ length: 12 }, (_, i) => ({ visit: { ua: UA.windows, ip: `100.80.1.${i + 1}`, lang: 'de' }, country: '', reason: 'variant' })),
      ];
      const before = await clicks(code);
      const expected: string[] = [];
      for (const c of cases) {
        const query: Record<string, string> = { userAgent: c.visit.ua, address: c.visit.ip };
        if (c.country) query.country = c.country;
        if (c.visit.lang) query.language = c.visit.lang;
        if (c.visit.query) query.query = c.visit.query;
        const rest = await resolve(code, query);
        const tool = await ok(mcp, 'resolve_link', { shortPath: code, ...query });
        expect(tool).toEqual(rest);
        expect(rest.reason).toBe(c.reason);
        if (c.rule !== undefined) expect(rest.rule).toBe(c.rule);
        else expect(rest).not.toHaveProperty('rule');
        expected.push(rest.url!);
      }
      expect(await clicks(code)).toBe(before);
      for (const [i, c] of cases.entries()) expect(await goes(code, c.visit), JSON.stringify(c)).toBe(expected[i]);
      expect(await clicks(code)).toBe(before + cases.length);
      expect(await resolve(code, {})).toEqual({ url: expect.stringMatching(/example\.com\/[ab]$/), reason: 'variant' });
    });

    it('names blocked countries, password forms and ended links', async () => {
      const blocked = await create({ url: DEST, blockedCountries: ['DE'] });
      expect(await resolve(blocked, { country: 'de' })).toEqual({ url: null, reason: 'blocked' });
      expect(await resolve(blocked, { country: 'FR' })).toEqual({ url: DEST, reason: 'destination' });
      expect((await visit(blocked, { ip: IP.DE })).statusCode).toBe(451);
      const locked = await create({ url: DEST, password: 'hunter22', rules: [{ conditions: [{ type: 'device', value: 'ios' }], url: 'https://example.com/ios' }] });
      expect(await resolve(locked, { userAgent: UA.iphone })).toEqual({ url: null, reason: 'password' });
      expect(await ok(mcp, 'resolve_link', { shortPath: locked, userAgent: UA.iphone })).toEqual({ url: null, reason: 'password' });
      const ended = await create({ url: DEST, expiresAt: new Date(t.clock.now().getTime() + 60_000).toISOString() });
      const fallback = await create({ url: DEST, expiresAt: new Date(t.clock.now().getTime() + 60_000).toISOString(), expiredUrl: 'https://example.com/over' });
      t.clock.advance(61_000);
      expect(await resolve(ended, {})).toEqual({ url: null, reason: 'expired' });
      expect(await resolve(fallback, {})).toEqual({ url: 'https://example.com/over', reason: 'expired' });
      expect(await goes(fallback)).toBe('https://example.com/over');
      expect((await visit(ended)).statusCode).toBe(410);
    });

    it('agrees with the visit on a used-up link that also blocks the visitor country', async () => {
      const code = await create({ url: DEST, maxClicks: 1, blockedCountries: ['DE'], expiredUrl: 'https://example.com/over' });
      expect(await goes(code, { ip: IP.US })).toBe(DEST);
      const real = await visit(code, { ip: IP.DE });
      const resolved = await resolve(code, { country: 'DE' });
      expect({ status: real.statusCode, location: real.headers.location ?? null }).toEqual(
        resolved.url === null ? { status: 451, location: null } : { status: 302, location: resolved.url },
      );
    });

    it('is the owner’s only: another account is refused as on the link itself', async () => {
      const code = await create({ url: DEST });
      const stranger = await t.createUser('pro');
      const res = await t.as(stranger, { method: 'GET', url: `/api/v1/links/${code}/resolve` });
      const link = await t.as(stranger, { method: 'GET', url: `/api/v1/links/${code}` });
      expect(res.statusCode).toBeGreaterThanOrEqual(403);
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: link.statusCode, code: link.json().code });
    });
  });

  describe('other surfaces', () => {
    it('Description B, PATCH and MCP set and clear rules and variants', async () => {
      const rules = [{ conditions: [{ type: 'device', value: 'android' }], url: 'https://example.com/android' }];
      const variants = [{ url: 'https://example.com/a', weight: 60 }, { url: 'https://example.com/b', weight: 40 }];
      const b = await t.as(owner, { method: 'POST', url: '/api/links', payload: { url: DEST, rules } });
      expect(b.statusCode, b.body).toBe(201);
      const bCode = (await t.as(owner, { method: 'GET', url: '/api/v1/links?limit=1' })).json<{ links: { shortCode: string }[] }>().links[0]!.shortCode;
      expect(await goes(bCode, { ua: UA.android })).toBe('https://example.com/android');

      const patched = await t.as(owner, { method: 'PATCH', url: `/api/v1/links/${bCode}`, payload: { rules: null, variants } });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json()).toMatchObject({ rules: null, variants });
      expect(['https://example.com/a', 'https://example.com/b']).toContain(await goes(bCode, { ua: UA.android }));
      const cleared = await t.as(owner, { method: 'PATCH', url: `/api/links/${bCode}`, payload: { variants: null } });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(await goes(bCode, { ua: UA.android })).toBe(DEST);

      const made = await ok<{ shortCode: string; rules: unknown }>(mcp, 'shorten_url', { url: DEST, rules });
      expect(made.rules).toEqual(rules);
      expect(await goes(made.shortCode, { ua: UA.android })).toBe('https://example.com/android');
      const updated = await ok<{ variants: unknown }>(mcp, 'update_link', { shortPath: made.shortCode, rules: null, variants });
      expect(updated.variants).toEqual(variants);
      expect(['https://example.com/a', 'https://example.com/b']).toContain(await goes(made.shortCode, { ua: UA.android }));
    });
  });

  describe('the fast path', () => {
    it('serves routed links from the cache, each visitor to its own rule or variant', async () => {
      const code = await create({
        url: DEST,
        rules: [
          { conditions: [{ type: 'device', value: 'ios' }], url: 'https://example.com/ios' },
          { conditions: [{ type: 'language', value: 'fr' }], url: 'https://example.com/fr' },
          { conditions: [{ type: 'country', value: 'DE' }], url: 'https://example.com/de' },
        ],
        variants: [{ url: 'https://example.com/a', weight: 50 }, { url: 'https://example.com/b', weight: 50 }],
      });
      await t.core.trust.settle();
      const first = await call(port, `/${code}`, { 'user-agent': UA.iphone, 'x-forwarded-for': IP.US });
      expect(first.headers.location).toBe('https://example.com/ios');
      const visit = vi.spyOn(t.core.redirects, 'visit');
      try {
        const at = async (headers: Record<string, string>, method = 'GET') => (await call(port, `/${code}`, headers, method)).headers.location;
        expect(await at({ 'user-agent': UA.iphone, 'x-forwarded-for': IP.US })).toBe('https://example.com/ios');
        expect(await at({ 'user-agent': UA.windows, 'accept-language': 'en, fr-CA;q=0.4', 'x-forwarded-for': IP.US })).toBe('https://example.com/fr');
        expect(await at({ 'user-agent': UA.windows, 'x-forwarded-for': IP.DE })).toBe('https://example.com/de');
        expect(await at({ 'user-agent': UA.windows, 'x-forwarded-for': IP.DE }, 'HEAD')).toBe('https://example.com/de');
        for (let i = 1; i <= 10; i++) {
          const headers = { 'user-agent': UA.windows, 'x-forwarded-for': `100.90.0.${i}` };
          const viaFast = await at(headers);
          const viaRoute = await t.app.inject({ method: 'GET', url: `/${code}`, headers });
          expect(viaRoute.headers.location).toBe(viaFast);
        }
        expect(visit).toHaveBeenCalledTimes(10); // only the inject calls took Fastify's route
      } finally {
        visit.mockRestore();
      }
      expect(await clicks(code)).toBe(1 + 3 + 20);
    });
  });
});
