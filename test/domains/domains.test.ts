import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import jsqr from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/api-errors.js';
import { dialectName, useTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { startTxtServer, type TxtServer } from '../helpers/dns-txt.js';
import { linkApi, LINKS_A, LINKS_B, type Caller, type CreatedLinkA, type LinkA, type LinkB } from '../helpers/links.js';

/**
 * Custom domains (spec 2.9, 3.1, 4.2, 7, 8.4): adding a domain, verifying it by a TXT record that a real DNS server
 * (test/helpers/dns-txt.ts, asked through DNS_RESOLVER) serves, activating it, its settings (default domain,
 * not-found page), links on it (A and B, QR code, preview), redirects by Host header, deleting it, the public
 * availability check, plan maximums, and isolation between accounts.
 */

// jsqr is CommonJS whose exports are the function with itself as `default` (see test/qr/qr.test.ts).
const jsQR = jsqr.default;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const DOMAINS = '/api/user/domains';
const PROPAGATION = /48 hours/;

interface DnsRecord {
  name: string;
  type: string;
  value: string;
}

interface AddedDomain {
  domain: string;
  status: string;
  verificationToken: string;
  txtRecord: DnsRecord;
  cnameRecord: DnsRecord;
}

type NotFoundPage = { type: 'redirect'; redirectUrl: string } | { type: 'html'; html: string } | null;

interface DomainItem {
  domain: string;
  status: string;
  sslStatus: string;
  createdAt: string;
  linkCount: number;
  isDefault: boolean;
  notFoundPage: NotFoundPage;
}

interface DomainList {
  domains: DomainItem[];
  monthlyPrice: number;
}

interface VerifyResult {
  verified: boolean;
  status: string;
  hint: string;
}

/** Link details with the field custom domains add. */
type DomainLinkA = LinkA & { domain: string | null };
type DomainLinkB = LinkB & { domain: string | null };

// One DNS server for the whole file; every block's app asks it (its DNS_RESOLVER is read when the app starts, in
// the block's beforeAll, which runs after this file-level one). Names are unique per test, so blocks never meet.
let dns: TxtServer;
beforeAll(async () => {
  dns = await startTxtServer();
});
afterAll(async () => {
  await dns?.close();
});

/** Settings for `useTestApp` with DNS_RESOLVER pointing at the file's DNS server. */
const withDns = (env: Record<string, string> = {}): Record<string, string> => ({
  ...env,
  get DNS_RESOLVER() {
    return dns.resolver;
  },
});

let sequence = 0;
/** A hostname no other test uses, under an ordinary public-looking name. */
const fresh = (label = 'go'): string => `${label}-${++sequence}.acme-brand.com`;

/** Requests on the domain routes and the visitor side of a domain, acting through `t`. */
function domainApi(t: TestApp) {
  const one = (domain: string) => `${DOMAINS}/${encodeURIComponent(domain)}`;
  const linksA = linkApi<CreatedLinkA, DomainLinkA>(t, LINKS_A);
  const linksB = linkApi<DomainLinkB, DomainLinkB>(t, LINKS_B);
  const api = {
    linksA,
    linksB,
    post: (user: Caller, body: object) => t.as(user, { method: 'POST', url: DOMAINS, payload: body }),
    async add(user: TestUser, domain: string): Promise<AddedDomain> {
      const res = await api.post(user, { domain });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<AddedDomain>();
    },
    listRes: (user: Caller) => t.as(user, { method: 'GET', url: DOMAINS }),
    async list(user: TestUser): Promise<DomainList> {
      const res = await api.listRes(user);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<DomainList>();
    },
    /** The account's list item for `domain`, or undefined when the list does not have it. */
    async item(user: TestUser, domain: string): Promise<DomainItem | undefined> {
      return (await api.list(user)).domains.find((d) => d.domain === domain);
    },
    async status(user: TestUser, domain: string): Promise<string | undefined> {
      return (await api.item(user, domain))?.status;
    },
    verifyRes: (user: Caller, domain: string) => t.as(user, { method: 'GET', url: `${one(domain)}/verify` }),
    async verify(user: TestUser, domain: string): Promise<VerifyResult> {
      const res = await api.verifyRes(user, domain);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<VerifyResult>();
    },
    activateRes: (user: Caller, domain: string) => t.as(user, { method: 'POST', url: `${one(domain)}/activate` }),
    async activate(user: TestUser, domain: string) {
      const res = await api.activateRes(user, domain);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ success: boolean; domain: string; status: string; billing: { free: boolean } }>();
    },
    patch: (user: Caller, domain: string, body: object) => t.as(user, { method: 'PATCH', url: one(domain), payload: body }),
    async update(user: TestUser, domain: string, body: object): Promise<DomainItem> {
      const res = await api.patch(user, domain, body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<DomainItem>();
    },
    del: (user: Caller, domain: string) => t.as(user, { method: 'DELETE', url: one(domain) }),
    async remove(user: TestUser, domain: string): Promise<void> {
      const res = await api.del(user, domain);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true });
    },
    check: (hostname: string, user: Caller = null) => t.as(user, { method: 'GET', url: `/api/domains/check/${encodeURIComponent(hostname)}` }),
    /** Publishes the TXT record the add response asked for. */
    publish(added: AddedDomain): void {
      dns.set(added.txtRecord.name, [added.txtRecord.value]);
    },
    /** Adds, publishes, verifies: a domain in status `verified`. */
    async verified(user: TestUser, domain = fresh()): Promise<string> {
      const added = await api.add(user, domain);
      api.publish(added);
      expect(await api.verify(user, added.domain)).toMatchObject({ verified: true, status: 'verified' });
      return added.domain;
    },
    /** Adds, publishes, verifies and activates: a domain in status `active`. */
    async active(user: TestUser, domain = fresh()): Promise<string> {
      const name = await api.verified(user, domain);
      expect((await api.activate(user, name)).status).toBe('active');
      return name;
    },
    /** A visitor's request of `url` with the given Host header (the default host when `host` is undefined). */
    visit: (host: string | undefined, url: string, method: 'GET' | 'HEAD' = 'GET') =>
      t.app.inject({ method, url, headers: host === undefined ? {} : { host } }),
    async detailsA(user: TestUser, shortPath: string): Promise<DomainLinkA> {
      const res = await linksA.get(user, shortPath);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<DomainLinkA>();
    },
    async detailsB(user: TestUser, shortPath: string): Promise<DomainLinkB> {
      const res = await linksB.get(user, shortPath);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<DomainLinkB>();
    },
    /** The text the QR code of a link decodes to. */
    async qrText(shortCode: string): Promise<string> {
      const res = await t.app.inject({ method: 'GET', url: `/api/qr/${shortCode}` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      const png = PNG.sync.read(res.rawPayload);
      const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
      expect(code, 'the image decodes as a QR code').not.toBeNull();
      return code!.data;
    },
  };
  return api;
}

function expectRedirect(res: LightMyRequestResponse, location: string, status = 302): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers.location).toBe(location);
}

/** The standard 404 page of an unknown link. */
function expectStandard404(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body).toBe(404);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.headers.location).toBeUndefined();
  expect(res.body).toMatch(/<html/i);
  expect(res.body).toMatch(/Link not found/);
}

const sortedDomains = (list: DomainList) => list.domains.map((d) => d.domain).sort();

/** Polls `condition` every 10 ms until it holds (or fails the test after `ms`). */
async function waitFor(condition: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe(`custom domains: who may use them (${dialectName})`, () => {
  const t = useTestApp(withDns());
  const free = t.user('free');
  const pro = t.user('pro');
  const builder = t.user('builder');
  const enterprise = t.user('enterprise');

  const ROUTES: Array<[string, 'GET' | 'POST' | 'PATCH' | 'DELETE', string, object | undefined]> = [
    ['list', 'GET', DOMAINS, undefined],
    ['add', 'POST', DOMAINS, { domain: 'links.free-brand.com' }],
    ['verify', 'GET', `${DOMAINS}/links.free-brand.com/verify`, undefined],
    ['activate', 'POST', `${DOMAINS}/links.free-brand.com/activate`, undefined],
    ['update', 'PATCH', `${DOMAINS}/links.free-brand.com`, { setDefault: false }],
    ['delete', 'DELETE', `${DOMAINS}/links.free-brand.com`, undefined],
  ];

  it.each(ROUTES)('%s without a key: 401 API_KEY_REQUIRED', async (_name, method, url, payload) => {
    expectError(await t.as(null, { method, url, ...(payload ? { payload } : {}) }), 401, 'API_KEY_REQUIRED');
  });

  it.each(ROUTES)('%s with an unknown key: 401 INVALID_API_KEY', async (_name, method, url, payload) => {
    expectError(await t.as(`snip_${'x'.repeat(40)}`, { method, url, ...(payload ? { payload } : {}) }), 401, 'INVALID_API_KEY');
  });

  it.each(ROUTES)('%s as Free: 403 TIER_UPGRADE_REQUIRED', async (_name, method, url, payload) => {
    expectError(await t.as(free, { method, url, ...(payload ? { payload } : {}) }), 403, 'TIER_UPGRADE_REQUIRED');
  });

  it('Free is refused before its body is looked at, and gets no domain', async () => {
    const api = domainApi(t);
    expectError(await api.post(free, { domain: 'not a domain' }), 403, 'TIER_UPGRADE_REQUIRED');
    expectError(await api.post(free, {}), 403, 'TIER_UPGRADE_REQUIRED');
    // The domain Free tried to add is not held for it.
    expect((await api.check('links.free-brand.com').then((r) => r.json())).available).toBe(true);
  });

  it.each([
    ['Pro', pro],
    ['Builder', builder],
    ['Enterprise', enterprise],
  ])('%s lists its (no) domains: 200 {domains: [], monthlyPrice: 0}', async (_tier, user) => {
    const res = await domainApi(t).listRes(user);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ domains: [], monthlyPrice: 0 });
  });

  it('the availability check needs no key, and answers a Free key too', async () => {
    const api = domainApi(t);
    for (const caller of [null, free]) {
      const res = await api.check('brand-new.acme-brand.com', caller);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ hostname: 'brand-new.acme-brand.com', available: true });
    }
  });
});

