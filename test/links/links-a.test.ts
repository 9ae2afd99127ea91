import { beforeAll, describe, expect, it, vi } from 'vitest';
import { dialectName, useTestApp, type TestApp } from '../helpers/app.js';
import { expectError, type ErrorBody } from '../helpers/api-errors.js';
import {
  expectRefusedToCreate, linkApi, LINKS_A, REFUSED_CHANGES, REFUSED_NEW_LINKS, type CreatedLinkA, type LinkA, type LinkApi, type LinkPage,
} from '../helpers/links.js';

const DETAIL_KEYS = [
  'appLinks', 'blockedCountries', 'clicks', 'clientName', 'created', 'disabledReason', 'domain', 'expiredUrl', 'expiresAt', 'folderId', 'fullPath', 'id', 'importedClicks', 'importedFrom', 'isCustom', 'long', 'maxClicks', 'namespace',
  'passwordProtected', 'rules', 'shortCode', 'shortUrl', 'socialPreview', 'source', 'tags', 'title', 'variants',
];

/** Description A's link routes on one test app. */
const clientA = (t: TestApp): LinkApi<CreatedLinkA, LinkA> => linkApi(t, LINKS_A);

describe(`Description A links (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');
  const api = clientA(t);

  it('creates a link with a random 6-character code and answers the 2.3 shape', async () => {
    const res = await api.post(pro, { url: 'https://example.com/page?q=1' });
    expect(res.statusCode).toBe(201);
    const body = res.json<CreatedLinkA>();
    expect(body).toEqual({
      success: true,
      shortUrl: `http://snip.test/${body.shortCode}`,
      shortCode: expect.stringMatching(/^[A-Za-z0-9]{6}$/),
      fullPath: null,
      namespace: null,
      long: 'https://example.com/page?q=1',
      created: expect.any(String),
      expiresAt: null,
      maxClicks: null,
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
  });

  it('puts a custom slug under the account namespace, and both paths resolve to the link', async () => {
    const res = await api.post(pro, { url: 'https://example.com/custom', customSlug: 'Summer-Sale' });
    expect(res.statusCode).toBe(201);
    const body = res.json<CreatedLinkA>();
    expect(body.namespace).toBe(pro.namespace);
    expect(body.fullPath).toBe(`${pro.namespace}/Summer-Sale`);
    expect(body.shortUrl).toBe(`http://snip.test/${pro.namespace}/Summer-Sale`);

    const byPath = await api.get(pro, body.fullPath!);
    expect(byPath.statusCode).toBe(200);
    expect(byPath.json()).toMatchObject({ shortCode: body.shortCode, isCustom: true, fullPath: body.fullPath });
    const byCode = await api.get(pro, body.shortCode);
    expect(byCode.json<LinkA>().id).toBe(byPath.json<LinkA>().id);

    const again = await api.post(pro, { url: 'https://example.com/other', customSlug: 'Summer-Sale' });
    expectError(again, 409, 'SLUG_TAKEN');
  });

  it('stores expiresAt and maxClicks and returns them', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const res = await api.post(pro, { url: 'https://example.com/x', expiresAt, maxClicks: 3 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ expiresAt, maxClicks: 3 });
  });

  it.each(REFUSED_NEW_LINKS)('refuses %j with 400 %s and creates nothing', async (body, code) => {
    await expectRefusedToCreate(api, pro, () => api.post(pro, body), 400, code);
  });
});

