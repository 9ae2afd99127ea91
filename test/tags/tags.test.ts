import { describe, expect, it } from 'vitest';
import { expectError } from '../helpers/api-errors.js';
import { dialectName, useTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { linkApi, LINKS_A, LINKS_B, type Caller, type CreatedLinkA, type LinkA, type LinkB } from '../helpers/links.js';

/**
 * Tags (spec 4.3's add_link_tag / remove_link_tag, over REST): A's /api/v1/links/{shortPath}/tags and /api/v1/tags,
 * B's /api/links/{shortPath}/tags and /api/tags; tags in link details and the `?tag=` filter of the link lists.
 */

interface TagCount {
  tag: string;
  linkCount: number;
}

const SURFACES = [
  { surface: 'A', links: LINKS_A, tags: '/api/v1/tags' },
  { surface: 'B', links: LINKS_B, tags: '/api/tags' },
] as const;

type Surface = (typeof SURFACES)[number];

/** Requests on one description's tag routes. */
function tagApi(t: TestApp, s: Surface) {
  const tagsOf = (shortPath: string) => `${s.links}/${encodeURIComponent(shortPath)}/tags`;
  const api = {
    addRes: (user: Caller, shortPath: string, body: object) => t.as(user, { method: 'POST', url: tagsOf(shortPath), payload: body }),
    /** Adds a tag, asserting 200, and answers the link's tags. */
    async add(user: TestUser, shortPath: string, tag: string): Promise<string[]> {
      const res = await api.addRes(user, shortPath, { tag });
      expect(res.statusCode, res.body).toBe(200);
      expect(Object.keys(res.json())).toEqual(['tags']);
      return res.json<{ tags: string[] }>().tags;
    },
    removeRes: (user: Caller, shortPath: string, tag: string) => t.as(user, { method: 'DELETE', url: `${tagsOf(shortPath)}/${encodeURIComponent(tag)}` }),
    async remove(user: TestUser, shortPath: string, tag: string): Promise<string[]> {
      const res = await api.removeRes(user, shortPath, tag);
      expect(res.statusCode, res.body).toBe(200);
      expect(Object.keys(res.json())).toEqual(['tags']);
      return res.json<{ tags: string[] }>().tags;
    },
    listRes: (user: Caller) => t.as(user, { method: 'GET', url: s.tags }),
    async list(user: TestUser): Promise<TagCount[]> {
      const res = await api.listRes(user);
      expect(res.statusCode, res.body).toBe(200);
      expect(Object.keys(res.json())).toEqual(['tags']);
      return res.json<{ tags: TagCount[] }>().tags;
    },
    linksRes: (user: Caller, query: string) => t.as(user, { method: 'GET', url: `${s.links}${query}` }),
    /** Short codes of a link list page, asserting 200. */
    async linkCodes(user: TestUser, query: string): Promise<string[]> {
      const res = await api.linksRes(user, query);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ links: { shortCode: string }[] }>().links.map((l) => l.shortCode);
    },
  };
  return api;
}

const linksA = (t: TestApp) => linkApi<CreatedLinkA, LinkA>(t, LINKS_A);
const linksB = (t: TestApp) => linkApi<LinkB, LinkB>(t, LINKS_B);

async function makeLink(t: TestApp, user: TestUser, label: string): Promise<string> {
  return (await linksA(t).create(user, { url: `https://example.com/${label}` })).shortCode;
}

/** The tags a link shows in its details, on both descriptions (which must agree). */
async function tagsShown(t: TestApp, user: TestUser, shortPath: string): Promise<string[]> {
  const a = await linksA(t).get(user, shortPath);
  const b = await linksB(t).get(user, shortPath);
  expect(a.statusCode, a.body).toBe(200);
  expect(b.statusCode, b.body).toBe(200);
  expect(b.json<LinkB>().tags).toEqual(a.json<LinkA>().tags);
  return a.json<LinkA>().tags;
}