describe(`custom domains: adding (${dialectName})`, () => {
  const t = useTestApp(withDns());
  const pro = t.user('pro');
  const other = t.user('pro');
  const enterprise = t.user('enterprise');

  it('answers 201 with the domain, status pending_txt, a token and the TXT and CNAME records to publish', async () => {
    const api = domainApi(t);
    const domain = fresh('links');
    const res = await api.post(pro, { domain });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<AddedDomain>();
    expect(body).toEqual({
      domain,
      status: 'pending_txt',
      verificationToken: expect.any(String),
      txtRecord: { name: `_snip-verify.${domain}`, type: 'TXT', value: `snip-verify=${body.verificationToken}` },
      cnameRecord: { name: domain, type: 'CNAME', value: 'snip.test' },
    });
    // A token that cannot be guessed, and that fits in a TXT record as it is.
    expect(body.verificationToken.length).toBeGreaterThanOrEqual(16);
    expect(body.verificationToken).toMatch(/^[\x21-\x7e]+$/);
  });

  it('gives every domain a token of its own', async () => {
    const api = domainApi(t);
    const a = await api.add(enterprise, fresh());
    const b = await api.add(enterprise, fresh());
    expect(a.verificationToken).not.toBe(b.verificationToken);
  });

  it('lists a new domain as pending_txt, sslStatus pending, no links, not default, no not-found page; monthlyPrice 0', async () => {
    const api = domainApi(t);
    const before = Date.now();
    const added = await api.add(other, fresh());
    const list = await api.list(other);
    expect(list.monthlyPrice).toBe(0);
    const item = list.domains.find((d) => d.domain === added.domain);
    expect(item).toEqual({
      domain: added.domain,
      status: 'pending_txt',
      sslStatus: 'pending',
      createdAt: expect.stringMatching(ISO_INSTANT),
      linkCount: 0,
      isDefault: false,
      notFoundPage: null,
      // The records to create stay readable, for a dashboard opened after the add.
      txtRecord: added.txtRecord,
      cnameRecord: added.cnameRecord,
    });
    const created = Date.parse(item!.createdAt);
    expect(created).toBeGreaterThanOrEqual(before - 1000);
    expect(created).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('lower-cases the domain and drops a trailing dot; the same name in another spelling is 409 DOMAIN_EXISTS', async () => {
    const api = domainApi(t);
    const name = fresh('shop');
    const added = await api.add(enterprise, `${name.toUpperCase()}.`);
    expect(added.domain).toBe(name);
    expect(added.txtRecord.name).toBe(`_snip-verify.${name}`);
    expect(added.cnameRecord.name).toBe(name);
    for (const spelling of [name, `${name}.`, name.toUpperCase(), `${name[0]!.toUpperCase()}${name.slice(1)}.`]) {
      expectError(await api.post(enterprise, { domain: spelling }), 409, 'DOMAIN_EXISTS', spelling);
    }
    expect((await api.list(enterprise)).domains.filter((d) => d.domain === name)).toHaveLength(1);
  });

  it('accepts hostnames at the limits: 63-character labels, 253 characters in all, punycode, digits and hyphens', async () => {
    const api = domainApi(t);
    const label63 = 'a'.repeat(63);
    const total253 = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
    expect(total253).toHaveLength(253);
    const valid = [`${label63}.acme-brand.com`, total253, 'xn--bcher-kva.de', 'a-1.b2-c3.io', 'x.y.co', '123go.acme-brand.com'];
    for (const domain of valid) {
      const res = await api.post(enterprise, { domain });
      expect(res.statusCode, `${domain}: ${res.body}`).toBe(201);
      expect(res.json<AddedDomain>().domain).toBe(domain);
    }
  });

  it('accepts 253 characters followed by the trailing dot it drops', async () => {
    const api = domainApi(t);
    const total253 = `${'e'.repeat(63)}.${'f'.repeat(63)}.${'g'.repeat(63)}.${'h'.repeat(57)}.com`;
    expect((await api.add(enterprise, `${total253}.`)).domain).toBe(total253);
  });

  it.each([
    ['a phrase', 'not a domain'],
    ['an empty label', 'a..b.com'],
    ['a leading hyphen', '-x.com'],
    ['a label ending in a hyphen', 'x-.com'],
    ['a single label', 'x'],
    ['a URL', 'http://x.com'],
    ['a URL with a path', 'x.com/path'],
    ['a port', 'x.com:8080'],
    ['credentials', 'user@x.com'],
    ['an underscore', 'foo_bar.com'],
    ['a leading dot', '.x.com'],
    ['two trailing dots', 'x.com..'],
    ['a label of 64 characters', `${'a'.repeat(64)}.com`],
    ['254 characters', `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`],
    ['a space inside', 'exa mple.com'],
  ])('refuses %s with 400 INVALID_DOMAIN and adds nothing', async (_what, domain) => {
    const api = domainApi(t);
    expectError(await api.post(pro, { domain }), 400, 'INVALID_DOMAIN', domain);
    expect(sortedDomains(await api.list(pro))).not.toContain(domain.toLowerCase());
  });

  it('refuses a domain that is not a string with 400 INVALID_DOMAIN', async () => {
    expectError(await domainApi(t).post(pro, { domain: { host: 'x.com' } }), 400, 'INVALID_DOMAIN');
  });

  it.each([
    ['no domain field', {}],
    ['an empty domain', { domain: '' }],
  ])('refuses %s with 400 MISSING_DOMAIN', async (_what, body) => {
    expectError(await domainApi(t).post(pro, body), 400, 'MISSING_DOMAIN');
  });

  it.each([
    ["Snip's own host", 'snip.test'],
    ["Snip's own host, upper case with a trailing dot", 'SNIP.TEST.'],
    ["a subdomain of Snip's host", 'go.snip.test'],
    ["a deeper subdomain of Snip's host", 'a.b.snip.test'],
    ['localhost', 'localhost'],
    ['a name under localhost', 'foo.localhost'],
    ['an IPv4 literal (loopback)', '127.0.0.1'],
    ['an IPv4 literal (documentation range)', '203.0.113.5'],
    ['an IPv6 literal', '[::1]'],
    ['a .local name', 'printer.local'],
    ['an .internal name', 'corp.internal'],
    ['an .invalid name', 'foo.invalid'],
    ['an .arpa name', '1.0.0.127.in-addr.arpa'],
    ['a .lan name', 'nas.lan'],
    ['an .onion name', 'abcdefghijklmnop.onion'],
  ])('refuses %s with 400 RESERVED_DOMAIN', async (_what, domain) => {
    const api = domainApi(t);
    const before = sortedDomains(await api.list(pro));
    expectError(await api.post(pro, { domain }), 400, 'RESERVED_DOMAIN', domain);
    expect(sortedDomains(await api.list(pro))).toEqual(before);
  });

  it("refuses another account's verified or active domain with 409 DOMAIN_TAKEN, in any spelling; a pending one does not block (issue 16)", async () => {
    const api = domainApi(t);
    const owner = await t.createUser('pro');
    const rival = await t.createUser('pro');
    const pending = (await api.add(owner, fresh())).domain;
    const verified = await api.verified(owner);
    const active = await api.active(owner);
    for (const domain of [verified, `${verified.toUpperCase()}.`, active]) {
      expectError(await api.post(rival, { domain }), 409, 'DOMAIN_TAKEN', domain);
    }
    expect((await api.list(rival)).domains).toEqual([]);
    expect((await api.add(rival, `${pending.toUpperCase()}.`)).status).toBe('pending_txt');
    expect(sortedDomains(await api.list(rival))).toEqual([pending]);
    expect(await api.status(owner, pending)).toBe('pending_txt');
    expect(await api.status(owner, verified)).toBe('verified');
    expect(await api.status(owner, active)).toBe('active');
  });

  it('one account adding the same domain several times at once: one 201, the rest 409 DOMAIN_EXISTS', async () => {
    const api = domainApi(t);
    const user = await t.createUser('pro');
    const domain = fresh('twice');
    const results = await Promise.all(Array.from({ length: 12 }, () => api.post(user, { domain })));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    for (const res of results.filter((r) => r.statusCode !== 201)) expectError(res, 409, 'DOMAIN_EXISTS');
    expect(sortedDomains(await api.list(user))).toEqual([domain]);
  });

  it('two accounts adding the same domain at once: both hold a pending claim, each with its own token (issue 16)', async () => {
    const api = domainApi(t);
    const a = await t.createUser('pro');
    const b = await t.createUser('pro');
    const domain = fresh('race');
    const [ra, rb] = await Promise.all([api.post(a, { domain }), api.post(b, { domain })]);
    expect([ra.statusCode, rb.statusCode]).toEqual([201, 201]);
    expect(ra.json<AddedDomain>().verificationToken).not.toBe(rb.json<AddedDomain>().verificationToken);
    expect(sortedDomains(await api.list(a))).toEqual([domain]);
    expect(sortedDomains(await api.list(b))).toEqual([domain]);
  });
});

describe(`custom domains: plan maximums (${dialectName})`, () => {
  const t = useTestApp(withDns());

  it('Pro holds 3 domains (pending, verified and active alike); the 4th is 403 DOMAIN_LIMIT_REACHED; deleting one frees a slot', async () => {
    const api = domainApi(t);
    const pro = await t.createUser('pro');
    const active = await api.active(pro);
    const verified = await api.verified(pro);
    const pending = (await api.add(pro, fresh())).domain;
    const fourth = fresh();
    expectError(await api.post(pro, { domain: fourth }), 403, 'DOMAIN_LIMIT_REACHED');
    expect(sortedDomains(await api.list(pro))).toEqual([active, verified, pending].sort());
    // The refused domain is not held for Pro.
    expect((await api.check(fourth)).json()).toEqual({ hostname: fourth, available: true });
    await api.remove(pro, pending);
    expect((await api.add(pro, fourth)).domain).toBe(fourth);
    expectError(await api.post(pro, { domain: fresh() }), 403, 'DOMAIN_LIMIT_REACHED');
  });

  it('adds sent in parallel cannot go past the maximum', async () => {
    const api = domainApi(t);
    // A race shows only sometimes; three bursts of 12 make a check-then-insert race all but certain to show.
    for (let round = 0; round < 3; round++) {
      const pro = await t.createUser('pro');
      const results = await Promise.all(Array.from({ length: 12 }, () => api.post(pro, { domain: fresh('burst') })));
      expect(results.filter((r) => r.statusCode === 201), `round ${round}`).toHaveLength(3);
      for (const res of results.filter((r) => r.statusCode !== 201)) expectError(res, 403, 'DOMAIN_LIMIT_REACHED');
      expect((await api.list(pro)).domains).toHaveLength(3);
    }
  });

  it('refused attempts do not use up a slot', async () => {
    const api = domainApi(t);
    const pro = await t.createUser('pro');
    const first = (await api.add(pro, fresh())).domain;
    expectError(await api.post(pro, { domain: 'not a domain' }), 400, 'INVALID_DOMAIN');
    expectError(await api.post(pro, { domain: 'snip.test' }), 400, 'RESERVED_DOMAIN');
    expectError(await api.post(pro, { domain: first }), 409, 'DOMAIN_EXISTS');
    await api.add(pro, fresh());
    await api.add(pro, fresh());
    expect((await api.list(pro)).domains).toHaveLength(3);
  });

  it('Builder holds 10; the 11th is 403 DOMAIN_LIMIT_REACHED', async () => {
    const api = domainApi(t);
    const builder = await t.createUser('builder');
    for (let i = 0; i < 10; i++) await api.add(builder, fresh('b'));
    expectError(await api.post(builder, { domain: fresh('b') }), 403, 'DOMAIN_LIMIT_REACHED');
    expect((await api.list(builder)).domains).toHaveLength(10);
  });

  it('Enterprise has no maximum', async () => {
    const api = domainApi(t);
    const enterprise = await t.createUser('enterprise');
    for (let i = 0; i < 12; i++) await api.add(enterprise, fresh('e'));
    expect((await api.list(enterprise)).domains).toHaveLength(12);
  });

  it("one account's domains do not count against another's maximum", async () => {
    const api = domainApi(t);
    const a = await t.createUser('pro');
    const b = await t.createUser('pro');
    for (let i = 0; i < 3; i++) await api.add(a, fresh());
    for (let i = 0; i < 3; i++) await api.add(b, fresh());
    expect((await api.list(b)).domains).toHaveLength(3);
  });
});

describe(`custom domains: the maximum comes from the plans table (${dialectName})`, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-domain-plans-'));
  const plansFile = path.join(dir, 'plans.json');
  fs.writeFileSync(plansFile, JSON.stringify({ pro: { domains: 1 } }));
  const t = useTestApp(withDns({ PLANS_FILE: plansFile }));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a PLANS_FILE giving Pro 1 domain refuses the second', async () => {
    const api = domainApi(t);
    const pro = await t.createUser('pro');
    await api.add(pro, fresh());
    expectError(await api.post(pro, { domain: fresh() }), 403, 'DOMAIN_LIMIT_REACHED');
  });
});