describe(`Description A: listing links (${dialectName})`, () => {
  const t = useTestApp();
  const alice = t.user('pro');
  const bob = t.user('pro');
  /** Alice's 25 codes in creation order (oldest first); each was created one second after the previous. */
  const aliceCodes: string[] = [];
  const bobCodes: string[] = [];
  const api = clientA(t);

  beforeAll(async () => {
    for (let i = 0; i < 25; i++) {
      aliceCodes.push((await api.create(alice, { url: `https://example.com/alice/${i}` })).shortCode);
      t.clock.advance(1000);
    }
    for (let i = 0; i < 2; i++) {
      bobCodes.push((await api.create(bob, { url: `https://example.org/bob/${i}` })).shortCode);
      t.clock.advance(1000);
    }
  });

  const newestFirst = () => [...aliceCodes].reverse();

  it('defaults to 20 links, newest first, each in the 2.4 detail shape', async () => {
    const body = await api.page(alice);
    expect(Object.keys(body).sort()).toEqual(['links', 'pagination']);
    expect(body.pagination).toEqual({ limit: 20, offset: 0, hasMore: true, total: aliceCodes.length });
    expect(body.links.map((l) => l.shortCode)).toEqual(newestFirst().slice(0, 20));
    for (const link of body.links) expect(Object.keys(link).sort()).toEqual(DETAIL_KEYS);
    const newest = body.links[0]!;
    expect(newest).toEqual({
      id: expect.any(String),
      shortUrl: `http://snip.test/${newest.shortCode}`,
      shortCode: aliceCodes[24],
      fullPath: null,
      namespace: null,
      long: 'https://example.com/alice/24',
      clicks: 0,
      created: expect.any(String),
      expiresAt: null,
      maxClicks: null,
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
  });

  it('pages through the list with a correct hasMore at every boundary', async () => {
    const all = newestFirst();
    const cases: Array<[string, string[], boolean]> = [
      ['?limit=10&offset=0', all.slice(0, 10), true],
      ['?limit=10&offset=10', all.slice(10, 20), true],
      ['?limit=10&offset=20', all.slice(20, 25), false],
      ['?offset=20', all.slice(20, 25), false],
      ['?limit=25', all, false],
      ['?limit=24', all.slice(0, 24), true],
      ['?limit=24&offset=1', all.slice(1, 25), false],
      ['?limit=5&offset=20', all.slice(20, 25), false],
      ['?limit=5&offset=19', all.slice(19, 24), true],
      ['?limit=5&offset=25', [], false],
      ['?limit=5&offset=1000', [], false],
      ['?limit=1', all.slice(0, 1), true],
      ['?limit=100', all, false],
    ];
    for (const [query, codes, hasMore] of cases) {
      const body = await api.page(alice, query);
      const params = new URLSearchParams(query.slice(1));
      expect(body.pagination, query).toEqual({
        limit: Number(params.get('limit') ?? 20),
        offset: Number(params.get('offset') ?? 0),
        hasMore,
        total: all.length,
      });
      expect(body.links.map((l) => l.shortCode), query).toEqual(codes);
    }
  });

  it.each([
    ['limit=0', 'INVALID_LIMIT'],
    ['limit=101', 'INVALID_LIMIT'],
    ['limit=-5', 'INVALID_LIMIT'],
    ['limit=abc', 'INVALID_LIMIT'],
    ['limit=2.5', 'INVALID_LIMIT'],
    ['offset=-1', 'INVALID_OFFSET'],
    ['offset=abc', 'INVALID_OFFSET'],
    ['limit=10&offset=-1', 'INVALID_OFFSET'],
  ])('refuses ?%s with 400 %s', async (query, code) => {
    expectError(await api.list(alice, `?${query}`), 400, code);
  });

  it("lists only the caller's own links", async () => {
    const bobs = await api.page(bob, '?limit=100');
    expect(bobs.links.map((l) => l.shortCode)).toEqual([...bobCodes].reverse());
    expect(bobs.pagination).toEqual({ limit: 100, offset: 0, hasMore: false, total: bobCodes.length });
    expect(bobs.links.every((l) => l.long.startsWith('https://example.org/bob/'))).toBe(true);
    const alices = await api.page(alice, '?limit=100');
    expect(alices.links.some((l) => bobCodes.includes(l.shortCode))).toBe(false);

    const carol = await t.createUser('pro');
    expect(await api.page(carol)).toEqual({ links: [], pagination: { limit: 20, offset: 0, hasMore: false, total: 0 } });
  });

  it('orders links created within the same millisecond newest first too', async () => {
    const dave = await t.createUser('pro');
    const codes: string[] = [];
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date());
      for (let i = 0; i < 8; i++) codes.push((await api.create(dave, { url: `https://example.com/burst/${i}` })).shortCode);
    } finally {
      vi.useRealTimers();
    }
    const body = await api.page(dave);
    expect(body.links.map((l) => l.shortCode)).toEqual([...codes].reverse());
  });
});

