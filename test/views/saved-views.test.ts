import { describe, expect, it } from 'vitest';
import { expectError } from '../helpers/api-errors.js';
import { dialectName, useTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { linkApi, LINKS_A, LINKS_B, type Caller, type CreatedLinkA, type LinkA } from '../helpers/links.js';

/**
 * Saved views (spec 4.3's list/create/update/delete_saved_view, over REST): A's /api/v1/views, B's /api/views, and
 * the link lists' `?view=`, `?search=` and `?domain=`.
 */

interface ViewFilters {
  folderId?: string;
  tag?: string;
  domain?: string;
  search?: string;
}

interface SavedView {
  id: string;
  name: string;
  filters: ViewFilters;
  createdAt: string;
  updatedAt: string;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const VIEW_KEYS = ['createdAt', 'filters', 'id', 'name', 'updatedAt'];

const SURFACES = [
  { surface: 'A', base: '/api/v1/views', links: LINKS_A, folders: '/api/v1/folders' },
  { surface: 'B', base: '/api/views', links: LINKS_B, folders: '/api/folders' },
] as const;

type Surface = (typeof SURFACES)[number];

function viewApi(t: TestApp, s: Surface) {
  const one = (id: string) => `${s.base}/${encodeURIComponent(id)}`;
  const api = {
    post: (user: Caller, body: object) => t.as(user, { method: 'POST', url: s.base, payload: body }),
    async create(user: TestUser, body: Record<string, unknown>): Promise<SavedView> {
      const res = await api.post(user, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json<SavedView>();
    },
    listRes: (user: Caller) => t.as(user, { method: 'GET', url: s.base }),
    async list(user: TestUser): Promise<SavedView[]> {
      const res = await api.listRes(user);
      expect(res.statusCode, res.body).toBe(200);
      expect(Object.keys(res.json())).toEqual(['views']);
      return res.json<{ views: SavedView[] }>().views;
    },
    patch: (user: Caller, id: string, body: object) => t.as(user, { method: 'PATCH', url: one(id), payload: body }),
    async update(user: TestUser, id: string, body: object): Promise<SavedView> {
      const res = await api.patch(user, id, body);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<SavedView>();
    },
    del: (user: Caller, id: string) => t.as(user, { method: 'DELETE', url: one(id) }),
    linksRes: (user: Caller, query: string) => t.as(user, { method: 'GET', url: `${s.links}${query}` }),
    async linkCodes(user: TestUser, query: string): Promise<string[]> {
      const res = await api.linksRes(user, query);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ links: { shortCode: string }[] }>().links.map((l) => l.shortCode);
    },
    async folder(user: TestUser, name: string): Promise<string> {
      const res = await t.as(user, { method: 'POST', url: s.folders, payload: { name } });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: string }>().id;
    },
  };
  return api;
}

const linksA = (t: TestApp) => linkApi<CreatedLinkA, LinkA>(t, LINKS_A);

describe.each(SURFACES)(`Saved views on description $surface (${dialectName})`, (s) => {
  const t = useTestApp();
  const owner = t.user('pro');
  const other = t.user('pro');
  const api = () => viewApi(t, s);

  describe('create and list', () => {
    it('creates a view and answers the view object, filters in their stored spelling', async () => {
      const folderId = await api().folder(owner, `Views ${s.surface}`);
      const res = await api().post(owner, { name: '  Spring  ', filters: { folderId, tag: '  Sale  ', domain: 'Go.Example.COM.', search: '  Shoes ' } });
      expect(res.statusCode).toBe(201);
      const body = res.json<SavedView>();
      expect(Object.keys(body).sort()).toEqual(VIEW_KEYS);
      expect(body).toEqual({
        id: expect.stringMatching(/^view_/),
        name: 'Spring',
        filters: { folderId, tag: 'Sale', domain: 'go.example.com', search: 'Shoes' },
        createdAt: expect.stringMatching(ISO_INSTANT),
        updatedAt: body.createdAt,
      });
      expect((await api().list(owner)).find((v) => v.id === body.id)).toEqual(body);
    });

    it('keeps only the filters given; {} is a view of every link; folderId none is the links in no folder', async () => {
      expect((await api().create(owner, { name: `All ${s.surface}`, filters: {} })).filters).toEqual({});
      expect((await api().create(owner, { name: `Unfiled ${s.surface}`, filters: { folderId: 'none' } })).filters).toEqual({ folderId: 'none' });
      expect((await api().create(owner, { name: `Tagged ${s.surface}`, filters: { tag: 'x' } })).filters).toEqual({ tag: 'x' });
    });

    it('lists oldest first; another account sees none of them', async () => {
      const user = await t.createUser('pro');
      expect(await api().list(user)).toEqual([]);
      const first = await api().create(user, { name: 'First', filters: { search: 'a' } });
      const second = await api().create(user, { name: 'Second', filters: {} });
      expect(await api().list(user)).toEqual([first, second]);
      expect((await api().list(other)).map((v) => v.id)).not.toContain(first.id);
    });

    it.each([
      [{ filters: {} }, 'MISSING_NAME'],
      [{ name: '', filters: {} }, 'INVALID_NAME'],
      [{ name: 'n'.repeat(51), filters: {} }, 'INVALID_NAME'],
      [{ name: 'No filters' }, 'MISSING_FILTERS'],
      [{ name: 'String', filters: 'tag=x' }, 'INVALID_FILTERS'],
      [{ name: 'Null', filters: null }, 'INVALID_FILTERS'],
      [{ name: 'Array', filters: [] }, 'INVALID_FILTERS'],
      [{ name: 'Unknown key', filters: { tags: 'x' } }, 'INVALID_FILTERS'],
      [{ name: 'Unknown key too', filters: { tag: 'x', sort: 'asc' } }, 'INVALID_FILTERS'],
      [{ name: 'Number', filters: { folderId: 5 } }, 'INVALID_FILTERS'],
      [{ name: 'Boolean', filters: { tag: true } }, 'INVALID_FILTERS'],
      [{ name: 'Null value', filters: { search: null } }, 'INVALID_FILTERS'],
      [{ name: 'Object value', filters: { domain: { host: 'x' } } }, 'INVALID_FILTERS'],
      [{ name: 'Bad tag', filters: { tag: 'no!' } }, 'INVALID_FILTERS'],
      [{ name: 'Long tag', filters: { tag: 't'.repeat(31) } }, 'INVALID_FILTERS'],
      [{ name: 'Empty search', filters: { search: '  ' } }, 'INVALID_FILTERS'],
      [{ name: 'Long search', filters: { search: 's'.repeat(201) } }, 'INVALID_FILTERS'],
      [{ name: 'Bad domain', filters: { domain: 'not a host' } }, 'INVALID_FILTERS'],
      [{ name: 'Empty folder', filters: { folderId: '' } }, 'INVALID_FILTERS'],
    ])('refuses %j with 400 %s', async (body, code) => {
      const before = (await api().list(owner)).length;
      expectError(await api().post(owner, body), 400, code);
      expect(await api().list(owner)).toHaveLength(before);
    });

    it("refuses an unknown or another account's folder with 404 FOLDER_NOT_FOUND", async () => {
      const theirs = await api().folder(other, `Their folder ${s.surface}`);
      for (const folderId of ['fld_unknown', theirs]) {
        expectError(await api().post(owner, { name: 'Foreign folder', filters: { folderId } }), 404, 'FOLDER_NOT_FOUND', folderId);
      }
    });

    it('refuses a name the account already uses, ignoring case, with 409 VIEW_EXISTS; another account may use it', async () => {
      await api().create(owner, { name: `Taken ${s.surface}`, filters: {} });
      expectError(await api().post(owner, { name: `TAKEN ${s.surface}`, filters: {} }), 409, 'VIEW_EXISTS');
      await api().create(other, { name: `Taken ${s.surface}`, filters: {} });
    });
  });

  describe('update', () => {
    let unchanged = 0;
    it('renames a view and keeps its filters; replaces the filters as a whole and keeps its name; updatedAt moves', async () => {
      const view = await api().create(owner, { name: `Editable ${s.surface}`, filters: { tag: 'a', search: 'b' } });
      t.clock.advance(1_000);
      const renamed = await api().update(owner, view.id, { name: ` Renamed ${s.surface} ` });
      expect(renamed).toEqual({ ...view, name: `Renamed ${s.surface}`, updatedAt: expect.stringMatching(ISO_INSTANT) });
      expect(renamed.updatedAt > view.updatedAt).toBe(true);
      const refiltered = await api().update(owner, view.id, { filters: { domain: 'links.example.com' } });
      expect(refiltered).toMatchObject({ id: view.id, name: `Renamed ${s.surface}`, filters: { domain: 'links.example.com' }, createdAt: view.createdAt });
      const both = await api().update(owner, view.id, { name: `Both ${s.surface}`, filters: {} });
      expect(both).toMatchObject({ name: `Both ${s.surface}`, filters: {} });
      expect((await api().list(owner)).find((v) => v.id === view.id)).toEqual(both);
    });

    it('lets a view take its own name in another case, and refuses another view\'s with 409 VIEW_EXISTS', async () => {
      const a = await api().create(owner, { name: `Alpha ${s.surface}`, filters: {} });
      await api().create(owner, { name: `Beta ${s.surface}`, filters: {} });
      expect((await api().update(owner, a.id, { name: `ALPHA ${s.surface}` })).name).toBe(`ALPHA ${s.surface}`);
      expectError(await api().patch(owner, a.id, { name: `beta ${s.surface}` }), 409, 'VIEW_EXISTS');
      expect((await api().list(owner)).find((v) => v.id === a.id)!.name).toBe(`ALPHA ${s.surface}`);
    });

    it.each([
      [{}, 'INVALID_BODY'],
      [{ name: null }, 'INVALID_NAME'],
      [{ name: '' }, 'INVALID_NAME'],
      [{ filters: { unknown: 'x' } }, 'INVALID_FILTERS'],
      [{ filters: { tag: 1 } }, 'INVALID_FILTERS'],
      [{ filters: null }, 'INVALID_FILTERS'],
    ])('refuses %j with 400 %s and changes nothing', async (body, code) => {
      const view = await api().create(owner, { name: `Unchanged ${s.surface} ${(unchanged += 1)}`, filters: { tag: 'keep' } });
      expectError(await api().patch(owner, view.id, body), 400, code);
      expect((await api().list(owner)).find((v) => v.id === view.id)).toEqual(view);
    });

    it("answers 404 VIEW_NOT_FOUND for an unknown view or another account's, and leaves theirs alone", async () => {
      const theirs = await api().create(other, { name: `Theirs ${s.surface}`, filters: {} });
      expectError(await api().patch(owner, 'view_unknown', { name: 'x' }), 404, 'VIEW_NOT_FOUND');
      expectError(await api().patch(owner, theirs.id, { name: 'Mine now' }), 404, 'VIEW_NOT_FOUND');
      expectError(await api().patch(owner, theirs.id, { filters: {} }), 404, 'VIEW_NOT_FOUND');
      expect((await api().list(other)).find((v) => v.id === theirs.id)).toEqual(theirs);
    });
  });

  describe('delete', () => {
    it("deletes a view; again, an unknown one or another account's is 404 VIEW_NOT_FOUND", async () => {
      const view = await api().create(owner, { name: `Doomed ${s.surface}`, filters: {} });
      const theirs = await api().create(other, { name: `Their doomed ${s.surface}`, filters: {} });
      const res = await api().del(owner, view.id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: expect.any(String) });
      expect((await api().list(owner)).map((v) => v.id)).not.toContain(view.id);
      expectError(await api().del(owner, view.id), 404, 'VIEW_NOT_FOUND');
      expectError(await api().del(owner, 'view_unknown'), 404, 'VIEW_NOT_FOUND');
      expectError(await api().del(owner, theirs.id), 404, 'VIEW_NOT_FOUND');
      expect((await api().list(other)).map((v) => v.id)).toContain(theirs.id);
    });
  });

  describe('listing links by a view', () => {
    it("lists the links matching all of a view's filters, and a filter given alongside replaces the view's", async () => {
      const user = await t.createUser('pro');
      const folderId = await api().folder(user, 'Campaigns');
      const make = (path: string) => linksA(t).create(user, { url: `https://example.com/${path}` });
      const shoesInFolder = await make('Shoes/red');
      const shoesTagged = await make('shoes/blue');
      const hats = await make('hats/green');
      const shoesOnDomain = await make('SHOES/green');
      for (const l of [shoesInFolder, hats]) await t.as(user, { method: 'POST', url: `/api/v1/links/${l.shortCode}/folder`, payload: { folderId } });
      for (const l of [shoesTagged, hats, shoesOnDomain]) await t.as(user, { method: 'POST', url: `/api/v1/links/${l.shortCode}/tags`, payload: { tag: 'Spring' } });
      await t.core.database.db.updateTable('links').set({ domain: 'go.example.com' }).where('code', '=', shoesOnDomain.shortCode).execute();

      const bySearch = await api().create(user, { name: 'Shoes', filters: { search: 'shoes' } });
      expect(await api().linkCodes(user, `?view=${bySearch.id}`)).toEqual([shoesOnDomain, shoesTagged, shoesInFolder].map((l) => l.shortCode));
      const tagged = await api().create(user, { name: 'Spring shoes', filters: { tag: 'spring', search: 'SHOES' } });
      expect(await api().linkCodes(user, `?view=${tagged.id}`)).toEqual([shoesOnDomain, shoesTagged].map((l) => l.shortCode));
      const filed = await api().create(user, { name: 'Filed', filters: { folderId } });
      expect(await api().linkCodes(user, `?view=${filed.id}`)).toEqual([hats, shoesInFolder].map((l) => l.shortCode));
      const unfiled = await api().create(user, { name: 'Unfiled spring', filters: { folderId: 'none', tag: 'spring' } });
      expect(await api().linkCodes(user, `?view=${unfiled.id}`)).toEqual([shoesOnDomain, shoesTagged].map((l) => l.shortCode));
      const onDomain = await api().create(user, { name: 'On domain', filters: { domain: 'GO.example.com' } });
      expect(await api().linkCodes(user, `?view=${onDomain.id}`)).toEqual([shoesOnDomain.shortCode]);
      const all = await api().create(user, { name: 'All', filters: {} });
      expect(await api().linkCodes(user, `?view=${all.id}`)).toEqual([shoesOnDomain, hats, shoesTagged, shoesInFolder].map((l) => l.shortCode));

      // Alongside the view: the query's tag replaces the view's; other filters of the view still apply.
      expect(await api().linkCodes(user, `?view=${filed.id}&tag=spring`)).toEqual([hats.shortCode]);
      expect(await api().linkCodes(user, `?view=${tagged.id}&search=hats`)).toEqual([hats.shortCode]);
      expect(await api().linkCodes(user, `?view=${tagged.id}&folderId=${folderId}`)).toEqual([]);
      const page = await api().linksRes(user, `?view=${bySearch.id}&limit=2&offset=0`);
      expect(page.json()).toMatchObject({ pagination: { limit: 2, offset: 0, hasMore: true } });

      // The same view after its filters change.
      await api().update(user, bySearch.id, { filters: { search: 'hats' } });
      expect(await api().linkCodes(user, `?view=${bySearch.id}`)).toEqual([hats.shortCode]);
    });

    it("answers 404 VIEW_NOT_FOUND for an unknown view or another account's", async () => {
      const theirs = await api().create(other, { name: `Their list view ${s.surface}`, filters: {} });
      for (const id of ['view_unknown', theirs.id]) expectError(await api().linksRes(owner, `?view=${id}`), 404, 'VIEW_NOT_FOUND', id);
    });

    it('answers 404 FOLDER_NOT_FOUND for a view whose folder was deleted since', async () => {
      const user = await t.createUser('pro');
      const folderId = await api().folder(user, 'Short lived');
      const view = await api().create(user, { name: 'By folder', filters: { folderId } });
      expect((await t.as(user, { method: 'DELETE', url: `/api/v1/folders/${folderId}` })).statusCode).toBe(200);
      expectError(await api().linksRes(user, `?view=${view.id}`), 404, 'FOLDER_NOT_FOUND');
    });
  });

  describe('search and domain on the link lists', () => {
    it('matches the destination, the code or the slug, ignoring case; an empty search lists all', async () => {
      const user = await t.createUser('pro');
      const a = await linksA(t).create(user, { url: 'https://Example.com/Alpha?ref=News' });
      const b = await linksA(t).create(user, { url: 'https://other.example/beta', customSlug: 'launch-Day' });
      expect(await api().linkCodes(user, '?search=alpha')).toEqual([a.shortCode]);
      expect(await api().linkCodes(user, '?search=REF%3Dnews')).toEqual([a.shortCode]);
      expect(await api().linkCodes(user, '?search=LAUNCH-d')).toEqual([b.shortCode]);
      expect(await api().linkCodes(user, `?search=${b.shortCode.toLowerCase()}`)).toContain(b.shortCode);
      expect(await api().linkCodes(user, '?search=example')).toEqual([b.shortCode, a.shortCode]);
      expect(await api().linkCodes(user, '?search=')).toEqual([b.shortCode, a.shortCode]);
      expect(await api().linkCodes(user, '?search=nowhere')).toEqual([]);
    });

    it('matches %, _ and \\ literally', async () => {
      const user = await t.createUser('pro');
      const percent = await linksA(t).create(user, { url: 'https://example.com/a%20b' });
      const underscore = await linksA(t).create(user, { url: 'https://example.com/under_score' });
      const plain = await linksA(t).create(user, { url: 'https://example.com/underXscore' });
      const backslash = await linksA(t).create(user, { url: 'https://example.com/q?x=a\\b' });
      expect(await api().linkCodes(user, `?search=${encodeURIComponent('%')}`)).toEqual([percent.shortCode]);
      expect(await api().linkCodes(user, `?search=${encodeURIComponent('r_s')}`)).toEqual([underscore.shortCode]);
      expect(await api().linkCodes(user, `?search=${encodeURIComponent('rXs')}`)).toEqual([plain.shortCode]);
      expect(await api().linkCodes(user, `?search=${encodeURIComponent('a\\b')}`)).toEqual([backslash.shortCode]);
      expect(await api().linkCodes(user, `?search=${encodeURIComponent('a\\')}`)).toEqual([backslash.shortCode]);
    });

    it("never lists another account's links", async () => {
      const user = await t.createUser('pro');
      await linksA(t).create(other, { url: 'https://example.com/secret-match' });
      expect(await api().linkCodes(user, '?search=secret-match')).toEqual([]);
    });

    it('refuses a search over 200 characters with 400 INVALID_SEARCH and a domain that is no hostname with 400 INVALID_DOMAIN', async () => {
      expectError(await api().linksRes(owner, `?search=${'s'.repeat(201)}`), 400, 'INVALID_SEARCH');
      expectError(await api().linksRes(owner, '?domain=not%20a%20host'), 400, 'INVALID_DOMAIN');
      expect((await api().linksRes(owner, `?search=${'s'.repeat(200)}`)).statusCode).toBe(200);
    });
  });

  describe('access', () => {
    it('answers 401 API_KEY_REQUIRED without a key and 401 INVALID_API_KEY with an unknown one, before reading the body', async () => {
      const view = await api().create(owner, { name: `Keyed ${s.surface}`, filters: {} });
      for (const route of [
        { method: 'GET' as const, url: s.base },
        { method: 'POST' as const, url: s.base, payload: { name: 'No key', filters: {} } },
        { method: 'POST' as const, url: s.base, payload: { filters: 'bad' } },
        { method: 'PATCH' as const, url: `${s.base}/${view.id}`, payload: { name: 'No key' } },
        { method: 'DELETE' as const, url: `${s.base}/${view.id}` },
        { method: 'GET' as const, url: `${s.links}?view=${view.id}` },
      ]) {
        expectError(await t.as(null, route), 401, 'API_KEY_REQUIRED', `${route.method} ${route.url}`);
        expectError(await t.as(`snip_${'A'.repeat(40)}`, route), 401, 'INVALID_API_KEY', `${route.method} ${route.url}`);
      }
      expect((await api().list(owner)).find((v) => v.id === view.id)).toEqual(view);
    });

    it('refuses a free account with 403 TIER_REQUIRED', async () => {
      const free = await t.createUser('free');
      for (const route of [
        { method: 'GET' as const, url: s.base },
        { method: 'POST' as const, url: s.base, payload: { name: 'Free', filters: {} } },
        { method: 'PATCH' as const, url: `${s.base}/view_unknown`, payload: { name: 'x' } },
        { method: 'DELETE' as const, url: `${s.base}/view_unknown` },
      ]) {
        expectError(await t.as(free, route), 403, 'TIER_REQUIRED', `${route.method} ${route.url}`);
      }
    });
  });
});

describe(`SavedViewsService for the MCP tools (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('pro');

  it('checks filters strictly, whatever the caller sends', async () => {
    const caller = await t.core.accounts.authenticate(owner.apiKey);
    const views = t.core.savedViews;
    await expect(views.create(caller, { name: 'Typed', filters: { folderId: 5 } })).rejects.toMatchObject({ status: 400, code: 'INVALID_FILTERS' });
    await expect(views.create(caller, { name: 'Typed', filters: { tag: 'x', extra: 1 } })).rejects.toMatchObject({ status: 400, code: 'INVALID_FILTERS' });
    const view = await views.create(caller, { name: 'Typed', filters: { tag: 'Promo' } });
    expect(await views.update(caller, view.id, {})).toEqual(view);
    expect((await views.list(caller)).views).toEqual([view]);
    expect(await views.delete(caller, view.id)).toEqual(view);
    await expect(views.delete(caller, view.id)).rejects.toMatchObject({ status: 404, code: 'VIEW_NOT_FOUND' });
  });
});