describe(`custom domains: verification over DNS (${dialectName})`, () => {
  const t = useTestApp(withDns());
  // Enterprise: no domain maximum, so one account can add a domain per test.
  const owner = t.user('enterprise');
  const rival = t.user('builder');

  it('without a TXT record: verified false, still pending_txt, a hint naming the record and the 48 hours; DNS was asked', async () => {
    const api = domainApi(t);
    const added = await api.add(owner, fresh());
    const res = await api.verifyRes(owner, added.domain);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<VerifyResult>();
    expect(body).toEqual({ verified: false, status: 'pending_txt', hint: expect.any(String) });
    expect(body.hint).toContain(`_snip-verify.${added.domain}`);
    expect(body.hint).toMatch(PROPAGATION);
    expect(dns.asked(`_snip-verify.${added.domain}`).some((q) => q.type === 'TXT')).toBe(true);
    expect(await api.status(owner, added.domain)).toBe('pending_txt');
  });

  it('asks DNS again on every verify: a record published after a failed try is found at once', async () => {
    const api = domainApi(t);
    const added = await api.add(owner, fresh());
    const name = `_snip-verify.${added.domain}`;
    expect((await api.verify(owner, added.domain)).verified).toBe(false);
    const askedBefore = dns.asked(name).length;
    api.publish(added);
    expect(await api.verify(owner, added.domain)).toEqual({ verified: true, status: 'verified', hint: expect.any(String) });
    expect(dns.asked(name).length).toBeGreaterThan(askedBefore);
    const item = await api.item(owner, added.domain);
    expect(item).toMatchObject({ status: 'verified', sslStatus: 'pending' });
  });

  it('a record with another value: verified false, and the hint reports the value found', async () => {
    const api = domainApi(t);
    const added = await api.add(owner, fresh());
    dns.set(added.txtRecord.name, ['snip-verify=not-the-right-token']);
    const result = await api.verify(owner, added.domain);
    expect(result).toMatchObject({ verified: false, status: 'pending_txt' });
    expect(result.hint).toContain(`_snip-verify.${added.domain}`);
    expect(result.hint).toContain('snip-verify=not-the-right-token');
    expect(await api.status(owner, added.domain)).toBe('pending_txt');
  });

  it('the bare token, without the snip-verify= prefix, does not verify', async () => {
    const api = domainApi(t);
    const added = await api.add(owner, fresh());
    dns.set(added.txtRecord.name, [added.verificationToken]);
    expect(await api.verify(owner, added.domain)).toMatchObject({ verified: false, status: 'pending_txt' });
  });

  it("another domain's token does not verify this one", async () => {
    const api = domainApi(t);
    const first = await api.add(owner, fresh());
    const second = await api.add(owner, fresh());
    dns.set(second.txtRecord.name, [first.txtRecord.value]);
    expect(await api.verify(owner, second.domain)).toMatchObject({ verified: false, status: 'pending_txt' });
    expect(await api.status(owner, first.domain)).toBe('pending_txt');
  });

  it('the right value on the domain itself instead of _snip-verify.<domain> does not count', async () => {
    const api = domainApi(t);
    const added = await api.add(owner, fresh());
    dns.set(added.domain, [added.txtRecord.value]);
    const result = await api.verify(owner, added.domain);
    expect(result).toMatchObject({ verified: false, status: 'pending_txt' });
    expect(result.hint).toContain(`_snip-verify.${added.domain}`);
  });

  it('finds the record among other TXT records of the name', async () => {
    const api = domainApi(t);
    const added = await api.add(owner, fresh());
    dns.set(added.txtRecord.name, ['v=spf1 -all', 'snip-verify=stale-old-token', added.txtRecord.value, 'google-site-verification=abc']);
    expect(await api.verify(owner, added.domain)).toMatchObject({ verified: true, status: 'verified' });
  });

  it('joins a record sent as several character-strings', async () => {
    const api = domainApi(t);
    const added = await api.add(owner, fresh());
    const value = added.txtRecord.value;
    dns.set(added.txtRecord.name, [[value.slice(0, 7), value.slice(7)]]);
    expect(await api.verify(owner, added.domain)).toMatchObject({ verified: true, status: 'verified' });
  });

  it('a name with no TXT records (NODATA) is not verified', async () => {
    const api = domainApi(t);
    const added = await api.add(owner, fresh());
    dns.set(added.txtRecord.name, []);
    const result = await api.verify(owner, added.domain);
    expect(result).toMatchObject({ verified: false, status: 'pending_txt' });
    expect(result.hint).toMatch(PROPAGATION);
  });

  it('a DNS server failure (SERVFAIL) is not verified, and is no server error', async () => {
    const api = domainApi(t);
    const added = await api.add(owner, fresh());
    dns.fail(added.txtRecord.name);
    const res = await api.verifyRes(owner, added.domain);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ verified: false, status: 'pending_txt' });
    // Once the DNS answers with the record, the domain verifies.
    api.publish(added);
    expect(await api.verify(owner, added.domain)).toMatchObject({ verified: true, status: 'verified' });
  });

  it('a verified domain stays verified even when its record is gone; an active one stays active', async () => {
    const api = domainApi(t);
    const verified = await api.add(owner, fresh());
    api.publish(verified);
    expect((await api.verify(owner, verified.domain)).verified).toBe(true);
    dns.remove(verified.txtRecord.name);
    for (let i = 0; i < 2; i++) {
      expect(await api.verify(owner, verified.domain)).toEqual({ verified: true, status: 'verified', hint: expect.any(String) });
    }
    expect(await api.status(owner, verified.domain)).toBe('verified');

    const active = await api.active(owner);
    dns.set(`_snip-verify.${active}`, ['snip-verify=something-else']);
    expect(await api.verify(owner, active)).toEqual({ verified: true, status: 'active', hint: expect.any(String) });
    expect(await api.item(owner, active)).toMatchObject({ status: 'active', sslStatus: 'active' });
  });

  it('a slow verify that answers after the domain was activated does not move it back from active', async () => {
    const api = domainApi(t);
    const added = await api.add(owner, fresh());
    const name = added.txtRecord.name;
    api.publish(added);
    dns.delay(name, 1_000);
    const askedBefore = dns.asked(name).length;
    const slow = api.verifyRes(owner, added.domain);
    // The slow verify has read the domain (pending_txt) and is waiting for DNS; meanwhile the owner goes on.
    await waitFor(() => dns.asked(name).length > askedBefore);
    dns.delay(name, 0);
    expect(await api.verify(owner, added.domain)).toMatchObject({ verified: true, status: 'verified' });
    await api.activate(owner, added.domain);
    const late = await slow;
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json<VerifyResult>().verified).toBe(true);
    expect(await api.status(owner, added.domain)).toBe('active');
    const link = await api.linksA.create(owner, { url: 'https://example.com/after-race', domain: added.domain });
    expectRedirect(await api.visit(added.domain, `/${link.shortCode}`), 'https://example.com/after-race');
  });

  it('an unknown domain is 404 DOMAIN_NOT_FOUND', async () => {
    const api = domainApi(t);
    expectError(await api.verifyRes(owner, fresh('unknown')), 404, 'DOMAIN_NOT_FOUND');
  });

  it("another account's domain is 404 DOMAIN_NOT_FOUND even with its record published, and its status does not move", async () => {
    const api = domainApi(t);
    const added = await api.add(rival, fresh());
    api.publish(added);
    expectError(await api.verifyRes(owner, added.domain), 404, 'DOMAIN_NOT_FOUND');
    expect(await api.status(rival, added.domain)).toBe('pending_txt');
  });
});