describe(`Description A: link details (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('pro');
  const other = t.user('pro');
  const api = clientA(t);

  it('answers the exact 2.4 shape by code, for a plain link with expiry and click cap', async () => {
    const expiresAt = api.inFuture(86_400_000);
    const created = await api.create(owner, { url: 'https://example.com/details', expiresAt, maxClicks: 7 });
    const res = await api.get(owner, created.shortCode);
    expect(res.statusCode).toBe(200);
    const body = res.json<LinkA>();
    expect(body).toEqual({
      id: expect.any(String),
      shortUrl: `http://snip.test/${created.shortCode}`,
      shortCode: created.shortCode,
      fullPath: null,
      namespace: null,
      long: 'https://example.com/details',
      clicks: 0,
      created: created.created,
      expiresAt,
      maxClicks: 7,
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
    expect(body.id.length).toBeGreaterThan(0);
  });

  it('answers the same link by its code and by prefix%2Fslug, with the namespaced fields set', async () => {
    const created = await api.create(owner, { url: 'https://example.com/ns', customSlug: 'detail-slug' });
    const fullPath = `${owner.namespace}/detail-slug`;
    const res = await t.as(owner, { method: 'GET', url: `/api/v1/links/${owner.namespace}%2Fdetail-slug` });
    expect(res.statusCode).toBe(200);
    const expected = {
      id: expect.any(String),
      shortUrl: `http://snip.test/${fullPath}`,
      shortCode: created.shortCode,
      fullPath,
      namespace: owner.namespace,
      long: 'https://example.com/ns',
      clicks: 0,
      created: created.created,
      expiresAt: null,
      maxClicks: null,
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
    };
    expect(res.json()).toEqual(expected);
    const byCode = await api.get(owner, created.shortCode);
    expect(byCode.statusCode).toBe(200);
    expect(byCode.json()).toEqual({ ...expected, id: res.json<LinkA>().id });
  });

  it('counts redirects in clicks', async () => {
    const created = await api.create(owner, { url: 'https://example.com/clicked' });
    for (let i = 0; i < 3; i++) {
      const visit = await api.visit(created.shortCode);
      expect(visit.statusCode).toBe(302);
      expect(visit.headers.location).toBe('https://example.com/clicked');
    }
    expect((await api.get(owner, created.shortCode)).json<LinkA>().clicks).toBe(3);
  });

  it.each(['zzzzzz', 'AAAAAA', 'abc', 'nobody-here/nothing', 'a/b/c', '%'])('answers 404 NOT_FOUND for unknown %s', async (path) => {
    const res = await api.get(owner, path);
    expectError(res, 404, 'NOT_FOUND');
  });

  it("refuses another account's link with 403 ACCESS_DENIED and none of its data", async () => {
    const secret = await api.create(owner, { url: 'https://secret.example.com/private-destination', customSlug: 'private-one' });
    for (const path of [secret.shortCode, `${owner.namespace}/private-one`]) {
      const res = await api.get(other, path);
      expectError(res, 403, 'ACCESS_DENIED');
      expect(res.body).not.toContain('secret.example.com');
      expect(res.body).not.toContain('private-destination');
      expect(res.body).not.toContain(owner.email);
      if (path.includes('/')) expect(res.body).not.toContain(secret.shortCode);
    }
    expect((await api.get(owner, secret.shortCode)).statusCode).toBe(200);
  });
});

