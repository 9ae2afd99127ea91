import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { dialectName, useTestApp, type TestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api-errors.js';
import {
  expectRefusedToCreate, linkApi, LINKS_B, REFUSED_CHANGES, REFUSED_NEW_LINKS, type Caller, type LinkApi, type LinkB, type RefusedBody,
} from '../helpers/links.js';

interface CreateShortResult {
  shortUrl: string;
  url: string;
}

const LINK_B_KEYS = [
  'activeFrom', 'appLinks', 'blockedCountries', 'clicks', 'clientName', 'created', 'disabledReason', 'domain', 'expiredUrl', 'expiresAt', 'folderId', 'fullPath', 'id', 'importedClicks', 'importedFrom', 'isCustom', 'long', 'maxClicks',
  'namespace', 'passwordProtected', 'rules', 'shortCode', 'shortUrl', 'socialPreview', 'source', 'tags', 'title', 'updated', 'url', 'variants',
];

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** Description B's link routes on one test app, plus POST /api/createShort. */
function clientB(t: TestApp): LinkApi<LinkB, LinkB> & { createShort(user: Caller, body: object): Promise<LightMyRequestResponse> } {
  const createShort = (user: Caller, body: object) => t.as(user, { method: 'POST', url: '/api/createShort', payload: body });
  return { ...linkApi<LinkB, LinkB>(t, LINKS_B), createShort };
}

describe(`Description B: POST /api/createShort (${dialectName})`, () => {
  const t = useTestApp();
  const user = t.user('pro');
  const api = clientB(t);

  it('answers 201 with exactly {shortUrl: <6-character code>, url: <full short URL>}', async () => {
    const res = await api.createShort(user, { long: b64('https://example.com/b/page?x=1') });
    expect(res.statusCode).toBe(201);
    const body = res.json<CreateShortResult>();
    expect(Object.keys(body).sort()).toEqual(['shortUrl', 'url']);
    expect(body.shortUrl).toMatch(/^[A-Za-z0-9]{6}$/);
    expect(body.url).toBe(`http://snip.test/${body.shortUrl}`);
  });

  it('creates a real link: it is listed, readable and redirects', async () => {
    const destination = 'https://example.com/created/by/createShort';
    const res = await api.createShort(user, { long: b64(destination) });
    expect(res.statusCode).toBe(201);
    const { shortUrl: code, url } = res.json<CreateShortResult>();

    const listed = (await api.listAll(user)).find((l) => l.shortCode === code);
    expect(listed).toMatchObject({ shortUrl: code, url, long: destination, isCustom: false, fullPath: null });

    const one = await api.get(user, code);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ shortCode: code, long: destination });
    const a = await t.as(user, { method: 'GET', url: `/api/v1/links/${code}` });
    expect(a.json()).toMatchObject({ shortCode: code, long: destination, shortUrl: url });

    const visit = await api.visit(code);
    expect(visit.statusCode).toBe(302);
    expect(visit.headers.location).toBe(destination);
  });

  it('accepts URL-safe Base64 without padding as well as standard Base64 with padding', async () => {
    const destination = 'https://example.com/?q=>>>'; // '>' and '?' give '+', '/' (standard) and '-', '_' (URL-safe)
    const standard = b64(destination);
    const urlSafe = b64url(destination);
    expect(standard).toMatch(/[+/]/);
    expect(standard.endsWith('=')).toBe(true);
    expect(urlSafe).toMatch(/[-_]/);
    expect(urlSafe).not.toContain('=');

    const expected = new URL(destination).href;
    for (const long of [standard, urlSafe]) {
      const res = await api.createShort(user, { long });
      expect(res.statusCode, long).toBe(201);
      const { shortUrl } = res.json<CreateShortResult>();
      expect((await api.visit(shortUrl)).headers.location).toBe(expected);
    }
  });

  it.each([
    [{}, 'MISSING_URL'],
    [{ long: '' }, 'MISSING_URL'],
    [{ url: 'https://example.com/' }, 'MISSING_URL'],
    [{ long: 'not base64 at all!' }, 'INVALID_BASE64'],
    [{ long: 'https://example.com/plain' }, 'INVALID_BASE64'],
    [{ long: '%%%%' }, 'INVALID_BASE64'],
    [{ long: b64('javascript:alert(1)') }, 'INVALID_URL'],
    [{ long: b64('hello') }, 'INVALID_URL'],
    [{ long: b64('data:text/html,<b>hi</b>') }, 'INVALID_URL'],
    [{ long: b64('file:///etc/passwd') }, 'INVALID_URL'],
    [{ long: b64('ftp://example.com/file') }, 'INVALID_URL'],
    [{ long: b64('http://snip.test/abcdef') }, 'INVALID_URL'],
  ])('refuses %j with 400 %s and creates nothing', async (body, code) => {
    await expectRefusedToCreate(api, user, () => api.createShort(user, body), 400, code);
  });

  it('needs a valid key on a Pro-or-higher account', async () => {
    const body = { long: b64('https://example.com/auth') };
    const none = await api.createShort(null, body);
    expectError(none, 401, 'API_KEY_REQUIRED');
    const bad = await api.createShort('snip_notarealkeynotarealkeynotarealkey', body);
    expectError(bad, 401, 'INVALID_API_KEY');
    const free = await t.createUser('free');
    const refused = await api.createShort(free, body);
    expectError(refused, 403, 'TIER_REQUIRED');
    await t.core.accounts.setTier(free.email, 'pro');
    expect(await api.listAll(free)).toEqual([]);
  });

  it('answers 400 INVALID_JSON for a malformed body', async () => {
    const res = await t.as(user, {
      method: 'POST',
      url: '/api/createShort',
      headers: { 'content-type': 'application/json' },
      payload: '{"long": "aHR0cHM6Ly9leGFtcGxlLmNvbQ=="',
    });
    expectError(res, 400, 'INVALID_JSON');
  });
});