describe(`custom domains: activation (${dialectName})`, () => {
  const t = useTestApp(withDns());
  const builder = t.user('builder');
  const rival = t.user('builder');

  it('a pending_txt domain is 400 DOMAIN_NOT_VERIFIED and stays pending_txt, even with its record published meanwhile', async () => {
    const api = domainApi(t);
    const added = await api.add(builder, fresh());
    expectError(await api.activateRes(builder, added.domain), 400, 'DOMAIN_NOT_VERIFIED');
    expect(await api.status(builder, added.domain)).toBe('pending_txt');
    // Activation does not stand in for verify.
    api.publish(added);
    expectError(await api.activateRes(builder, added.domain), 400, 'DOMAIN_NOT_VERIFIED');
    expect(await api.status(builder, added.domain)).toBe('pending_txt');
  });

  it('a verified domain becomes active: 200 {success, domain, status active, billing free}; sslStatus active', async () => {
    const api = domainApi(t);
    const domain = await api.verified(builder);
    const res = await api.activateRes(builder, domain);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, domain, status: 'active', billing: { free: true } });
    expect(await api.item(builder, domain)).toMatchObject({ status: 'active', sslStatus: 'active' });
    expect((await api.list(builder)).monthlyPrice).toBe(0);
  });

  it('activating an active domain again answers the same 200', async () => {
    const api = domainApi(t);
    const domain = await api.active(builder);
    for (let i = 0; i < 2; i++) {
      const res = await api.activateRes(builder, domain);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, domain, status: 'active', billing: { free: true } });
    }
    expect(await api.status(builder, domain)).toBe('active');
  });

  it('an unknown domain is 404 DOMAIN_NOT_FOUND', async () => {
    expectError(await domainApi(t).activateRes(builder, fresh('unknown')), 404, 'DOMAIN_NOT_FOUND');
  });

  it("another account's verified domain is 404 DOMAIN_NOT_FOUND and stays verified", async () => {
    const api = domainApi(t);
    const domain = await api.verified(rival);
    expectError(await api.activateRes(builder, domain), 404, 'DOMAIN_NOT_FOUND');
    expect(await api.status(rival, domain)).toBe('verified');
  });
});