describe(`Description A: deleting links (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('pro');
  const other = t.user('pro');
  const api = clientA(t);

  it('deletes by code: 200 {success, message}, then details 404, the list omits it and the redirect stops', async () => {
    const keep = await api.create(owner, { url: 'https://example.com/keep' });
    const doomed = await api.create(owner, { url: 'https://example.com/doomed' });
    expect((await api.visit(doomed.shortCode)).statusCode).toBe(302); // warms the redirect cache

    const res = await api.del(owner, doomed.shortCode);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: expect.any(String) });

    const after = await api.get(owner, doomed.shortCode);
    expectError(after, 404, 'NOT_FOUND');
    const listed = (await api.listAll(owner)).map((l) => l.shortCode);
    expect(listed).toEqual([keep.shortCode]);
    expect((await api.visit(doomed.shortCode)).statusCode).toBe(404);
    expect((await api.visit(keep.shortCode)).statusCode).toBe(302);

    const again = await api.del(owner, doomed.shortCode);
    expectError(again, 404, 'NOT_FOUND');
  });

  it('deletes by prefix%2Fslug, which frees the slug and stops both paths redirecting', async () => {
    const link = await api.create(owner, { url: 'https://example.com/slugged', customSlug: 'gone-soon' });
    const fullPath = `${owner.namespace}/gone-soon`;
    expect((await api.visit(fullPath)).statusCode).toBe(302);
    const res = await t.as(owner, { method: 'DELETE', url: `/api/v1/links/${owner.namespace}%2Fgone-soon` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: expect.any(String) });
    expect((await api.get(owner, link.shortCode)).statusCode).toBe(404);
    expect((await api.visit(fullPath)).statusCode).toBe(404);
    expect((await api.visit(link.shortCode)).statusCode).toBe(404);

    const reused = await api.create(owner, { url: 'https://example.com/reused', customSlug: 'gone-soon' });
    expect(reused.fullPath).toBe(fullPath);
    expect((await api.visit(fullPath)).headers.location).toBe('https://example.com/reused');
  });

  it("refuses to delete another account's link with 403 and leaves it in place", async () => {
    const link = await api.create(owner, { url: 'https://example.com/not-yours', customSlug: 'not-yours' });
    for (const path of [link.shortCode, `${owner.namespace}/not-yours`]) {
      const res = await api.del(other, path);
      expectError(res, 403, 'ACCESS_DENIED');
      expect(res.body).not.toContain('example.com/not-yours');
    }
    const still = await api.get(owner, link.shortCode);
    expect(still.statusCode).toBe(200);
    expect(still.json<LinkA>().long).toBe('https://example.com/not-yours');
    expect((await api.visit(link.shortCode)).headers.location).toBe('https://example.com/not-yours');
  });

  it('answers 404 NOT_FOUND for an unknown link', async () => {
    const res = await api.del(owner, 'qqqqqq');
    expectError(res, 404, 'NOT_FOUND');
  });
});

describe(`Description A: updating links (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('pro');
  const other = t.user('pro');
  const api = clientA(t);

  it('changes the destination, answers the details and redirects to the new URL at once', async () => {
    const link = await api.create(owner, { url: 'https://example.com/old' });
    expect((await api.visit(link.shortCode)).headers.location).toBe('https://example.com/old');
    const res = await api.patch(owner, link.shortCode, { url: 'https://example.com/new' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: expect.any(String),
      shortUrl: `http://snip.test/${link.shortCode}`,
      shortCode: link.shortCode,
      fullPath: null,
      namespace: null,
      long: 'https://example.com/new',
      clicks: 1,
      created: link.created,
      expiresAt: null,
      maxClicks: null,
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
    expect((await api.get(owner, link.shortCode)).json<LinkA>().long).toBe('https://example.com/new');
    expect((await api.visit(link.shortCode)).headers.location).toBe('https://example.com/new');
  });

  it('sets and clears expiresAt and maxClicks; fields not sent stay as they were', async () => {
    const link = await api.create(owner, { url: 'https://example.com/limits' });
    const expiresAt = api.inFuture(3_600_000);
    const set = await api.patch(owner, link.shortCode, { expiresAt, maxClicks: 5 });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ expiresAt, maxClicks: 5, long: 'https://example.com/limits' });

    const onlyCap = await api.patch(owner, link.shortCode, { maxClicks: 9 });
    expect(onlyCap.json()).toMatchObject({ expiresAt, maxClicks: 9 });

    const cleared = await api.patch(owner, link.shortCode, { expiresAt: null, maxClicks: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ expiresAt: null, maxClicks: null, long: 'https://example.com/limits' });
    expect((await api.get(owner, link.shortCode)).json()).toMatchObject({ expiresAt: null, maxClicks: null });
  });

  it('an expiry set by PATCH is enforced, and clearing it makes the link redirect again', async () => {
    const link = await api.create(owner, { url: 'https://example.com/expiring' });
    expect((await api.visit(link.shortCode)).statusCode).toBe(302);
    expect((await api.patch(owner, link.shortCode, { expiresAt: api.inFuture(60_000) })).statusCode).toBe(200);
    t.clock.advance(61_000);
    expect((await api.visit(link.shortCode)).statusCode).toBe(410);
    expect((await api.patch(owner, link.shortCode, { expiresAt: null })).statusCode).toBe(200);
    expect((await api.visit(link.shortCode)).statusCode).toBe(302);
  });

  it('raising maxClicks on a used-up link makes it redirect again; null removes the cap', async () => {
    const link = await api.create(owner, { url: 'https://example.com/capped', maxClicks: 1 });
    expect((await api.visit(link.shortCode)).statusCode).toBe(302);
    expect((await api.visit(link.shortCode)).statusCode).toBe(410);
    const raised = await api.patch(owner, link.shortCode, { maxClicks: 2 });
    expect(raised.json()).toMatchObject({ maxClicks: 2, clicks: 1 });
    expect((await api.visit(link.shortCode)).statusCode).toBe(302);
    expect((await api.visit(link.shortCode)).statusCode).toBe(410);
    expect((await api.patch(owner, link.shortCode, { maxClicks: null })).statusCode).toBe(200);
    expect((await api.visit(link.shortCode)).statusCode).toBe(302);
  });

  it('sets activeFrom (the link waits) and null clears it (the link redirects)', async () => {
    const link = await api.create(owner, { url: 'https://example.com/scheduled' });
    const res = await api.patch(owner, link.shortCode, { activeFrom: api.inFuture(3_600_000) });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(DETAIL_KEYS);
    expect((await api.visit(link.shortCode)).statusCode).toBe(404);
    expect((await api.patch(owner, link.shortCode, { activeFrom: null })).statusCode).toBe(200);
    const visit = await api.visit(link.shortCode);
    expect(visit.statusCode).toBe(302);
    expect(visit.headers.location).toBe('https://example.com/scheduled');
  });

  it('updates a namespaced link by prefix%2Fslug', async () => {
    const link = await api.create(owner, { url: 'https://example.com/ns-old', customSlug: 'patch-me' });
    const res = await t.as(owner, {
      method: 'PATCH',
      url: `/api/v1/links/${owner.namespace}%2Fpatch-me`,
      payload: { url: 'https://example.com/ns-new' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ shortCode: link.shortCode, fullPath: `${owner.namespace}/patch-me`, long: 'https://example.com/ns-new', isCustom: true });
    expect((await api.visit(`${owner.namespace}/patch-me`)).headers.location).toBe('https://example.com/ns-new');
  });

  it.each(REFUSED_CHANGES)('refuses PATCH %j with 400 %s and changes nothing', async (body, code) => {
    const link = await api.create(owner, { url: 'https://example.com/stable', maxClicks: 4 });
    const before = (await api.get(owner, link.shortCode)).json<LinkA>();
    const res = await api.patch(owner, link.shortCode, body);
    expectError(res, 400, code);
    expect((await api.get(owner, link.shortCode)).json()).toEqual(before);
  });

  it("refuses an expiry before the link's stored activeFrom", async () => {
    const link = await api.create(owner, { url: 'https://example.com/sched', activeFrom: '2099-06-01T00:00:00.000Z' });
    const res = await api.patch(owner, link.shortCode, { expiresAt: '2099-05-01T00:00:00.000Z' });
    expectError(res, 400, 'EXPIRES_BEFORE_ACTIVE');
    expect((await api.get(owner, link.shortCode)).json<LinkA>().expiresAt).toBeNull();
  });

  it("refuses to update another account's link with 403 and leaves it unchanged", async () => {
    const link = await api.create(owner, { url: 'https://example.com/mine' });
    const res = await api.patch(other, link.shortCode, { url: 'https://evil.example.net/', maxClicks: 1 });
    expectError(res, 403, 'ACCESS_DENIED');
    expect(res.body).not.toContain('example.com/mine');
    expect((await api.get(owner, link.shortCode)).json()).toMatchObject({ long: 'https://example.com/mine', maxClicks: null });
    expect((await api.visit(link.shortCode)).headers.location).toBe('https://example.com/mine');
  });

  it('answers 404 NOT_FOUND for an unknown link', async () => {
    const res = await api.patch(owner, 'yyyyyy', { maxClicks: 3 });
    expectError(res, 404, 'NOT_FOUND');
  });
});

describe(`Description A: keys and tiers (${dialectName})`, () => {
  const t = useTestApp();
  const api = clientA(t);

  const routes = (code: string) =>
    [
      { method: 'GET', url: '/api/v1/links' },
      { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/' } },
      { method: 'GET', url: `/api/v1/links/${code}` },
      { method: 'PATCH', url: `/api/v1/links/${code}`, payload: { maxClicks: 2 } },
      { method: 'DELETE', url: `/api/v1/links/${code}` },
    ] as const;

  it('answers 401 API_KEY_REQUIRED without a key, on every route', async () => {
    const owner = await t.createUser('pro');
    const link = await api.create(owner, { url: 'https://example.com/auth' });
    for (const route of routes(link.shortCode)) {
      const res = await t.as(null, { ...route });
      expectError(res, 401, 'API_KEY_REQUIRED', `${route.method} ${route.url}`);
    }
    const empty = await t.app.inject({ method: 'GET', url: '/api/v1/links', headers: { authorization: 'Bearer ' } });
    expect(empty.statusCode).toBe(401);
    expect(empty.json<ErrorBody>().code).toMatch(/^(API_KEY_REQUIRED|INVALID_API_KEY)$/);
    expect((await api.get(owner, link.shortCode)).json<LinkA>().maxClicks).toBeNull();
  });

  it.each(['garbage', 'snip_short', `snip_${'A'.repeat(40)}`, 'sk_live_0123456789abcdef0123456789abcdef'])(
    'answers 401 INVALID_API_KEY for the unknown key %s',
    async (key) => {
      for (const route of routes('abcdef')) {
        const res = await t.as(key, { ...route });
        expectError(res, 401, 'INVALID_API_KEY');
      }
    },
  );

  it('answers 401 INVALID_API_KEY for a revoked key while the account\'s other key keeps working', async () => {
    const user = await t.createUser('pro');
    const second = await t.core.accounts.createKey(user.id);
    expect((await api.list(user)).statusCode).toBe(200);
    await t.core.accounts.revokeKeyAsOperator(user.apiKey);
    const res = await api.list(user);
    expectError(res, 401, 'INVALID_API_KEY');
    const create = await api.post(user, { url: 'https://example.com/revoked' });
    expectError(create, 401, 'INVALID_API_KEY');
    const other = await api.list(second.apiKey);
    expect(other.statusCode).toBe(200);
    expect(other.json<LinkPage<LinkA>>().links).toEqual([]);
  });

  it('refuses a free account with 403 TIER_REQUIRED and creates nothing', async () => {
    const free = await t.createUser('free');
    for (const route of routes('abcdef')) {
      const res = await t.as(free, { ...route });
      expectError(res, 403, 'TIER_REQUIRED', `${route.method} ${route.url}`);
    }
    await t.core.accounts.setTier(free.email, 'pro');
    expect((await api.page(free)).links).toEqual([]);
  });

  it('applies a tier change on the very next request, both ways', async () => {
    const user = await t.createUser('pro');
    const link = await api.create(user, { url: 'https://example.com/tiers' });
    await t.core.accounts.setTier(user.email, 'free');
    const down = await api.get(user, link.shortCode);
    expectError(down, 403, 'TIER_REQUIRED');
    await t.core.accounts.setTier(user.email, 'pro');
    const up = await api.get(user, link.shortCode);
    expect(up.statusCode).toBe(200);
    expect(up.json<LinkA>().long).toBe('https://example.com/tiers');
  });

  it.each(['builder', 'enterprise'])('lets a %s account use the API and custom slugs', async (tier) => {
    const user = await t.createUser(tier);
    const res = await api.post(user, { url: 'https://example.com/t', customSlug: 'tiered' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ fullPath: `${user.namespace}/tiered`, namespace: user.namespace });
    expect((await api.page(user)).links).toHaveLength(1);
    expect((await api.visit(`${user.namespace}/tiered`)).headers.location).toBe('https://example.com/t');
  });

  it('keeps custom slugs per namespace: two accounts may share one, the same account may not', async () => {
    const one = await t.createUser('pro');
    const two = await t.createUser('builder');
    const a = await api.create(one, { url: 'https://one.example.com/', customSlug: 'promo' });
    const b = await api.create(two, { url: 'https://two.example.com/', customSlug: 'promo' });
    expect(a.fullPath).toBe(`${one.namespace}/promo`);
    expect(b.fullPath).toBe(`${two.namespace}/promo`);
    expect(a.fullPath).not.toBe(b.fullPath);
    expect((await api.visit(`${one.namespace}/promo`)).headers.location).toBe('https://one.example.com/');
    expect((await api.visit(`${two.namespace}/promo`)).headers.location).toBe('https://two.example.com/');

    const again = await api.post(one, { url: 'https://x.example.com/', customSlug: 'promo' });
    expectError(again, 409, 'SLUG_TAKEN');
    expect((await api.page(one)).links).toHaveLength(1);
    expect((await api.visit(`${one.namespace}/promo`)).headers.location).toBe('https://one.example.com/');
  });
});

describe(`Description A: request bodies (${dialectName})`, () => {
  const t = useTestApp();
  const user = t.user('pro');
  const api = clientA(t);

  const count = async () => (await api.listAll(user)).length;

  it.each(['{"url": "https://example.com/"', '{url: 1}', 'not json', '{"url": "https://example.com/"}}'])(
    'answers 400 INVALID_JSON for the malformed body %s',
    async (payload) => {
      const res = await t.as(user, { method: 'POST', url: '/api/v1/links', headers: { 'content-type': 'application/json' }, payload });
      expectError(res, 400, 'INVALID_JSON');
      expect(await count()).toBe(0);
    },
  );

  it('answers 400 INVALID_JSON for a malformed PATCH body', async () => {
    const link = await api.create(user, { url: 'https://example.com/json' });
    const res = await t.as(user, {
      method: 'PATCH',
      url: `/api/v1/links/${link.shortCode}`,
      headers: { 'content-type': 'application/json' },
      payload: '{"maxClicks": ',
    });
    expectError(res, 400, 'INVALID_JSON');
    await api.del(user, link.shortCode);
  });

  it.each([
    ['application/x-www-form-urlencoded', 'url=https%3A%2F%2Fexample.com%2F'],
    ['text/plain', '{"url":"https://example.com/"}'],
    ['application/xml', '<url>https://example.com/</url>'],
  ])('answers 415 for a %s body and creates nothing', async (type, payload) => {
    const res = await t.as(user, { method: 'POST', url: '/api/v1/links', headers: { 'content-type': type }, payload });
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(await count()).toBe(0);
  });

  it('accepts application/json with a charset parameter', async () => {
    const res = await t.as(user, {
      method: 'POST',
      url: '/api/v1/links',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload: '{"url":"https://example.com/charset"}',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ long: 'https://example.com/charset' });
    await api.del(user, res.json<CreatedLinkA>().shortCode);
  });
});