describe(`Description B: POST /api/links (${dialectName})`, () => {
  const t = useTestApp();
  const user = t.user('pro');
  const api = clientB(t);

  it('creates from a plain url and answers 201 with the B link shape', async () => {
    const res = await api.post(user, { url: 'https://example.com/b-plain' });
    expect(res.statusCode).toBe(201);
    const body = res.json<LinkB>();
    expect(Object.keys(body).sort()).toEqual(LINK_B_KEYS);
    expect(body).toEqual({
      id: expect.any(String),
      shortUrl: body.shortCode,
      url: `http://snip.test/${body.shortCode}`,
      shortCode: expect.stringMatching(/^[A-Za-z0-9]{6}$/),
      fullPath: null,
      namespace: null,
      long: 'https://example.com/b-plain',
      clicks: 0,
      created: expect.any(String),
      updated: body.created,
      expiresAt: null,
      maxClicks: null,
      activeFrom: null,
      isCustom: false,
      blockedCountries: [],
      folderId: null,
      domain: null,
      tags: [],
      source: 'api',
      clientName: null,
      appLinks: null,
      rules: null,
      variants: null,
      passwordProtected: false,
      expiredUrl: null,
      socialPreview: null,
      disabledReason: null,
      title: null,
      importedFrom: null,
      importedClicks: 0,
    });
    expect(Number.isNaN(Date.parse(body.created))).toBe(false);
    expect((await api.visit(body.shortCode)).headers.location).toBe('https://example.com/b-plain');
  });

  it('creates from a Base64 long', async () => {
    const body = await api.create(user, { long: b64('https://example.com/b-long') });
    expect(body.long).toBe('https://example.com/b-long');
    expect((await api.visit(body.shortCode)).headers.location).toBe('https://example.com/b-long');
  });

  it('creates with customSlug, expiresAt, maxClicks and activeFrom, and echoes them all', async () => {
    const activeFrom = api.inFuture(3_600_000);
    const expiresAt = api.inFuture(7_200_000);
    const res = await api.post(user, { url: 'https://example.com/b-full', customSlug: 'b-launch', expiresAt, maxClicks: 10, activeFrom });
    expect(res.statusCode).toBe(201);
    const body = res.json<LinkB>();
    const fullPath = `${user.namespace}/b-launch`;
    expect(body).toEqual({
      id: expect.any(String),
      shortUrl: fullPath,
      url: `http://snip.test/${fullPath}`,
      shortCode: expect.stringMatching(/^[A-Za-z0-9]{6}$/),
      fullPath,
      namespace: user.namespace,
      long: 'https://example.com/b-full',
      clicks: 0,
      created: expect.any(String),
      updated: body.created,
      expiresAt,
      maxClicks: 10,
      activeFrom,
      isCustom: true,
      blockedCountries: [],
      folderId: null,
      domain: null,
      tags: [],
      source: 'api',
      clientName: null,
      appLinks: null,
      rules: null,
      variants: null,
      passwordProtected: false,
      expiredUrl: null,
      socialPreview: null,
      disabledReason: null,
      title: null,
      importedFrom: null,
      importedClicks: 0,
    });
    // Not active yet: neither path redirects until activeFrom.
    expect((await api.visit(fullPath)).statusCode).toBe(404);
    t.clock.advance(3_600_000);
    expect((await api.visit(fullPath)).headers.location).toBe('https://example.com/b-full');
    expect((await api.visit(body.shortCode)).headers.location).toBe('https://example.com/b-full');
  });

  it.each<RefusedBody>([
    ...REFUSED_NEW_LINKS,
    [{ long: '' }, 'MISSING_URL'],
    [{ long: 'not base64!' }, 'INVALID_BASE64'],
    [{ long: b64('hello') }, 'INVALID_URL'],
    [{ long: b64('javascript:alert(1)') }, 'INVALID_URL'],
  ])('refuses %j with 400 %s and creates nothing', async (body, code) => {
    await expectRefusedToCreate(api, user, () => api.post(user, body), 400, code);
  });

  it('answers 409 SLUG_TAKEN for a slug already used in the namespace', async () => {
    await api.create(user, { url: 'https://example.com/first', customSlug: 'b-dup' });
    const second = { url: 'https://example.com/second', customSlug: 'b-dup' };
    await expectRefusedToCreate(api, user, () => api.post(user, second), 409, 'SLUG_TAKEN');
    expect((await api.visit(`${user.namespace}/b-dup`)).headers.location).toBe('https://example.com/first');
  });

  it('needs a key on a Pro-or-higher account', async () => {
    const none = await api.post(null, { url: 'https://example.com/' });
    expectError(none, 401, 'API_KEY_REQUIRED');
    const free = await t.createUser('free');
    const refused = await api.post(free, { url: 'https://example.com/' });
    expectError(refused, 403, 'TIER_REQUIRED');
  });
});