describe(`custom domains: settings (${dialectName})`, () => {
  const t = useTestApp(withDns());
  const builder = t.user('builder');
  const rival = t.user('builder');

  it('setDefault on a pending or verified domain is 400 DOMAIN_NOT_ACTIVE', async () => {
    const api = domainApi(t);
    const pending = (await api.add(builder, fresh())).domain;
    const verified = await api.verified(builder);
    for (const domain of [pending, verified]) {
      expectError(await api.patch(builder, domain, { setDefault: true }), 400, 'DOMAIN_NOT_ACTIVE', domain);
      expect((await api.item(builder, domain))?.isDefault).toBe(false);
    }
  });

  it('setDefault makes an active domain the one default, moves it, and false clears it; PATCH answers the list item', async () => {
    const api = domainApi(t);
    const user = await t.createUser('builder');
    const first = await api.active(user);
    const second = await api.active(user);
    const res = await api.patch(user, first, { setDefault: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      domain: first,
      status: 'active',
      sslStatus: 'active',
      createdAt: expect.stringMatching(ISO_INSTANT),
      linkCount: 0,
      isDefault: true,
      notFoundPage: null,
      txtRecord: { name: `_snip-verify.${first}`, type: 'TXT', value: expect.stringMatching(/^snip-verify=/) },
      cnameRecord: { name: first, type: 'CNAME', value: expect.any(String) },
    });
    expect(res.json()).toEqual(await api.item(user, first));
    const defaults = async () => (await api.list(user)).domains.filter((d) => d.isDefault).map((d) => d.domain);
    expect(await defaults()).toEqual([first]);
    // Setting it again keeps one default.
    await api.update(user, first, { setDefault: true });
    expect(await defaults()).toEqual([first]);
    // Another domain takes it over.
    expect((await api.update(user, second, { setDefault: true })).isDefault).toBe(true);
    expect(await defaults()).toEqual([second]);
    // false clears it.
    expect((await api.update(user, second, { setDefault: false })).isDefault).toBe(false);
    expect(await defaults()).toEqual([]);
  });

  it("each account has its own default: one account's setDefault does not touch another's", async () => {
    const api = domainApi(t);
    const a = await t.createUser('pro');
    const b = await t.createUser('pro');
    const aDomain = await api.active(a);
    const bDomain = await api.active(b);
    await api.update(a, aDomain, { setDefault: true });
    await api.update(b, bDomain, { setDefault: true });
    expect((await api.item(a, aDomain))?.isDefault).toBe(true);
    expect((await api.item(b, bDomain))?.isDefault).toBe(true);
  });

  it('stores a redirect not-found page, replaces it with an html one, and null removes it', async () => {
    const api = domainApi(t);
    const domain = await api.active(builder);
    const redirect = { type: 'redirect', redirectUrl: 'https://acme-brand.com/missing' };
    expect((await api.update(builder, domain, { notFoundPage: redirect })).notFoundPage).toEqual(redirect);
    expect((await api.item(builder, domain))?.notFoundPage).toEqual(redirect);
    const page = { type: 'html', html: '<h1>Nothing here</h1><p>Try <a href="https://acme-brand.com/">our home page</a>.</p>' };
    expect((await api.update(builder, domain, { notFoundPage: page })).notFoundPage).toEqual(page);
    expect((await api.item(builder, domain))?.notFoundPage).toEqual(page);
    expect((await api.update(builder, domain, { notFoundPage: null })).notFoundPage).toBeNull();
    expect((await api.item(builder, domain))?.notFoundPage).toBeNull();
  });

  it('changes only what it is given: setDefault keeps the page, a page keeps the default', async () => {
    const api = domainApi(t);
    const user = await t.createUser('pro');
    const domain = await api.active(user);
    const redirect = { type: 'redirect', redirectUrl: 'https://acme-brand.com/404' };
    const both = await api.update(user, domain, { setDefault: true, notFoundPage: redirect });
    expect(both).toMatchObject({ isDefault: true, notFoundPage: redirect });
    expect(await api.update(user, domain, { notFoundPage: { type: 'html', html: '<p>x</p>' } })).toMatchObject({ isDefault: true });
    expect(await api.update(user, domain, { setDefault: false })).toMatchObject({ isDefault: false, notFoundPage: { type: 'html', html: '<p>x</p>' } });
  });

  it.each([
    ['a <script> element', '<script>alert(1)</script><p>Gone</p>', ['<script', 'alert(1)'], '<p>Gone</p>'],
    ['an upper-case SCRIPT element', '<SCRIPT SRC="https://evil.example/x.js"></SCRIPT><p>Gone</p>', ['<script', 'evil.example'], '<p>Gone</p>'],
    ['an onclick attribute', '<p onclick="alert(2)">Gone</p>', ['onclick', 'alert(2)'], 'Gone</p>'],
    ['an onerror attribute', '<img src="x" onerror="alert(3)"><p>Gone</p>', ['onerror', 'alert(3)'], '<p>Gone</p>'],
    ['a javascript: href', '<a href="javascript:alert(4)">home</a><p>Gone</p>', ['javascript:', 'alert(4)'], '<p>Gone</p>'],
    ['a javascript: href in mixed case with leading space', '<a href=" JaVaScRiPt:alert(5)">home</a><p>Gone</p>', ['javascript:', 'alert(5)'], '<p>Gone</p>'],
    ['an entity-encoded javascript: href', '<a href="java&#x09;script&#58;alert(6)">home</a><p>Gone</p>', ['script&#58;', 'script:', 'alert(6)'], '<p>Gone</p>'],
    ['an <svg onload>', '<svg onload="alert(7)"></svg><p>Gone</p>', ['onload', 'alert(7)'], '<p>Gone</p>'],
    ['an <iframe> to a javascript: URL', '<iframe src="javascript:alert(8)"></iframe><p>Gone</p>', ['<iframe', 'alert(8)'], '<p>Gone</p>'],
    ['a <meta> refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(9)"><p>Gone</p>', ['<meta', 'alert(9)'], '<p>Gone</p>'],
  ])('strips scripts from an html page: %s', async (_what, html, absent, present) => {
    const api = domainApi(t);
    const user = await t.createUser('pro');
    const own = await api.active(user);
    const item = await api.update(user, own, { notFoundPage: { type: 'html', html } });
    const stored = item.notFoundPage;
    expect(stored?.type).toBe('html');
    const text = stored && stored.type === 'html' ? stored.html : '';
    for (const bad of absent) expect(text.toLowerCase()).not.toContain(bad.toLowerCase());
    expect(text).toContain(present);
    // What the list shows is the same sanitised page.
    expect((await api.item(user, own))?.notFoundPage).toEqual(stored);
  });

  it('html of exactly 10,000 characters is accepted; 10,001 is 400 HTML_TOO_LONG and changes nothing', async () => {
    const api = domainApi(t);
    const domain = await api.active(builder);
    const exact = `<p>${'x'.repeat(10_000 - 7)}</p>`;
    expect(exact).toHaveLength(10_000);
    expect((await api.update(builder, domain, { notFoundPage: { type: 'html', html: exact } })).notFoundPage).toEqual({ type: 'html', html: exact });
    const over = `<p>${'y'.repeat(10_001 - 7)}</p>`;
    expectError(await api.patch(builder, domain, { notFoundPage: { type: 'html', html: over } }), 400, 'HTML_TOO_LONG');
    expect((await api.item(builder, domain))?.notFoundPage).toEqual({ type: 'html', html: exact });
  });

  it.each([
    ['not a URL', 'not a url'],
    ['a relative path', '/missing'],
    ['an ftp: URL', 'ftp://acme-brand.com/missing'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/html,hi'],
    ["Snip's own host (a loop)", 'http://snip.test/somewhere'],
    ['the domain itself (a loop)', 'https://{domain}/lost'],
  ])('a redirect to %s is 400 INVALID_URL', async (_what, target) => {
    const api = domainApi(t);
    const user = await t.createUser('pro');
    const domain = await api.active(user);
    const redirectUrl = target.replace('{domain}', domain);
    expectError(await api.patch(user, domain, { notFoundPage: { type: 'redirect', redirectUrl } }), 400, 'INVALID_URL', redirectUrl);
    expect((await api.item(user, domain))?.notFoundPage).toBeNull();
  });

  it.each([
    ['an unknown type', { type: 'teapot', html: '<p>x</p>' }],
    ['no type', { html: '<p>x</p>' }],
    ['a string', 'redirect'],
  ])('a not-found page with %s is 400 INVALID_NOT_FOUND_PAGE', async (_what, notFoundPage) => {
    const api = domainApi(t);
    const user = await t.createUser('pro');
    const domain = await api.active(user);
    expectError(await api.patch(user, domain, { notFoundPage }), 400, 'INVALID_NOT_FOUND_PAGE');
    expect((await api.item(user, domain))?.notFoundPage).toBeNull();
  });

  it("an unknown domain, or another account's, is 404 DOMAIN_NOT_FOUND and keeps its settings", async () => {
    const api = domainApi(t);
    expectError(await api.patch(builder, fresh('unknown'), { setDefault: false }), 404, 'DOMAIN_NOT_FOUND');
    const theirs = await api.active(rival);
    expectError(await api.patch(builder, theirs, { setDefault: true }), 404, 'DOMAIN_NOT_FOUND');
    expectError(await api.patch(builder, theirs, { notFoundPage: { type: 'redirect', redirectUrl: 'https://evil.example.com/' } }), 404, 'DOMAIN_NOT_FOUND');
    expect(await api.item(rival, theirs)).toMatchObject({ isDefault: false, notFoundPage: null });
  });
});

describe(`custom domains: links on a domain (${dialectName})`, () => {
  const t = useTestApp(withDns());
  const builder = t.user('builder');
  const rival = t.user('builder');
  let domain: string;
  let second: string;

  beforeAll(async () => {
    const api = domainApi(t);
    domain = await api.active(builder);
    second = await api.active(builder);
  });

  it('A: POST /api/v1/links with domain gives http://<domain>/<code>; details and list carry the domain', async () => {
    const api = domainApi(t);
    const created = await api.linksA.create(builder, { url: 'https://example.com/a-on-domain', domain });
    expect(created.shortUrl).toBe(`http://${domain}/${created.shortCode}`);
    const details = await api.detailsA(builder, created.shortCode);
    expect(details.domain).toBe(domain);
    expect(details.shortUrl).toBe(`http://${domain}/${created.shortCode}`);
    const listed = (await api.linksA.listAll(builder)).find((l) => l.shortCode === created.shortCode);
    expect(listed).toMatchObject({ domain, shortUrl: `http://${domain}/${created.shortCode}` });
  });

  it('B: POST /api/links with domain gives url http://<domain>/<code>; details and list carry the domain', async () => {
    const api = domainApi(t);
    const created = await api.linksB.create(builder, { url: 'https://example.com/b-on-domain', domain });
    expect(created.url).toBe(`http://${domain}/${created.shortCode}`);
    expect(created.shortUrl).toBe(created.shortCode);
    expect(created.domain).toBe(domain);
    const details = await api.detailsB(builder, created.shortCode);
    expect(details).toMatchObject({ domain, url: `http://${domain}/${created.shortCode}` });
    // A shows the same link on the domain too.
    expect(await api.detailsA(builder, created.shortCode)).toMatchObject({ domain, shortUrl: `http://${domain}/${created.shortCode}` });
    const listed = (await api.linksB.listAll(builder)).find((l) => l.shortCode === created.shortCode);
    expect(listed).toMatchObject({ domain, url: `http://${domain}/${created.shortCode}` });
  });

  it('without domain and without a default: domain null and the default host, on A and B', async () => {
    const api = domainApi(t);
    const a = await api.linksA.create(builder, { url: 'https://example.com/plain-a' });
    expect(a.shortUrl).toBe(`http://snip.test/${a.shortCode}`);
    expect((await api.detailsA(builder, a.shortCode)).domain).toBeNull();
    const b = await api.linksB.create(builder, { url: 'https://example.com/plain-b' });
    expect(b).toMatchObject({ url: `http://snip.test/${b.shortCode}`, domain: null });
  });

  it('a custom slug on a domain: http://<domain>/<prefix>/<slug>, which redirects there', async () => {
    const api = domainApi(t);
    const created = await api.linksA.create(builder, { url: 'https://example.com/ns-on-domain', customSlug: 'Spring-Sale', domain });
    expect(created.fullPath).toBe(`${builder.namespace}/Spring-Sale`);
    expect(created.shortUrl).toBe(`http://${domain}/${builder.namespace}/Spring-Sale`);
    expectRedirect(await api.visit(domain, `/${builder.namespace}/Spring-Sale`), 'https://example.com/ns-on-domain');
    expectRedirect(await api.visit('snip.test', `/${builder.namespace}/Spring-Sale`), 'https://example.com/ns-on-domain');
    expectStandard404(await api.visit(second, `/${builder.namespace}/Spring-Sale`));    // Host names are compared normalised: letter case and a trailing dot name the same host.
    expectRedirect(await api.visit(`${domain.toUpperCase()}.`, `/${builder.namespace}/Spring-Sale`), 'https://example.com/ns-on-domain');
    expectRedirect(await api.visit('SNIP.test.', `/${builder.namespace}/Spring-Sale`), 'https://example.com/ns-on-domain');
  });

  it('a pending or verified domain is 400 DOMAIN_NOT_ACTIVE on A and B, and no link is made', async () => {
    const api = domainApi(t);
    const pending = (await api.add(builder, fresh())).domain;
    const verified = await api.verified(builder);
    for (const name of [pending, verified]) {
      for (const links of [api.linksA, api.linksB]) {
        const before = (await links.listAll(builder)).length;
        expectError(await links.post(builder, { url: 'https://example.com/nope', domain: name }), 400, 'DOMAIN_NOT_ACTIVE', name);
        expect((await links.listAll(builder)).length).toBe(before);
      }
    }
    await api.remove(builder, pending);
    await api.remove(builder, verified);
  });

  it('an unknown domain is 404 DOMAIN_NOT_FOUND on A and B', async () => {
    const api = domainApi(t);
    for (const links of [api.linksA, api.linksB]) {
      expectError(await links.post(builder, { url: 'https://example.com/nope', domain: fresh('unknown') }), 404, 'DOMAIN_NOT_FOUND');
    }
  });

  it("another account's active domain cannot be used (400 DOMAIN_NOT_ACTIVE, or 404 DOMAIN_NOT_FOUND), and no link is made", async () => {
    const api = domainApi(t);
    for (const links of [api.linksA, api.linksB]) {
      const before = (await links.listAll(rival)).length;
      const res = await links.post(rival, { url: 'https://example.com/hijack', domain });
      expect([400, 404], res.body).toContain(res.statusCode);
      expectError(res, res.statusCode, res.statusCode === 400 ? 'DOMAIN_NOT_ACTIVE' : 'DOMAIN_NOT_FOUND');
      expect((await links.listAll(rival)).length).toBe(before);
    }
  });

  it('the default domain applies to links made without domain; an explicit domain still wins; clearing it restores the default host', async () => {
    const api = domainApi(t);
    const user = await t.createUser('builder');
    const main = await api.active(user);
    const alt = await api.active(user);
    await api.update(user, main, { setDefault: true });
    const a = await api.linksA.create(user, { url: 'https://example.com/default-a' });
    expect(a.shortUrl).toBe(`http://${main}/${a.shortCode}`);
    expect((await api.detailsA(user, a.shortCode)).domain).toBe(main);
    const b = await api.linksB.create(user, { url: 'https://example.com/default-b' });
    expect(b).toMatchObject({ url: `http://${main}/${b.shortCode}`, domain: main });
    const explicit = await api.linksA.create(user, { url: 'https://example.com/explicit', domain: alt });
    expect(explicit.shortUrl).toBe(`http://${alt}/${explicit.shortCode}`);
    // Moving the default changes new links only.
    await api.update(user, alt, { setDefault: true });
    const moved = await api.linksA.create(user, { url: 'https://example.com/moved' });
    expect(moved.shortUrl).toBe(`http://${alt}/${moved.shortCode}`);
    expect((await api.detailsA(user, a.shortCode)).domain).toBe(main);
    // No default: the default host again.
    await api.update(user, alt, { setDefault: false });
    const plain = await api.linksA.create(user, { url: 'https://example.com/no-default' });
    expect(plain.shortUrl).toBe(`http://snip.test/${plain.shortCode}`);
    expect((await api.detailsA(user, plain.shortCode)).domain).toBeNull();
    // Links are counted per domain.
    const counts = Object.fromEntries((await api.list(user)).domains.map((d) => [d.domain, d.linkCount]));
    expect(counts).toEqual({ [main]: 2, [alt]: 2 });
  });

  it("another account's default domain does not apply to this account's links", async () => {
    const api = domainApi(t);
    const owner = await t.createUser('pro');
    const neighbour = await t.createUser('pro');
    const theirs = await api.active(owner);
    await api.update(owner, theirs, { setDefault: true });
    const link = await api.linksA.create(neighbour, { url: 'https://example.com/neighbour' });
    expect(link.shortUrl).toBe(`http://snip.test/${link.shortCode}`);
  });

  it('linkCount counts the links on each domain, and drops when a link is deleted', async () => {
    const api = domainApi(t);
    const user = await t.createUser('pro');
    const d1 = await api.active(user);
    const d2 = await api.active(user);
    const l1 = await api.linksA.create(user, { url: 'https://example.com/c1', domain: d1 });
    await api.linksA.create(user, { url: 'https://example.com/c2', domain: d1 });
    await api.linksB.create(user, { url: 'https://example.com/c3', domain: d2 });
    await api.linksA.create(user, { url: 'https://example.com/c4' });
    const counts = async () => Object.fromEntries((await api.list(user)).domains.map((d) => [d.domain, d.linkCount]));
    expect(await counts()).toEqual({ [d1]: 2, [d2]: 1 });
    expect((await api.linksA.del(user, l1.shortCode)).statusCode).toBe(200);
    expect(await counts()).toEqual({ [d1]: 1, [d2]: 1 });
  });

  it('changing a domain link keeps it on its domain, and its domain redirects to the new destination', async () => {
    const api = domainApi(t);
    const link = await api.linksA.create(builder, { url: 'https://example.com/before-change', domain });
    expectRedirect(await api.visit(domain, `/${link.shortCode}`), 'https://example.com/before-change');
    const res = await api.linksA.patch(builder, link.shortCode, { url: 'https://example.com/after-change' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<DomainLinkA>()).toMatchObject({ domain, shortUrl: `http://${domain}/${link.shortCode}` });
    expectRedirect(await api.visit(domain, `/${link.shortCode}`), 'https://example.com/after-change');
    const viaB = await api.linksB.patch(builder, link.shortCode, { maxClicks: 50 });
    expect(viaB.statusCode, viaB.body).toBe(200);
    expect(viaB.json<DomainLinkB>()).toMatchObject({ domain, url: `http://${domain}/${link.shortCode}` });
  });

  it('bulk creation (A and B) puts links on the default domain', async () => {
    const api = domainApi(t);
    const user = await t.createUser('builder');
    const main = await api.active(user);
    await api.update(user, main, { setDefault: true });
    for (const url of ['/api/v1/bulk', '/api/bulk']) {
      const res = await t.as(user, { method: 'POST', url, payload: { urls: [{ url: 'https://example.com/bulk-1' }, { url: 'https://example.com/bulk-2' }] } });
      expect(res.statusCode, res.body).toBe(200);
      const results = res.json<{ results: Array<{ success: boolean; shortCode: string; shortUrl: string }> }>().results;
      expect(results).toHaveLength(2);
      for (const r of results) {
        expect(r.success).toBe(true);
        expect(r.shortUrl).toBe(`http://${main}/${r.shortCode}`);
        const visit = await api.visit(main, `/${r.shortCode}`);
        expect(visit.statusCode, visit.body).toBe(302);
        expect(visit.headers.location).toMatch(/^https:\/\/example\.com\/bulk-[12]$/);
      }
    }
    expect((await api.item(user, main))?.linkCount).toBe(4);
  });

  it('the QR code of a domain link encodes http://<domain>/<code>', async () => {
    const api = domainApi(t);
    const link = await api.linksA.create(builder, { url: 'https://example.com/qr-domain', domain });
    expect(await api.qrText(link.shortCode)).toBe(`http://${domain}/${link.shortCode}`);
    const plain = await api.linksA.create(builder, { url: 'https://example.com/qr-plain' });
    expect(await api.qrText(plain.shortCode)).toBe(`http://snip.test/${plain.shortCode}`);
  });

  it('the + preview of a domain link shows its domain short URL, on the default host and on the domain', async () => {
    const api = domainApi(t);
    const link = await api.linksA.create(builder, { url: 'https://example.com/preview-domain', domain });
    for (const host of ['snip.test', domain]) {
      const res = await api.visit(host, `/${link.shortCode}+`);
      expect(res.statusCode, `${host}: ${res.body}`).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain(`http://${domain}/${link.shortCode}`);
      expect(res.body).not.toContain(`http://snip.test/${link.shortCode}`);
    }
  });
});

describe(`custom domains: redirects by Host (${dialectName})`, () => {
  const t = useTestApp(withDns());
  const owner = t.user('builder');
  const rival = t.user('builder');
  let domain: string;
  let sibling: string;
  let theirs: string;
  let onDomain: CreatedLinkA;
  let onSibling: CreatedLinkA;
  let onDefault: CreatedLinkA;
  let rivalLink: CreatedLinkA;

  beforeAll(async () => {
    const api = domainApi(t);
    domain = await api.active(owner);
    sibling = await api.active(owner);
    theirs = await api.active(rival);
    onDomain = await api.linksA.create(owner, { url: 'https://example.com/on-domain', domain });
    onSibling = await api.linksA.create(owner, { url: 'https://example.com/on-sibling', domain: sibling });
    onDefault = await api.linksA.create(owner, { url: 'https://example.com/on-default' });
    rivalLink = await api.linksA.create(rival, { url: 'https://example.com/rival', domain: theirs });
  });

  it("GET and HEAD /<code> on the link's domain redirect; GETs count as clicks", async () => {
    const api = domainApi(t);
    const before = (await api.detailsA(owner, onDomain.shortCode)).clicks;
    expectRedirect(await api.visit(domain, `/${onDomain.shortCode}`), 'https://example.com/on-domain');
    expectRedirect(await api.visit(domain, `/${onDomain.shortCode}`, 'HEAD'), 'https://example.com/on-domain');
    expectRedirect(await api.visit(sibling, `/${onSibling.shortCode}`), 'https://example.com/on-sibling');
    expect((await api.detailsA(owner, onDomain.shortCode)).clicks).toBe(before + 1);
  });

  it('on the default host every link redirects, domain links included (Host snip.test, or none)', async () => {
    const api = domainApi(t);
    for (const host of ['snip.test', undefined]) {
      expectRedirect(await api.visit(host, `/${onDomain.shortCode}`), 'https://example.com/on-domain');
      expectRedirect(await api.visit(host, `/${onSibling.shortCode}`), 'https://example.com/on-sibling');
      expectRedirect(await api.visit(host, `/${onDefault.shortCode}`), 'https://example.com/on-default');
      expectRedirect(await api.visit(host, `/${rivalLink.shortCode}`), 'https://example.com/rival');
    }
  });

  it("without a not-found page, a domain answers the standard 404 for default-host links, other domains' links and unknown slugs", async () => {
    const api = domainApi(t);
    const clicks = async (code: string) => (await api.detailsA(owner, code)).clicks;
    const before = [await clicks(onDefault.shortCode), await clicks(onSibling.shortCode)];
    expectStandard404(await api.visit(domain, `/${onDefault.shortCode}`));
    expectStandard404(await api.visit(domain, `/${onSibling.shortCode}`));
    expectStandard404(await api.visit(domain, `/${rivalLink.shortCode}`));
    expectStandard404(await api.visit(theirs, `/${onDomain.shortCode}`));
    expectStandard404(await api.visit(domain, '/Zz9Zz9'));
    expectStandard404(await api.visit(domain, '/no-such-thing'));
    expectStandard404(await api.visit(domain, `/${owner.namespace}/no-such-slug`));
    // None of these counted a click.
    expect([await clicks(onDefault.shortCode), await clicks(onSibling.shortCode)]).toEqual(before);
  });

  it("another account's namespaced link is not found on a custom domain", async () => {
    const api = domainApi(t);
    const theirsNs = await api.linksA.create(rival, { url: 'https://example.com/rival-ns', customSlug: 'Rival-Offer' });
    expectStandard404(await api.visit(domain, `/${rival.namespace}/Rival-Offer`));
    expectRedirect(await api.visit('snip.test', `/${rival.namespace}/Rival-Offer`), 'https://example.com/rival-ns');
    expect(theirsNs.fullPath).toBe(`${rival.namespace}/Rival-Offer`);
  });

  it("the + preview on a custom domain shows that domain's links only; others get the 404 page there", async () => {
    const api = domainApi(t);
    const own = await api.visit(domain, `/${onDomain.shortCode}+`);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.body).toContain('https://example.com/on-domain');
    const rivalNs = await api.linksA.create(rival, { url: 'https://example.com/rival-ns-preview', customSlug: 'Rival-Preview' });
    for (const [url, destination] of [
      [`/${onDefault.shortCode}+`, 'https://example.com/on-default'],
      [`/${onSibling.shortCode}+`, 'https://example.com/on-sibling'],
      [`/${rivalLink.shortCode}+`, 'https://example.com/rival'],
      [`/${rivalNs.fullPath}+`, 'https://example.com/rival-ns-preview'],
    ] as const) {
      const res = await api.visit(domain, url);
      expectStandard404(res);
      expect(res.body, url).not.toContain(destination);
    }
    // On the default host every preview is still there.
    expect((await api.visit('snip.test', `/${rivalLink.shortCode}+`)).statusCode).toBe(200);
  });

  it('a redirect not-found page sends misses on that domain to its URL (302), and only on that domain', async () => {
    const api = domainApi(t);
    const user = await t.createUser('pro');
    const name = await api.active(user);
    const other = await api.active(user);
    const mine = await api.linksA.create(user, { url: 'https://example.com/mine', domain: name });
    const plain = await api.linksA.create(user, { url: 'https://example.com/plain' });
    await api.update(user, name, { notFoundPage: { type: 'redirect', redirectUrl: 'https://acme-brand.com/lost' } });
    expectRedirect(await api.visit(name, `/${plain.shortCode}`), 'https://acme-brand.com/lost');
    expectRedirect(await api.visit(name, '/Zz9Zz9'), 'https://acme-brand.com/lost');
    expectRedirect(await api.visit(name, '/not-a-code'), 'https://acme-brand.com/lost');
    expectRedirect(await api.visit(name, `/${onDomain.shortCode}`), 'https://acme-brand.com/lost');
    // The domain's own links still redirect to their destinations.
    expectRedirect(await api.visit(name, `/${mine.shortCode}`), 'https://example.com/mine');
    // Other hosts keep their own behaviour.
    expectStandard404(await api.visit(other, '/Zz9Zz9'));
    expectStandard404(await api.visit('snip.test', '/Zz9Zz9'));
    expectRedirect(await api.visit('snip.test', `/${plain.shortCode}`), 'https://example.com/plain');
  });

  it('an html not-found page is served with 404 as text/html, sanitised', async () => {
    const api = domainApi(t);
    const user = await t.createUser('pro');
    const name = await api.active(user);
    const plain = await api.linksA.create(user, { url: 'https://example.com/plain-html' });
    await api.update(user, name, { notFoundPage: { type: 'html', html: '<script>alert(1)</script><p>Gone</p><a href="javascript:alert(2)" onclick="alert(3)">x</a>' } });
    for (const url of [`/${plain.shortCode}`, '/Zz9Zz9', '/whatever/path']) {
      const res = await api.visit(name, url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers.location).toBeUndefined();
      expect(res.body).toContain('<p>Gone</p>');
      expect(res.body).not.toMatch(/<script/i);
      expect(res.body).not.toContain('alert(');
      expect(res.body).not.toMatch(/javascript:/i);
      expect(res.body).not.toMatch(/onclick/i);
    }
  });

  it('a change of the not-found page applies to the next visit; null brings back the standard 404', async () => {
    const api = domainApi(t);
    const user = await t.createUser('pro');
    const name = await api.active(user);
    expectStandard404(await api.visit(name, '/Zz9Zz9'));
    await api.update(user, name, { notFoundPage: { type: 'redirect', redirectUrl: 'https://acme-brand.com/first' } });
    expectRedirect(await api.visit(name, '/Zz9Zz9'), 'https://acme-brand.com/first');
    await api.update(user, name, { notFoundPage: { type: 'redirect', redirectUrl: 'https://acme-brand.com/second' } });
    expectRedirect(await api.visit(name, '/Zz9Zz9'), 'https://acme-brand.com/second');
    await api.update(user, name, { notFoundPage: { type: 'html', html: '<p>Moved on</p>' } });
    const html = await api.visit(name, '/Zz9Zz9');
    expect(html.statusCode).toBe(404);
    expect(html.body).toContain('<p>Moved on</p>');
    await api.update(user, name, { notFoundPage: null });
    expectStandard404(await api.visit(name, '/Zz9Zz9'));
  });

  it('an ended link on its domain still gets its 410 page, not the not-found page', async () => {
    const api = domainApi(t);
    const user = await t.createUser('pro');
    const name = await api.active(user);
    await api.update(user, name, { notFoundPage: { type: 'redirect', redirectUrl: 'https://acme-brand.com/lost' } });
    const once = await api.linksA.create(user, { url: 'https://example.com/once', domain: name, maxClicks: 1 });
    expectRedirect(await api.visit(name, `/${once.shortCode}`), 'https://example.com/once');
    const ended = await api.visit(name, `/${once.shortCode}`);
    expect(ended.statusCode, ended.body).toBe(410);
    expect(ended.headers['content-type']).toMatch(/^text\/html/);
  });

  // Issue 26: only Snip's own hosts and active custom domains answer short links (src/http/hosts.ts).
  it('a pending, verified or unknown host answers no short link: 421 MISDIRECTED_REQUEST', async () => {
    const api = domainApi(t);
    const user = await t.createUser('pro');
    const pending = (await api.add(user, fresh())).domain;
    const verified = await api.verified(user);
    for (const host of [pending, verified, 'unknown-host.acme-brand.com']) {
      for (const path of [`/${onDefault.shortCode}`, `/${onDomain.shortCode}`, '/Zz9Zz9']) expectError(await api.visit(host, path), 421, 'MISDIRECTED_REQUEST');
    }
  });

  it('matches the Host header case-insensitively and without its port', async () => {
    const api = domainApi(t);
    for (const host of [domain.toUpperCase(), `${domain}:8080`]) {
      expectRedirect(await api.visit(host, `/${onDomain.shortCode}`), 'https://example.com/on-domain');
      expectStandard404(await api.visit(host, `/${onDefault.shortCode}`));
    }
  });
});

describe(`custom domains: deleting (${dialectName})`, () => {
  const t = useTestApp(withDns());
  const builder = t.user('builder');
  const rival = t.user('builder');

  it('answers 200 {success: true}; the domain is gone from the list and its routes answer 404', async () => {
    const api = domainApi(t);
    const domain = await api.active(builder);
    await api.remove(builder, domain);
    expect(sortedDomains(await api.list(builder))).not.toContain(domain);
    expectError(await api.verifyRes(builder, domain), 404, 'DOMAIN_NOT_FOUND');
    expectError(await api.activateRes(builder, domain), 404, 'DOMAIN_NOT_FOUND');
    expectError(await api.patch(builder, domain, { setDefault: false }), 404, 'DOMAIN_NOT_FOUND');
    expectError(await api.del(builder, domain), 404, 'DOMAIN_NOT_FOUND');
  });

  it('deletes a domain in any status', async () => {
    const api = domainApi(t);
    const user = await t.createUser('pro');
    const pending = (await api.add(user, fresh())).domain;
    const verified = await api.verified(user);
    const active = await api.active(user);
    for (const domain of [pending, verified, active]) await api.remove(user, domain);
    expect((await api.list(user)).domains).toEqual([]);
  });

  it('its links fall back to the default host: details, lists, QR code and redirects', async () => {
    const api = domainApi(t);
    const user = await t.createUser('pro');
    const domain = await api.active(user);
    const a = await api.linksA.create(user, { url: 'https://example.com/fallback-a', domain });
    const b = await api.linksB.create(user, { url: 'https://example.com/fallback-b', domain });
    // Visited on the domain first, so that whatever an instance keeps about the host is in use.
    expectRedirect(await api.visit(domain, `/${a.shortCode}`), 'https://example.com/fallback-a');
    expect(await api.qrText(a.shortCode)).toBe(`http://${domain}/${a.shortCode}`);
    await api.remove(user, domain);

    expect(await api.detailsA(user, a.shortCode)).toMatchObject({ domain: null, shortUrl: `http://snip.test/${a.shortCode}` });
    expect(await api.detailsB(user, b.shortCode)).toMatchObject({ domain: null, url: `http://snip.test/${b.shortCode}` });
    const listedA = (await api.linksA.listAll(user)).find((l) => l.shortCode === a.shortCode);
    expect(listedA).toMatchObject({ domain: null, shortUrl: `http://snip.test/${a.shortCode}` });
    const listedB = (await api.linksB.listAll(user)).find((l) => l.shortCode === b.shortCode);
    expect(listedB).toMatchObject({ domain: null, url: `http://snip.test/${b.shortCode}` });
    expect(await api.qrText(a.shortCode)).toBe(`http://snip.test/${a.shortCode}`);
    expectRedirect(await api.visit('snip.test', `/${a.shortCode}`), 'https://example.com/fallback-a');
    expectRedirect(await api.visit('snip.test', `/${b.shortCode}`), 'https://example.com/fallback-b');
    // The old host is no active domain any more: it answers no short link (issue 26).
    expectError(await api.visit(domain, `/${a.shortCode}`), 421, 'MISDIRECTED_REQUEST');
    const preview = await api.visit('snip.test', `/${a.shortCode}+`);
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toContain(`http://snip.test/${a.shortCode}`);
    expect(preview.body).not.toContain(`http://${domain}/`);
  });

  it('deleting the default domain: new links go to the default host', async () => {
    const api = domainApi(t);
    const user = await t.createUser('pro');
    const domain = await api.active(user);
    await api.update(user, domain, { setDefault: true });
    expect((await api.linksA.create(user, { url: 'https://example.com/before' })).shortUrl).toMatch(new RegExp(`^http://${domain.replace(/\./g, '\\.')}/`));
    await api.remove(user, domain);
    const after = await api.linksA.create(user, { url: 'https://example.com/after' });
    expect(after.shortUrl).toBe(`http://snip.test/${after.shortCode}`);
    expect((await api.detailsA(user, after.shortCode)).domain).toBeNull();
    // Its links cannot name it any more.
    expectError(await api.linksA.post(user, { url: 'https://example.com/x', domain }), 404, 'DOMAIN_NOT_FOUND');
  });

  it('a deleted domain is free again: another account can take it, and the old links do not appear on it', async () => {
    const api = domainApi(t);
    const first = await t.createUser('pro');
    const second = await t.createUser('pro');
    const domain = fresh();
    const original = await api.add(first, domain);
    const firstToken = original.verificationToken;
    api.publish(original);
    await api.verify(first, domain);
    await api.activate(first, domain);
    const old = await api.linksA.create(first, { url: 'https://example.com/old-owner', domain });
    expect((await api.check(domain)).json()).toEqual({ hostname: domain, available: false });
    await api.remove(first, domain);
    expect((await api.check(domain)).json()).toEqual({ hostname: domain, available: true });
    // The new owner must prove ownership again: the old TXT record carries the old token.
    const again = await api.add(second, domain);
    expect(again.status).toBe('pending_txt');
    expect(again.verificationToken).not.toBe(firstToken);
    expect(await api.verify(second, domain)).toMatchObject({ verified: false, status: 'pending_txt' });
    api.publish(again);
    await api.verify(second, domain);
    await api.activate(second, domain);
    expect((await api.item(second, domain))?.linkCount).toBe(0);
    await api.update(second, domain, { notFoundPage: { type: 'redirect', redirectUrl: 'https://new-owner.com/' } });
    expectRedirect(await api.visit(domain, `/${old.shortCode}`), 'https://new-owner.com/');
    expectRedirect(await api.visit('snip.test', `/${old.shortCode}`), 'https://example.com/old-owner');
  });

  it("an unknown domain, or another account's, is 404 DOMAIN_NOT_FOUND and stays", async () => {
    const api = domainApi(t);
    expectError(await api.del(builder, fresh('unknown')), 404, 'DOMAIN_NOT_FOUND');
    const theirs = await api.active(rival);
    const link = await api.linksA.create(rival, { url: 'https://example.com/theirs', domain: theirs });
    expectError(await api.del(builder, theirs), 404, 'DOMAIN_NOT_FOUND');
    expect(await api.item(rival, theirs)).toMatchObject({ status: 'active', linkCount: 1 });
    expectRedirect(await api.visit(theirs, `/${link.shortCode}`), 'https://example.com/theirs');
  });
});

describe(`custom domains: the availability check (${dialectName})`, () => {
  const t = useTestApp(withDns());
  const pro = t.user('pro');

  it('a free name is available, and so is one only claimed pending (issue 16); verified, active and reserved ones are not', async () => {
    const api = domainApi(t);
    const free = fresh();
    expect((await api.check(free)).json()).toEqual({ hostname: free, available: true });
    const pending = (await api.add(pro, fresh())).domain;
    expect((await api.check(pending)).json()).toEqual({ hostname: pending, available: true });
    const verified = await api.verified(pro);
    const active = await api.active(pro);
    for (const hostname of [verified, active]) {
      const res = await api.check(hostname);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ hostname, available: false });
    }
    for (const hostname of ['snip.test', 'go.snip.test', 'localhost', 'foo.localhost', '127.0.0.1', 'printer.local', 'corp.internal', 'x.invalid', 'x.arpa']) {
      const res = await api.check(hostname);
      expect(res.statusCode, `${hostname}: ${res.body}`).toBe(200);
      expect(res.json<{ available: boolean }>().available, hostname).toBe(false);
    }
  });

  it('normalises the hostname it answers about: upper case and a trailing dot', async () => {
    const api = domainApi(t);
    const taken = await api.verified(await t.createUser('pro'));
    expect((await api.check(`${taken.toUpperCase()}.`)).json()).toEqual({ hostname: taken, available: false });
    expect((await api.check('SNIP.TEST.')).json()).toEqual({ hostname: 'snip.test', available: false });
  });

  it.each(['not a domain', 'a..b.com', '-x.com', 'x', `${'a'.repeat(64)}.com`])('%s is 400 INVALID_DOMAIN', async (hostname) => {
    expectError(await domainApi(t).check(hostname), 400, 'INVALID_DOMAIN');
  });
});