describe.each(SURFACES)(`Tags on description $surface (${dialectName})`, (s) => {
  const t = useTestApp();
  const owner = t.user('pro');
  const other = t.user('pro');
  const api = () => tagApi(t, s);

  describe('adding', () => {
    it('tags a link and answers its tags; the link details on A and B show them, sorted ignoring case, as written', async () => {
      const code = await makeLink(t, owner, `add-${s.surface}`);
      expect(await tagsShown(t, owner, code)).toEqual([]);
      expect(await api().add(owner, code, 'summer')).toEqual(['summer']);
      expect(await api().add(owner, code, '  Black Friday  ')).toEqual(['Black Friday', 'summer']);
      expect(await api().add(owner, code, 'ad_2025-q1')).toEqual(['ad_2025-q1', 'Black Friday', 'summer']);
      expect(await tagsShown(t, owner, code)).toEqual(['ad_2025-q1', 'Black Friday', 'summer']);
      const listed = (await linksB(t).listAll(owner)).find((l) => l.shortCode === code)!;
      expect(listed.tags).toEqual(['ad_2025-q1', 'Black Friday', 'summer']);
    });

    it('is idempotent: the same tag again, in any case, answers 200 and keeps the first spelling', async () => {
      const code = await makeLink(t, owner, `same-${s.surface}`);
      expect(await api().add(owner, code, 'Sale')).toEqual(['Sale']);
      expect(await api().add(owner, code, 'Sale')).toEqual(['Sale']);
      expect(await api().add(owner, code, ' SALE ')).toEqual(['Sale']);
      expect(await tagsShown(t, owner, code)).toEqual(['Sale']);
    });

    it('keeps letters of any script and digits, makes inner runs of spaces one, and allows 30 characters', async () => {
      const code = await makeLink(t, owner, `chars-${s.surface}`);
      expect(await api().add(owner, code, 'Café  crème')).toEqual(['Café crème']);
      expect(await api().add(owner, code, '日本語')).toEqual(['Café crème', '日本語']);
      expect(await api().add(owner, code, 'x'.repeat(30))).toContain('x'.repeat(30));
      expect(await api().add(owner, code, '2025')).toEqual(['2025', 'Café crème', 'x'.repeat(30), '日本語']);
    });

    it('tags a namespaced link by its prefix%2Fslug path', async () => {
      const created = await linksA(t).create(owner, { url: 'https://example.com/ns-tag', customSlug: `tagged-${s.surface}` });
      expect(await api().add(owner, created.fullPath!, 'namespaced')).toEqual(['namespaced']);
      expect(await tagsShown(t, owner, created.shortCode)).toEqual(['namespaced']);
    });

    it.each([
      [{ tag: '' }, 'INVALID_TAG'],
      [{ tag: '   ' }, 'INVALID_TAG'],
      [{ tag: 'x'.repeat(31) }, 'INVALID_TAG'],
      [{ tag: 'no!' }, 'INVALID_TAG'],
      [{ tag: 'a/b' }, 'INVALID_TAG'],
      [{ tag: 'tab\there' }, 'INVALID_TAG'],
      [{ tag: 'line\nbreak' }, 'INVALID_TAG'],
      [{ tag: '🔥' }, 'INVALID_TAG'],
      [{ tag: ['a'] }, 'INVALID_TAG'],
      [{}, 'MISSING_TAG'],
    ])('refuses %j with 400 %s and changes nothing', async (body, code) => {
      const link = await makeLink(t, owner, `bad-${s.surface}`);
      expectError(await api().addRes(owner, link, body), 400, code);
      expect(await tagsShown(t, owner, link)).toEqual([]);
    });

    it('allows 20 tags on a link and refuses the 21st with 400 TOO_MANY_TAGS; an existing one still answers 200', async () => {
      const code = await makeLink(t, owner, `many-${s.surface}`);
      for (let i = 0; i < 20; i++) await api().add(owner, code, `tag ${String(i).padStart(2, '0')}`);
      expectError(await api().addRes(owner, code, { tag: 'one more' }), 400, 'TOO_MANY_TAGS');
      expect(await api().add(owner, code, 'TAG 00')).toHaveLength(20);
      expect(await tagsShown(t, owner, code)).toHaveLength(20);
      await api().remove(owner, code, 'tag 05');
      expect(await api().add(owner, code, 'one more')).toHaveLength(20);
    });

    it('adds at most 20 tags when many different tags arrive at once', async () => {
      const code = await makeLink(t, owner, `burst-${s.surface}`);
      const results = await Promise.all(Array.from({ length: 30 }, (_, i) => api().addRes(owner, code, { tag: `burst ${i}` })));
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(20);
      for (const res of results.filter((r) => r.statusCode !== 200)) expectError(res, 400, 'TOO_MANY_TAGS');
      expect(await tagsShown(t, owner, code)).toHaveLength(20);
    });

    it('keeps one tag when the same tag in different cases arrives at once', async () => {
      const code = await makeLink(t, owner, `race-${s.surface}`);
      const results = await Promise.all(['promo', 'PROMO', 'Promo', 'pRoMo'].map((tag) => api().addRes(owner, code, { tag })));
      for (const res of results) expect(res.statusCode, res.body).toBe(200);
      expect((await tagsShown(t, owner, code)).map((tag) => tag.toLowerCase())).toEqual(['promo']);
    });
  });

  describe('removing', () => {
    it('takes a tag off in any case and answers the remaining tags', async () => {
      const code = await makeLink(t, owner, `remove-${s.surface}`);
      await api().add(owner, code, 'Keep');
      await api().add(owner, code, 'Drop Me');
      expect(await api().remove(owner, code, 'drop me')).toEqual(['Keep']);
      expect(await tagsShown(t, owner, code)).toEqual(['Keep']);
      expect(await api().remove(owner, code, ' KEEP ')).toEqual([]);
      expect(await tagsShown(t, owner, code)).toEqual([]);
    });

    it('answers 404 TAG_NOT_FOUND for a tag the link does not carry, and 400 INVALID_TAG for no tag at all', async () => {
      const code = await makeLink(t, owner, `absent-${s.surface}`);
      await api().add(owner, code, 'present');
      expectError(await api().removeRes(owner, code, 'absent'), 404, 'TAG_NOT_FOUND');
      expectError(await api().removeRes(owner, code, 'bad!tag'), 400, 'INVALID_TAG');
      await api().remove(owner, code, 'present');
      expectError(await api().removeRes(owner, code, 'present'), 404, 'TAG_NOT_FOUND');
    });
  });

  describe('whose link', () => {
    it("refuses another account's link with 403 ACCESS_DENIED and leaves its tags alone", async () => {
      const theirs = await makeLink(t, other, `theirs-${s.surface}`);
      await api().add(other, theirs, 'private');
      expectError(await api().addRes(owner, theirs, { tag: 'mine' }), 403, 'ACCESS_DENIED');
      expectError(await api().removeRes(owner, theirs, 'private'), 403, 'ACCESS_DENIED');
      expect(await tagsShown(t, other, theirs)).toEqual(['private']);
    });

    it('answers 404 NOT_FOUND for an unknown link or path', async () => {
      for (const path of ['zzzzzz', 'nobody/nothing', 'not-a-code']) {
        expectError(await api().addRes(owner, path, { tag: 'x' }), 404, 'NOT_FOUND', path);
        expectError(await api().removeRes(owner, path, 'x'), 404, 'NOT_FOUND', path);
      }
    });
  });

  describe('GET tags', () => {
    it("lists the account's tags with link counts, one entry per tag whatever the case, sorted; other accounts' apart", async () => {
      const user = await t.createUser('pro');
      const [a, b, c] = [await makeLink(t, user, 'l1'), await makeLink(t, user, 'l2'), await makeLink(t, user, 'l3')];
      expect(await api().list(user)).toEqual([]);
      await api().add(user, a, 'Sale');
      await api().add(user, b, 'sale');
      await api().add(user, c, 'Sale');
      await api().add(user, a, 'alpha');
      await api().add(user, b, 'Zeta');
      const theirs = await makeLink(t, other, 'other-sale');
      await api().add(other, theirs, 'Sale');
      await api().add(other, theirs, 'beta');

      expect(await api().list(user)).toEqual([
        { tag: 'alpha', linkCount: 1 },
        { tag: 'Sale', linkCount: 3 },
        { tag: 'Zeta', linkCount: 1 },
      ]);
      await api().remove(user, c, 'sale');
      await api().remove(user, b, 'zeta');
      expect(await api().list(user)).toEqual([
        { tag: 'alpha', linkCount: 1 },
        // One link each way: the first in code-unit order names it.
        { tag: 'Sale', linkCount: 2 },
      ]);
    });

    it("deleting a link deletes its tags: they leave the counts and the database", async () => {
      const user = await t.createUser('pro');
      const [keep, gone] = [await makeLink(t, user, 'keep'), await makeLink(t, user, 'gone')];
      await api().add(user, keep, 'shared');
      await api().add(user, gone, 'shared');
      await api().add(user, gone, 'only-gone');
      expect((await linksA(t).del(user, gone)).statusCode).toBe(200);
      expect(await api().list(user)).toEqual([{ tag: 'shared', linkCount: 1 }]);
      const rows = await t.core.database.db.selectFrom('link_tags').select('tag').where('account_id', '=', user.id).execute();
      expect(rows).toEqual([{ tag: 'shared' }]);
    });

    it('leaves no tag behind when a link is deleted while it is being tagged', async () => {
      const user = await t.createUser('pro');
      for (let round = 0; round < 3; round++) {
        const code = await makeLink(t, user, `racing-${round}`);
        const id = (await linksA(t).get(user, code)).json<LinkA>().id;
        const results = await Promise.all([
          ...Array.from({ length: 5 }, (_, i) => api().addRes(user, code, { tag: `race ${i}` })),
          linksA(t).del(user, code),
          ...Array.from({ length: 5 }, (_, i) => api().addRes(user, code, { tag: `late ${i}` })),
        ]);
        for (const res of results) expect([200, 404], res.body).toContain(res.statusCode);
        const rows = await t.core.database.db.selectFrom('link_tags').select('tag').where('link_id', '=', id).execute();
        expect(rows).toEqual([]);
      }
      expect(await api().list(user)).toEqual([]);
    });
  });

  describe('the tag filter of the link lists', () => {
    it('lists the links carrying a tag, in any case, newest first, with pagination and together with a folder', async () => {
      const user = await t.createUser('pro');
      const codes: string[] = [];
      for (let i = 0; i < 5; i++) codes.push(await makeLink(t, user, `filter-${i}`));
      for (const i of [0, 2, 3, 4]) await api().add(user, codes[i]!, 'Launch');
      await api().add(user, codes[1]!, 'other');

      expect(await api().linkCodes(user, '?tag=launch')).toEqual([codes[4], codes[3], codes[2], codes[0]]);
      expect(await api().linkCodes(user, `?tag=${encodeURIComponent(' LAUNCH ')}`)).toEqual([codes[4], codes[3], codes[2], codes[0]]);
      const page = await api().linksRes(user, '?tag=Launch&limit=2&offset=2');
      expect(page.json()).toMatchObject({ pagination: { limit: 2, offset: 2, hasMore: false } });
      expect(page.json<{ links: { shortCode: string; tags: string[] }[] }>().links.map((l) => [l.shortCode, l.tags])).toEqual([
        [codes[2], ['Launch']],
        [codes[0], ['Launch']],
      ]);
      expect(await api().linkCodes(user, '?tag=nothing')).toEqual([]);

      const folder = (await t.as(user, { method: 'POST', url: '/api/v1/folders', payload: { name: 'Tagged folder' } })).json<{ id: string }>();
      for (const i of [1, 3]) await t.as(user, { method: 'POST', url: `/api/v1/links/${codes[i]}/folder`, payload: { folderId: folder.id } });
      expect(await api().linkCodes(user, `?tag=launch&folderId=${folder.id}`)).toEqual([codes[3]]);
      expect(await api().linkCodes(user, '?tag=launch&folderId=none')).toEqual([codes[4], codes[2], codes[0]]);
    });

    it("does not list another account's links carrying the same tag", async () => {
      const user = await t.createUser('pro');
      const mine = await makeLink(t, user, 'mine-filter');
      const theirs = await makeLink(t, other, 'theirs-filter');
      await api().add(user, mine, 'common');
      await api().add(other, theirs, 'common');
      expect(await api().linkCodes(user, '?tag=common')).toEqual([mine]);
    });

    it('refuses a tag that no link could carry with 400 INVALID_TAG', async () => {
      for (const tag of ['bad!', 'x'.repeat(31), '']) expectError(await api().linksRes(owner, `?tag=${encodeURIComponent(tag)}`), 400, 'INVALID_TAG', tag);
    });
  });

  describe('access', () => {
    it('answers 401 API_KEY_REQUIRED without a key and 401 INVALID_API_KEY with an unknown one, before reading the body', async () => {
      const code = await makeLink(t, owner, `keyed-${s.surface}`);
      await api().add(owner, code, 'kept');
      const routes = [
        { method: 'POST' as const, url: `${s.links}/${code}/tags`, payload: { tag: 'x' } },
        { method: 'POST' as const, url: `${s.links}/${code}/tags`, payload: { tag: 'bad!' } },
        { method: 'DELETE' as const, url: `${s.links}/${code}/tags/kept` },
        { method: 'GET' as const, url: s.tags },
        { method: 'GET' as const, url: `${s.links}?tag=kept` },
      ];
      for (const route of routes) {
        expectError(await t.as(null, route), 401, 'API_KEY_REQUIRED', `${route.method} ${route.url}`);
        expectError(await t.as(`snip_${'A'.repeat(40)}`, route), 401, 'INVALID_API_KEY', `${route.method} ${route.url}`);
      }
      expect(await tagsShown(t, owner, code)).toEqual(['kept']);
    });

    it('refuses a free account with 403 TIER_REQUIRED', async () => {
      const free = await t.createUser('free');
      for (const route of [
        { method: 'POST' as const, url: `${s.links}/abcdef/tags`, payload: { tag: 'x' } },
        { method: 'DELETE' as const, url: `${s.links}/abcdef/tags/x` },
        { method: 'GET' as const, url: s.tags },
      ]) {
        expectError(await t.as(free, route), 403, 'TIER_REQUIRED', `${route.method} ${route.url}`);
      }
    });
  });
});

describe('Tag routes in /openapi.yaml', () => {
  const t = useTestApp();

  it('documents each tag route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.yaml' });
    for (const p of ['/api/v1/links/{shortPath}/tags', '/api/v1/links/{shortPath}/tags/{tag}', '/api/v1/tags', '/api/links/{shortPath}/tags', '/api/links/{shortPath}/tags/{tag}', '/api/tags']) {
      expect(res.body).toContain(`${p}:`);
    }
  });
});