describe(`Description B: GET /api/links (${dialectName})`, () => {
  const t = useTestApp();
  const user = t.user('pro');
  const other = t.user('pro');
  const codes: string[] = []; // creation order, one second apart
  const api = clientB(t);

  beforeAll(async () => {
    for (let i = 0; i < 23; i++) {
      codes.push((await api.create(user, { url: `https://example.com/b-list/${i}` })).shortCode);
      t.clock.advance(1000);
    }
    await api.create(other, { url: 'https://other.example.com/' });
  });

  it('defaults to 20 links newest first, in the B shape', async () => {
    const body = await api.page(user);
    expect(Object.keys(body).sort()).toEqual(['links', 'pagination']);
    expect(body.pagination).toEqual({ limit: 20, offset: 0, hasMore: true, total: codes.length });
    expect(body.links.map((l) => l.shortCode)).toEqual([...codes].reverse().slice(0, 20));
    for (const link of body.links) {
      expect(Object.keys(link).sort()).toEqual(LINK_B_KEYS);
      expect(link.shortUrl).toBe(link.shortCode);
      expect(link.url).toBe(`http://snip.test/${link.shortCode}`);
    }
  });

  it('pages with a correct hasMore at the boundaries', async () => {
    const all = [...codes].reverse();
    const cases: Array<[string, string[], { limit: number; offset: number; hasMore: boolean }]> = [
      ['?offset=20', all.slice(20), { limit: 20, offset: 20, hasMore: false }],
      ['?limit=23', all, { limit: 23, offset: 0, hasMore: false }],
      ['?limit=22', all.slice(0, 22), { limit: 22, offset: 0, hasMore: true }],
      ['?limit=22&offset=1', all.slice(1), { limit: 22, offset: 1, hasMore: false }],
      ['?limit=10&offset=10', all.slice(10, 20), { limit: 10, offset: 10, hasMore: true }],
      ['?limit=1&offset=22', all.slice(22), { limit: 1, offset: 22, hasMore: false }],
      ['?limit=100&offset=23', [], { limit: 100, offset: 23, hasMore: false }],
    ];
    for (const [query, expected, pagination] of cases) {
      const body = await api.page(user, query);
      expect(body.pagination, query).toEqual({ ...pagination, total: all.length });
      expect(body.links.map((l) => l.shortCode), query).toEqual(expected);
    }
  });

  it.each([
    ['limit=0', 'INVALID_LIMIT'],
    ['limit=101', 'INVALID_LIMIT'],
    ['limit=x', 'INVALID_LIMIT'],
    ['offset=-1', 'INVALID_OFFSET'],
  ])('refuses ?%s with 400 %s', async (query, code) => {
    const res = await api.list(user, `?${query}`);
    expectError(res, 400, code);
  });

  it("lists only the caller's own links", async () => {
    const theirs = await api.listAll(other);
    expect(theirs).toHaveLength(1);
    expect(theirs[0]!.long).toBe('https://other.example.com/');
    expect((await api.listAll(user)).some((l) => l.long.includes('other.example.com'))).toBe(false);
  });

  it('needs a key', async () => {
    const res = await api.list(null);
    expectError(res, 401, 'API_KEY_REQUIRED');
  });
});