describe(`custom domains: isolation between accounts (${dialectName})`, () => {
  const t = useTestApp(withDns());
  const alice = t.user('pro');
  const bob = t.user('pro');

  it("each account lists only its own domains; another's cannot be verified, activated, changed or deleted", async () => {
    const api = domainApi(t);
    const aliceDomain = await api.add(alice, fresh('alice'));
    const bobDomain = await api.add(bob, fresh('bob'));
    expect(sortedDomains(await api.list(alice))).toEqual([aliceDomain.domain]);
    expect(sortedDomains(await api.list(bob))).toEqual([bobDomain.domain]);
    api.publish(aliceDomain);
    expectError(await api.verifyRes(bob, aliceDomain.domain), 404, 'DOMAIN_NOT_FOUND');
    expect(await api.status(alice, aliceDomain.domain)).toBe('pending_txt');
    expect((await api.verify(alice, aliceDomain.domain)).verified).toBe(true);
    expectError(await api.activateRes(bob, aliceDomain.domain), 404, 'DOMAIN_NOT_FOUND');
    expect(await api.status(alice, aliceDomain.domain)).toBe('verified');
    await api.activate(alice, aliceDomain.domain);
    expectError(await api.patch(bob, aliceDomain.domain, { setDefault: true }), 404, 'DOMAIN_NOT_FOUND');
    expectError(await api.del(bob, aliceDomain.domain), 404, 'DOMAIN_NOT_FOUND');
    expect(await api.item(alice, aliceDomain.domain)).toMatchObject({ status: 'active', isDefault: false });
    expect(sortedDomains(await api.list(bob))).toEqual([bobDomain.domain]);
  });
});

describe(`custom domains: the whole life of a domain (${dialectName})`, () => {
  const t = useTestApp(withDns());
  const pro = t.user('pro');

  it('add → verify (no record) → activate refused → publish → verify → activate → links and redirects → settings → delete', async () => {
    const api = domainApi(t);
    const domain = fresh('life');

    // Add.
    const added = await api.add(pro, domain.toUpperCase());
    expect(added).toMatchObject({ domain, status: 'pending_txt' });
    // A pending claim does not take the name (issue 16); verifying it does.
    expect((await api.check(domain)).json()).toEqual({ hostname: domain, available: true });

    // Verify before the record exists.
    const notYet = await api.verify(pro, domain);
    expect(notYet).toMatchObject({ verified: false, status: 'pending_txt' });
    expect(notYet.hint).toContain(added.txtRecord.name);
    expect(notYet.hint).toMatch(PROPAGATION);

    // Not verified: activation is refused, links cannot use it, and its host behaves like the default host.
    expectError(await api.activateRes(pro, domain), 400, 'DOMAIN_NOT_VERIFIED');
    expectError(await api.linksA.post(pro, { url: 'https://example.com/early', domain }), 400, 'DOMAIN_NOT_ACTIVE');
    expectError(await api.patch(pro, domain, { setDefault: true }), 400, 'DOMAIN_NOT_ACTIVE');
    expect(await api.item(pro, domain)).toMatchObject({ status: 'pending_txt', sslStatus: 'pending' });

    // Publish and verify.
    api.publish(added);
    expect(await api.verify(pro, domain)).toMatchObject({ verified: true, status: 'verified' });
    expect(await api.item(pro, domain)).toMatchObject({ status: 'verified', sslStatus: 'pending' });
    expectError(await api.linksB.post(pro, { url: 'https://example.com/early', domain }), 400, 'DOMAIN_NOT_ACTIVE');

    // Activate.
    expect(await api.activate(pro, domain)).toEqual({ success: true, domain, status: 'active', billing: { free: true } });
    expect(await api.item(pro, domain)).toMatchObject({ status: 'active', sslStatus: 'active', linkCount: 0 });

    // Use it.
    const a = await api.linksA.create(pro, { url: 'https://example.com/life-a', domain });
    const b = await api.linksB.create(pro, { url: 'https://example.com/life-b', domain });
    const plain = await api.linksA.create(pro, { url: 'https://example.com/life-plain' });
    expect(a.shortUrl).toBe(`http://${domain}/${a.shortCode}`);
    expect(b.url).toBe(`http://${domain}/${b.shortCode}`);
    expectRedirect(await api.visit(domain, `/${a.shortCode}`), 'https://example.com/life-a');
    expectRedirect(await api.visit(domain, `/${b.shortCode}`), 'https://example.com/life-b');
    expectStandard404(await api.visit(domain, `/${plain.shortCode}`));
    expect((await api.item(pro, domain))?.linkCount).toBe(2);

    // Settings.
    await api.update(pro, domain, { setDefault: true, notFoundPage: { type: 'redirect', redirectUrl: 'https://life.example.com/' } });
    const byDefault = await api.linksA.create(pro, { url: 'https://example.com/life-default' });
    expect(byDefault.shortUrl).toBe(`http://${domain}/${byDefault.shortCode}`);
    expectRedirect(await api.visit(domain, `/${plain.shortCode}`), 'https://life.example.com/');
    expect(await api.item(pro, domain)).toMatchObject({ isDefault: true, linkCount: 3 });

    // Delete.
    await api.remove(pro, domain);
    expect((await api.list(pro)).domains).toEqual([]);
    for (const link of [a, byDefault]) {
      expect(await api.detailsA(pro, link.shortCode)).toMatchObject({ domain: null, shortUrl: `http://snip.test/${link.shortCode}` });
    }
    expect(await api.detailsB(pro, b.shortCode)).toMatchObject({ domain: null, url: `http://snip.test/${b.shortCode}` });
    expectRedirect(await api.visit('snip.test', `/${a.shortCode}`), 'https://example.com/life-a');
    // The deleted domain answers no short link any more (issue 26: only active custom domains do).
    expectError(await api.visit(domain, `/${plain.shortCode}`), 421, 'MISDIRECTED_REQUEST');
    const next = await api.linksA.create(pro, { url: 'https://example.com/life-after' });
    expect(next.shortUrl).toBe(`http://snip.test/${next.shortCode}`);
    expect((await api.check(domain)).json()).toEqual({ hostname: domain, available: true });
  });
});