describe(`Description B: one link, update and delete (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('pro');
  const other = t.user('pro');
  const api = clientB(t);

  it('GET answers the link as created, by code and by prefix%2Fslug, and agrees with Description A', async () => {
    const created = await api.create(owner, { url: 'https://example.com/b-one', customSlug: 'b-one', maxClicks: 3 });
    const byCode = await api.get(owner, created.shortCode);
    expect(byCode.statusCode).toBe(200);
    expect(byCode.json()).toEqual(created);
    const byPath = await t.as(owner, { method: 'GET', url: `/api/links/${owner.namespace}%2Fb-one` });
    expect(byPath.statusCode).toBe(200);
    expect(byPath.json()).toEqual(created);

    const a = (await t.as(owner, { method: 'GET', url: `/api/v1/links/${created.shortCode}` })).json<Record<string, unknown>>();
    const { url, activeFrom: _activeFrom, updated: _updated, ...rest } = created;
    expect(a).toEqual({ ...rest, shortUrl: url });
  });

  it('GET answers 404 NOT_FOUND for unknown links and 403 ACCESS_DENIED for another account\'s', async () => {
    for (const path of ['zzzzzz', 'nobody-here/none', 'abc']) {
      const res = await api.get(owner, path);
      expectError(res, 404, 'NOT_FOUND', path);
    }
    const secret = await api.create(owner, { url: 'https://secret.example.com/b-hidden', customSlug: 'b-hidden' });
    for (const path of [secret.shortCode, `${owner.namespace}/b-hidden`]) {
      const res = await api.get(other, path);
      expectError(res, 403, 'ACCESS_DENIED');
      expect(res.body).not.toContain('secret.example.com');
    }
  });

  it('PATCH changes destination (url or Base64 long), expiry, click cap and activation, and bumps updated', async () => {
    const created = await api.create(owner, { url: 'https://example.com/b-before' });
    t.clock.advance(5_000);
    const expiresAt = api.inFuture(86_400_000);
    const activeFrom = api.inFuture(60_000);
    const res = await api.patch(owner, created.shortCode, { url: 'https://example.com/b-after', expiresAt, maxClicks: 4, activeFrom });
    expect(res.statusCode).toBe(200);
    const body = res.json<LinkB>();
    expect(body).toEqual({
      ...created,
      long: 'https://example.com/b-after',
      expiresAt,
      maxClicks: 4,
      activeFrom,
      updated: expect.any(String),
    });
    expect(Date.parse(body.updated)).toBeGreaterThan(Date.parse(created.updated));
    expect((await api.get(owner, created.shortCode)).json()).toEqual(body);
    expect((await api.visit(created.shortCode)).statusCode).toBe(404); // scheduled

    const viaLong = await api.patch(owner, created.shortCode, { long: b64url('https://example.com/b-long-after'), activeFrom: null });
    expect(viaLong.statusCode).toBe(200);
    expect(viaLong.json()).toMatchObject({ long: 'https://example.com/b-long-after', activeFrom: null, expiresAt, maxClicks: 4 });
    expect((await api.visit(created.shortCode)).headers.location).toBe('https://example.com/b-long-after');

    const cleared = await api.patch(owner, created.shortCode, { expiresAt: null, maxClicks: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ expiresAt: null, maxClicks: null, activeFrom: null, long: 'https://example.com/b-long-after' });
  });

  it.each<RefusedBody>([
    ...REFUSED_CHANGES,
    [{ long: 'not base64!' }, 'INVALID_BASE64'],
    [{ long: b64('hello') }, 'INVALID_URL'],
  ])('PATCH refuses %j with 400 %s and changes nothing', async (body, code) => {
    const link = await api.create(owner, { url: 'https://example.com/b-stable' });
    const res = await api.patch(owner, link.shortCode, body);
    expectError(res, 400, code);
    expect((await api.get(owner, link.shortCode)).json()).toEqual(link);
  });

  it("PATCH refuses another account's link with 403 and 404s an unknown one", async () => {
    const link = await api.create(owner, { url: 'https://example.com/b-mine' });
    const res = await api.patch(other, link.shortCode, { url: 'https://evil.example.net/' });
    expectError(res, 403, 'ACCESS_DENIED');
    expect((await api.get(owner, link.shortCode)).json()).toEqual(link);
    expect((await api.visit(link.shortCode)).headers.location).toBe('https://example.com/b-mine');

    const unknown = await api.patch(owner, 'xxxxxx', { maxClicks: 2 });
    expectError(unknown, 404, 'NOT_FOUND');
  });

  it('DELETE answers 200 {success, message}; the link is gone from GET, the list and the redirect', async () => {
    const link = await api.create(owner, { url: 'https://example.com/b-delete', customSlug: 'b-delete' });
    expect((await api.visit(`${owner.namespace}/b-delete`)).statusCode).toBe(302);
    const res = await api.del(owner, link.shortCode);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: expect.any(String) });
    const gone = await api.get(owner, link.shortCode);
    expectError(gone, 404, 'NOT_FOUND');
    expect((await api.listAll(owner)).some((l) => l.id === link.id)).toBe(false);
    expect((await api.visit(link.shortCode)).statusCode).toBe(404);
    expect((await api.visit(`${owner.namespace}/b-delete`)).statusCode).toBe(404);
    const again = await api.del(owner, link.shortCode);
    expectError(again, 404, 'NOT_FOUND');
  });

  it("DELETE refuses another account's link with 403 and the link stays", async () => {
    const link = await api.create(owner, { url: 'https://example.com/b-keep' });
    const res = await api.del(other, link.shortCode);
    expectError(res, 403, 'ACCESS_DENIED');
    expect(res.body).not.toContain('example.com/b-keep');
    expect((await api.get(owner, link.shortCode)).json()).toEqual(link);
    expect((await api.visit(link.shortCode)).headers.location).toBe('https://example.com/b-keep');
  });

  it('every route of the group needs a key', async () => {
    const link = await api.create(owner, { url: 'https://example.com/b-auth' });
    const routes = [
      { method: 'GET', url: `/api/links/${link.shortCode}` },
      { method: 'PATCH', url: `/api/links/${link.shortCode}`, payload: { maxClicks: 1 } },
      { method: 'DELETE', url: `/api/links/${link.shortCode}` },
    ] as const;
    for (const route of routes) {
      const res = await t.as(null, { ...route });
      expectError(res, 401, 'API_KEY_REQUIRED');
      const bad = await t.as('garbage', { ...route });
      expectError(bad, 401, 'INVALID_API_KEY');
    }
    expect((await api.get(owner, link.shortCode)).json()).toEqual(link);
  });
});