describe(`custom domains under another BASE_URL and CNAME_TARGET (${dialectName})`, () => {
  const t = useTestApp(withDns({ BASE_URL: 'https://s.snip-links.net', CNAME_TARGET: 'edge.snip-links.net' }));
  const pro = t.user('pro');

  it('the CNAME record points at CNAME_TARGET; links on a domain take the https scheme of BASE_URL', async () => {
    const api = domainApi(t);
    const added = await api.add(pro, fresh());
    expect(added.cnameRecord).toEqual({ name: added.domain, type: 'CNAME', value: 'edge.snip-links.net' });
    api.publish(added);
    await api.verify(pro, added.domain);
    await api.activate(pro, added.domain);
    const link = await api.linksA.create(pro, { url: 'https://example.com/https-domain', domain: added.domain });
    expect(link.shortUrl).toBe(`https://${added.domain}/${link.shortCode}`);
    expect(await api.qrText(link.shortCode)).toBe(`https://${added.domain}/${link.shortCode}`);
    const plain = await api.linksA.create(pro, { url: 'https://example.com/https-plain' });
    expect(plain.shortUrl).toBe(`https://s.snip-links.net/${plain.shortCode}`);
    expectRedirect(await api.visit(added.domain, `/${link.shortCode}`), 'https://example.com/https-domain');
    expectStandard404(await api.visit(added.domain, `/${plain.shortCode}`));
  });

  it.each(['s.snip-links.net', 'x.s.snip-links.net', 'edge.snip-links.net', 'EDGE.snip-links.net.'])('%s is 400 RESERVED_DOMAIN', async (domain) => {
    expectError(await domainApi(t).post(pro, { domain }), 400, 'RESERVED_DOMAIN');
  });

  it('the reserved hosts are not available', async () => {
    const api = domainApi(t);
    for (const hostname of ['s.snip-links.net', 'edge.snip-links.net']) {
      expect((await api.check(hostname)).json(), hostname).toEqual({ hostname, available: false });
    }
  });
});

describe(`custom domains: CNAME_TARGET defaults to BASE_URL's host (${dialectName})`, () => {
  const t = useTestApp(withDns({ BASE_URL: 'http://short.brand-host.org:8080' }));
  const pro = t.user('pro');

  it('the CNAME value is the host name of BASE_URL, without its port', async () => {
    const added = await domainApi(t).add(pro, fresh());
    expect(added.cnameRecord).toEqual({ name: added.domain, type: 'CNAME', value: 'short.brand-host.org' });
  });
});
