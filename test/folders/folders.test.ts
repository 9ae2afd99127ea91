import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { expectError } from '../helpers/api-errors.js';
import { dialectName, useTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { linkApi, LINKS_A, LINKS_B, type Caller, type CreatedLinkA, type LinkA, type LinkB } from '../helpers/links.js';

/**
 * Folders (spec 2.8, 4.1, 4.2, 7, 8.4): the routes under A's /api/v1/folders and B's /api/folders, filing links
 * with A's /api/v1/links/{shortCode}/folder and B's /api/link/{short}/folder, link lists by folder, and the
 * plan's folder limit.
 */

interface FolderObject {
  id: string;
  name: string;
  color: string | null;
  linkCount: number;
  createdAt: string;
}

interface FolderList {
  folders: FolderObject[];
  limit: number | null | 'unlimited';
  canCreate: boolean;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const FOLDER_KEYS = ['color', 'createdAt', 'id', 'linkCount', 'name'];

/** A plans file in which Free has API access and keeps the default plan limits (folders: 5). */
const FREE_API_PLANS = path.join(import.meta.dirname, '..', 'fixtures', 'plans-clicks-free-api.json');

const SURFACES = [
  { surface: 'A', base: '/api/v1/folders', links: LINKS_A, maxName: 50, unlimited: null, assignPath: (p: string) => `/api/v1/links/${encodeURIComponent(p)}/folder` },
  { surface: 'B', base: '/api/folders', links: LINKS_B, maxName: 40, unlimited: 'unlimited', assignPath: (p: string) => `/api/link/${encodeURIComponent(p)}/folder` },
] as const;

type Surface = (typeof SURFACES)[number];

/** Requests on one description's folder routes. */
function folderApi(t: TestApp, s: Surface) {
  const one = (id: string) => `${s.base}/${encodeURIComponent(id)}`;
  const api = {
    post: (user: Caller, body: object) => t.as(user, { method: 'POST', url: s.base, payload: body }),
    async create(user: TestUser, body: Record<string, unknown>): Promise<FolderObject> {
      const res = await api.post(user, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json<FolderObject>();
    },
    listRes: (user: Caller) => t.as(user, { method: 'GET', url: s.base }),
    async list(user: TestUser): Promise<FolderList> {
      const res = await api.listRes(user);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<FolderList>();
    },
    /** The folder as the list shows it. */
    async find(user: TestUser, id: string): Promise<FolderObject | undefined> {
      return (await api.list(user)).folders.find((f) => f.id === id);
    },
    patch: (user: Caller, id: string, body: object) => t.as(user, { method: 'PATCH', url: one(id), payload: body }),
    del: (user: Caller, id: string) => t.as(user, { method: 'DELETE', url: one(id) }),
    assignRes: (user: Caller, shortPath: string, body: object) => t.as(user, { method: 'POST', url: s.assignPath(shortPath), payload: body }),
    async assign(user: TestUser, shortPath: string, folderId: string | null): Promise<void> {
      const res = await api.assignRes(user, shortPath, { folderId });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, folderId });
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

/** Creates `n` links for `user` and answers their short codes, oldest first. */
async function makeLinks(t: TestApp, user: TestUser, n: number, label: string): Promise<string[]> {
  const codes: string[] = [];
  for (let i = 0; i < n; i++) codes.push((await linksA(t).create(user, { url: `https://example.com/${label}/${i}` })).shortCode);
  return codes;
}

/** The folderId a link shows in its details, on both descriptions (which must agree). */
async function folderOf(t: TestApp, user: TestUser, shortPath: string): Promise<string | null> {
  const a = await linksA(t).get(user, shortPath);
  const b = await linksB(t).get(user, shortPath);
  expect(a.statusCode, a.body).toBe(200);
  expect(b.statusCode, b.body).toBe(200);
  expect(b.json<LinkB>().folderId).toBe(a.json<LinkA>().folderId);
  return a.json<LinkA>().folderId;
}

describe.each(SURFACES)(`Folders on description $surface (${dialectName})`, (s) => {
  const t = useTestApp();
  const owner = t.user('pro');
  const other = t.user('pro');
  const api = () => folderApi(t, s);

  describe('create and list', () => {
    it('creates a folder and answers the FolderObject: trimmed name, upper-case colour, no links yet', async () => {
      const res = await api().post(owner, { name: '  Campaigns  ', color: '#a1b2c3' });
      expect(res.statusCode).toBe(201);
      const body = res.json<FolderObject>();
      expect(Object.keys(body).sort()).toEqual(FOLDER_KEYS);
      expect(body).toEqual({ id: expect.stringMatching(/^fld_/), name: 'Campaigns', color: '#A1B2C3', linkCount: 0, createdAt: expect.stringMatching(ISO_INSTANT) });
      expect(await api().find(owner, body.id)).toEqual(body);
    });

    it('creates without a colour, or with color null, as color null', async () => {
      expect((await api().create(owner, { name: 'Plain' })).color).toBeNull();
      expect((await api().create(owner, { name: 'Plain null', color: null })).color).toBeNull();
    });

    it(`lists exactly {folders, limit, canCreate}, oldest first, with limit ${String(s.unlimited)} for an unlimited plan`, async () => {
      const user = await t.createUser('pro');
      const first = await api().create(user, { name: 'First' });
      const second = await api().create(user, { name: 'Second', color: '#000000' });
      const res = await api().listRes(user);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ folders: [first, second], limit: s.unlimited, canCreate: true });
    });

    it('lists nothing for a new account', async () => {
      const user = await t.createUser('builder');
      expect(await api().list(user)).toEqual({ folders: [], limit: s.unlimited, canCreate: true });
    });

    it("never shows another account's folders", async () => {
      const mine = await api().create(owner, { name: 'Mine only' });
      const theirs = await api().list(other);
      expect(theirs.folders.map((f) => f.id)).not.toContain(mine.id);
      expect((await api().list(owner)).folders.map((f) => f.id)).toContain(mine.id);
    });

    it(`accepts a name of exactly ${s.maxName} characters, counted after trimming and by character (an emoji is one)`, async () => {
      const exact = 'n'.repeat(s.maxName);
      expect((await api().create(owner, { name: exact })).name).toBe(exact);
      expect((await api().create(owner, { name: `   ${'p'.repeat(s.maxName)}   ` })).name).toBe('p'.repeat(s.maxName));
      const emoji = `${'e'.repeat(s.maxName - 1)}📁`;
      expect((await api().create(owner, { name: emoji })).name).toBe(emoji);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['no name', {}, 'MISSING_NAME'],
      ['only a colour', { color: '#FFFFFF' }, 'MISSING_NAME'],
      ['an empty name', { name: '' }, 'INVALID_NAME'],
      ['a blank name', { name: '   ' }, 'INVALID_NAME'],
      ['a name one character too long', { name: 'x'.repeat(s.maxName + 1) }, 'INVALID_NAME'],
      ['a name with a newline', { name: 'two\nlines' }, 'INVALID_NAME'],
      ['a name that is an object', { name: { text: 'x' } }, 'INVALID_NAME'],
      ['a colour without #', { name: 'Bad colour', color: 'A1B2C3' }, 'INVALID_COLOR'],
      ['a three-digit colour', { name: 'Bad colour', color: '#ABC' }, 'INVALID_COLOR'],
      ['a colour name', { name: 'Bad colour', color: 'red' }, 'INVALID_COLOR'],
      ['a colour with non-hex digits', { name: 'Bad colour', color: '#GG0000' }, 'INVALID_COLOR'],
      ['an empty colour', { name: 'Bad colour', color: '' }, 'INVALID_COLOR'],
    ])('refuses %s with 400 %s and creates nothing', async (_label, body, code) => {
      const before = (await api().list(owner)).folders.length;
      expectError(await api().post(owner, body), 400, code);
      expect((await api().list(owner)).folders.length).toBe(before);
    });

    it('refuses a name the account already uses, ignoring case and surrounding spaces, with 409 FOLDER_EXISTS', async () => {
      await api().create(owner, { name: 'Duplicates' });
      expectError(await api().post(owner, { name: 'Duplicates' }), 409, 'FOLDER_EXISTS');
      expectError(await api().post(owner, { name: ' dUPLICATES ' }), 409, 'FOLDER_EXISTS');
      expect((await api().list(owner)).folders.filter((f) => f.name.toLowerCase() === 'duplicates')).toHaveLength(1);
    });

    it('lets two accounts use the same name', async () => {
      await api().create(owner, { name: 'Shared name' });
      expect((await api().create(other, { name: 'Shared name' })).name).toBe('Shared name');
    });

    it('creates one folder when the same name is sent many times at once', async () => {
      const user = await t.createUser('pro');
      const results = await Promise.all(Array.from({ length: 8 }, () => api().post(user, { name: 'Race' })));
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
      expect((await api().list(user)).folders).toHaveLength(1);
    });
  });

  describe('update', () => {
    it('changes only the fields sent and answers the FolderObject with its link count', async () => {
      const folder = await api().create(owner, { name: 'Before', color: '#111111' });
      const [code] = await makeLinks(t, owner, 1, `update-${s.surface}`);
      await api().assign(owner, code!, folder.id);

      const renamed = await api().patch(owner, folder.id, { name: ' After ' });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(Object.keys(renamed.json()).sort()).toEqual(FOLDER_KEYS);
      expect(renamed.json()).toEqual({ ...folder, name: 'After', linkCount: 1 });

      const recoloured = await api().patch(owner, folder.id, { color: '#abcdef' });
      expect(recoloured.json()).toEqual({ ...folder, name: 'After', color: '#ABCDEF', linkCount: 1 });

      const both = await api().patch(owner, folder.id, { name: 'Both', color: '#222222' });
      expect(both.json()).toEqual({ ...folder, name: 'Both', color: '#222222', linkCount: 1 });

      const cleared = await api().patch(owner, folder.id, { color: null });
      expect(cleared.json()).toEqual({ ...folder, name: 'Both', color: null, linkCount: 1 });
      expect(await api().find(owner, folder.id)).toEqual(cleared.json());
    });

    it("renames a folder to its own name in another case, but not to another folder's name", async () => {
      const folder = await api().create(owner, { name: 'Case' });
      await api().create(owner, { name: 'Taken' });
      expect((await api().patch(owner, folder.id, { name: 'CASE' })).json<FolderObject>().name).toBe('CASE');
      expectError(await api().patch(owner, folder.id, { name: 'taken' }), 409, 'FOLDER_EXISTS');
      expect((await api().find(owner, folder.id))?.name).toBe('CASE');
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['an empty body', {}, 'INVALID_BODY'],
      ['an empty name', { name: '' }, 'INVALID_NAME'],
      ['a null name', { name: null }, 'INVALID_NAME'],
      ['a name one character too long', { name: 'y'.repeat(s.maxName + 1) }, 'INVALID_NAME'],
      ['a bad colour', { color: '#12345' }, 'INVALID_COLOR'],
    ])('refuses %s with 400 %s and changes nothing', async (label, body, code) => {
      const folder = await api().create(owner, { name: `Unchanged: ${label}`, color: '#333333' });
      expectError(await api().patch(owner, folder.id, body), 400, code);
      expect(await api().find(owner, folder.id)).toEqual(folder);
    });

    it("answers 404 FOLDER_NOT_FOUND 'Folder not found' for an unknown folder and for another account's", async () => {
      const theirs = await api().create(other, { name: 'Not yours to rename' });
      for (const id of ['fld_unknown', theirs.id]) {
        const res = await api().patch(owner, id, { name: 'Mine now' });
        expectError(res, 404, 'FOLDER_NOT_FOUND');
        expect(res.json<{ message: string }>().message).toBe('Folder not found');
      }
      expect(await api().find(other, theirs.id)).toEqual(theirs);
    });
  });

  describe('delete', () => {
    it(`deletes a folder and answers ${s.surface === 'A' ? '{success: true, message}' : 'exactly {success: true}'}`, async () => {
      const folder = await api().create(owner, { name: 'Doomed' });
      const res = await api().del(owner, folder.id);
      expect(res.statusCode, res.body).toBe(200);
      if (s.surface === 'A') expect(res.json()).toEqual({ success: true, message: expect.any(String) });
      else expect(res.json()).toEqual({ success: true });
      expect(await api().find(owner, folder.id)).toBeUndefined();
      expectError(await api().del(owner, folder.id), 404, 'FOLDER_NOT_FOUND');
    });

    it('takes its links out of the folder and keeps them; other folders keep theirs', async () => {
      const doomed = await api().create(owner, { name: 'Doomed with links' });
      const kept = await api().create(owner, { name: 'Kept with links' });
      const codes = await makeLinks(t, owner, 4, `delete-${s.surface}`);
      for (const code of codes.slice(0, 3)) await api().assign(owner, code, doomed.id);
      await api().assign(owner, codes[3]!, kept.id);

      expect((await api().del(owner, doomed.id)).statusCode).toBe(200);
      for (const code of codes.slice(0, 3)) expect(await folderOf(t, owner, code)).toBeNull();
      expect(await folderOf(t, owner, codes[3]!)).toBe(kept.id);
      expect((await api().find(owner, kept.id))?.linkCount).toBe(1);
      const unfiled = await api().linkCodes(owner, '?folderId=none&limit=100');
      for (const code of codes.slice(0, 3)) expect(unfiled).toContain(code);
      for (const code of codes) expect((await linksA(t).visit(code)).statusCode).toBe(302);
    });

    it("answers 404 FOLDER_NOT_FOUND for an unknown folder and for another account's, which stays", async () => {
      const theirs = await api().create(other, { name: 'Not yours to delete' });
      for (const id of ['fld_unknown', theirs.id]) {
        const res = await api().del(owner, id);
        expectError(res, 404, 'FOLDER_NOT_FOUND');
        expect(res.json<{ message: string }>().message).toBe('Folder not found');
      }
      expect(await api().find(other, theirs.id)).toEqual(theirs);
    });
  });

  describe('filing links', () => {
    it('files, moves and unfiles a link; the link details and every linkCount follow exactly', async () => {
      const red = await api().create(owner, { name: 'Red' });
      const blue = await api().create(owner, { name: 'Blue' });
      const codes = await makeLinks(t, owner, 3, `file-${s.surface}`);
      const counts = async () => {
        const list = await api().list(owner);
        return [red.id, blue.id].map((id) => list.folders.find((f) => f.id === id)?.linkCount);
      };
      expect(await folderOf(t, owner, codes[0]!)).toBeNull();

      for (const code of codes) await api().assign(owner, code, red.id);
      expect(await counts()).toEqual([3, 0]);
      expect(await folderOf(t, owner, codes[0]!)).toBe(red.id);

      await api().assign(owner, codes[0]!, blue.id);
      expect(await counts()).toEqual([2, 1]);
      expect(await folderOf(t, owner, codes[0]!)).toBe(blue.id);

      await api().assign(owner, codes[1]!, red.id); // again into the folder it is in: no change
      expect(await counts()).toEqual([2, 1]);

      await api().assign(owner, codes[1]!, null);
      expect(await counts()).toEqual([1, 1]);
      expect(await folderOf(t, owner, codes[1]!)).toBeNull();

      await api().assign(owner, codes[1]!, null); // already in none
      expect(await counts()).toEqual([1, 1]);

      expect((await linksA(t).del(owner, codes[2]!)).statusCode).toBe(200);
      expect(await counts()).toEqual([0, 1]);
      expect((await linksB(t).del(owner, codes[0]!)).statusCode).toBe(200);
      expect(await counts()).toEqual([0, 0]);
    });

    it('files a namespaced link by its URL-encoded prefix%2Fslug', async () => {
      const folder = await api().create(owner, { name: 'Namespaced' });
      const link = await linksA(t).create(owner, { url: 'https://example.com/ns-folder', customSlug: `folder-${s.surface.toLowerCase()}` });
      const fullPath = `${owner.namespace}/folder-${s.surface.toLowerCase()}`;
      await api().assign(owner, fullPath, folder.id);
      expect(await folderOf(t, owner, link.shortCode)).toBe(folder.id);
      expect(await folderOf(t, owner, fullPath)).toBe(folder.id);
    });

    it("answers 404 NOT_FOUND 'Short URL not found' for an unknown or malformed short path", async () => {
      const folder = await api().create(owner, { name: 'For nothing' });
      for (const shortPath of ['zzzzzz', 'nobody/none', 'abc']) {
        const res = await api().assignRes(owner, shortPath, { folderId: folder.id });
        expectError(res, 404, 'NOT_FOUND', shortPath);
        expect(res.json<{ message: string }>().message).toBe('Short URL not found');
      }
      expect((await api().find(owner, folder.id))?.linkCount).toBe(0);
    });

    it("answers 404 FOLDER_ACCESS_DENIED 'Access denied' for another account's link, and leaves it as it was", async () => {
      const mine = await api().create(owner, { name: 'Grabby' });
      const theirFolder = await api().create(other, { name: 'Theirs' });
      const [theirLink] = await makeLinks(t, other, 1, `theirs-${s.surface}`);
      await api().assign(other, theirLink!, theirFolder.id);
      for (const folderId of [mine.id, null]) {
        const res = await api().assignRes(owner, theirLink!, { folderId });
        expectError(res, 404, 'FOLDER_ACCESS_DENIED');
        expect(res.json<{ message: string }>().message).toBe('Access denied');
      }
      expect(await folderOf(t, other, theirLink!)).toBe(theirFolder.id);
      expect((await api().find(owner, mine.id))?.linkCount).toBe(0);
    });

    it("answers 404 FOLDER_ACCESS_DENIED for another account's folder, and 404 FOLDER_NOT_FOUND for an unknown one", async () => {
      const theirFolder = await api().create(other, { name: 'Not for you' });
      const [code] = await makeLinks(t, owner, 1, `foreign-folder-${s.surface}`);
      const denied = await api().assignRes(owner, code!, { folderId: theirFolder.id });
      expectError(denied, 404, 'FOLDER_ACCESS_DENIED');
      expect(denied.json<{ message: string }>().message).toBe('Access denied');
      const unknown = await api().assignRes(owner, code!, { folderId: 'fld_unknown' });
      expectError(unknown, 404, 'FOLDER_NOT_FOUND');
      expect(unknown.json<{ message: string }>().message).toBe('Folder not found');
      expect(await folderOf(t, owner, code!)).toBeNull();
      expect((await api().find(other, theirFolder.id))?.linkCount).toBe(0);
    });

    it('refuses a body without folderId with 400 MISSING_FOLDER_ID', async () => {
      const [code] = await makeLinks(t, owner, 1, `no-folder-id-${s.surface}`);
      expectError(await api().assignRes(owner, code!, {}), 400, 'MISSING_FOLDER_ID');
      expectError(await api().assignRes(owner, code!, { folderId: ['fld_x'] }), 400, 'INVALID_FOLDER_ID');
    });

    it('never leaves a link in a folder that a concurrent delete removed', async () => {
      const folder = await api().create(owner, { name: 'Contested' });
      const codes = await makeLinks(t, owner, 12, `contested-${s.surface}`);
      const results = await Promise.all([...codes.map((code) => api().assignRes(owner, code, { folderId: folder.id })), api().del(owner, folder.id)]);
      expect(results.at(-1)!.statusCode).toBe(200);
      for (const res of results.slice(0, -1)) expect([200, 404]).toContain(res.statusCode);
      for (const code of codes) expect(await folderOf(t, owner, code)).toBeNull();
    });
  });

  describe('link lists by folder', () => {
    it('lists the links of one folder, newest first and paged, and with folderId=none those in no folder', async () => {
      const user = await t.createUser('pro');
      const folder = await api().create(user, { name: 'Listed' });
      const codes = await makeLinks(t, user, 5, `list-${s.surface}`);
      for (const code of [codes[0]!, codes[2]!, codes[4]!]) await api().assign(user, code, folder.id);

      expect(await api().linkCodes(user, `?folderId=${folder.id}`)).toEqual([codes[4], codes[2], codes[0]]);
      const page = await api().linksRes(user, `?folderId=${folder.id}&limit=2&offset=0`);
      expect(page.json()).toMatchObject({ pagination: { limit: 2, offset: 0, hasMore: true } });
      expect(await api().linkCodes(user, `?folderId=${folder.id}&limit=2&offset=2`)).toEqual([codes[0]]);
      expect(await api().linkCodes(user, '?folderId=none')).toEqual([codes[3], codes[1]]);
      expect(await api().linkCodes(user, '')).toEqual([...codes].reverse());

      const res = await api().linksRes(user, `?folderId=${folder.id}`);
      for (const link of res.json<{ links: LinkA[] }>().links) expect(link.folderId).toBe(folder.id);
    });

    it('lists an empty folder as no links', async () => {
      const folder = await api().create(owner, { name: 'Empty list' });
      const res = await api().linksRes(owner, `?folderId=${folder.id}`);
      expect(res.json()).toEqual({ links: [], pagination: { limit: 20, offset: 0, hasMore: false, total: 0 } });
    });

    it("answers 404 FOLDER_NOT_FOUND for an unknown folder and for another account's", async () => {
      const theirs = await api().create(other, { name: 'Their list' });
      for (const id of ['fld_unknown', theirs.id, '']) {
        const res = await api().linksRes(owner, `?folderId=${encodeURIComponent(id)}`);
        expectError(res, 404, 'FOLDER_NOT_FOUND', id);
        expect(res.json<{ message: string }>().message).toBe('Folder not found');
      }
    });
  });

  describe('access', () => {
    const routes = (folderId: string, shortPath: string) => [
      { method: 'GET' as const, url: s.base },
      { method: 'POST' as const, url: s.base, payload: { name: 'No key' } },
      { method: 'PATCH' as const, url: `${s.base}/${folderId}`, payload: { name: 'No key' } },
      { method: 'DELETE' as const, url: `${s.base}/${folderId}` },
      { method: 'POST' as const, url: s.assignPath(shortPath), payload: { folderId } },
      { method: 'GET' as const, url: `${s.links}?folderId=${folderId}` },
    ];

    it('answers 401 API_KEY_REQUIRED without a key and 401 INVALID_API_KEY with an unknown one, before reading the body', async () => {
      const folder = await api().create(owner, { name: 'Keyed' });
      const [code] = await makeLinks(t, owner, 1, `keyed-${s.surface}`);
      for (const route of routes(folder.id, code!)) {
        expectError(await t.as(null, route), 401, 'API_KEY_REQUIRED', `${route.method} ${route.url}`);
        expectError(await t.as(`snip_${'A'.repeat(40)}`, route), 401, 'INVALID_API_KEY', `${route.method} ${route.url}`);
      }
      expectError(await t.as(null, { method: 'POST', url: s.base, payload: {} }), 401, 'API_KEY_REQUIRED');
      expect(await api().find(owner, folder.id)).toEqual({ ...folder, linkCount: 0 });
    });

    it('refuses a free account with 403 TIER_REQUIRED', async () => {
      const free = await t.createUser('free');
      for (const route of routes('fld_unknown', 'abcdef')) {
        expectError(await t.as(free, route), 403, 'TIER_REQUIRED', `${route.method} ${route.url}`);
      }
      await t.core.accounts.setTier(free.email, 'pro');
      expect((await api().list(free)).folders).toEqual([]);
    });
  });
});

describe(`The folder limit (${dialectName})`, () => {
  // Free with API access and the default plans: Free allows 5 folders (spec 8.4, Description A).
  const t = useTestApp({ PLANS_FILE: FREE_API_PLANS });

  it.each(SURFACES)('reports the plan limit on $surface, refuses the folder beyond it with 403 FOLDER_LIMIT_REACHED, and allows one again after a delete', async (s) => {
    const api = folderApi(t, s);
    const free = await t.createUser('free');
    const made: FolderObject[] = [];
    for (let i = 1; i <= 5; i++) {
      expect(await api.list(free)).toMatchObject({ limit: 5, canCreate: true });
      made.push(await api.create(free, { name: `Folder ${i}` }));
    }
    expect(await api.list(free)).toEqual({ folders: made, limit: 5, canCreate: false });
    expectError(await api.post(free, { name: 'Sixth' }), 403, 'FOLDER_LIMIT_REACHED');
    expect((await api.list(free)).folders).toHaveLength(5);

    expect((await api.del(free, made[0]!.id)).statusCode).toBe(200);
    expect(await api.list(free)).toMatchObject({ limit: 5, canCreate: true });
    await api.create(free, { name: 'Sixth' });
    expect(await api.list(free)).toMatchObject({ canCreate: false });
  });

  it('creates exactly up to the limit when many creates arrive at once', async () => {
    const api = folderApi(t, SURFACES[0]);
    const free = await t.createUser('free');
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => api.post(free, { name: `Burst ${i}` })));
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    for (const res of results.filter((r) => r.statusCode !== 201)) expectError(res, 403, 'FOLDER_LIMIT_REACHED');
    expect((await api.list(free)).folders).toHaveLength(5);
  });

  it('keeps the folders of an account whose plan drops below them, but allows no new one until it is under the limit', async () => {
    const a = folderApi(t, SURFACES[0]);
    const b = folderApi(t, SURFACES[1]);
    const user = await t.createUser('pro');
    const made: FolderObject[] = [];
    for (let i = 1; i <= 7; i++) made.push(await a.create(user, { name: `Kept ${i}` }));
    expect(await b.list(user)).toMatchObject({ limit: 'unlimited', canCreate: true });

    await t.core.accounts.setTier(user.email, 'free');
    expect(await a.list(user)).toEqual({ folders: made, limit: 5, canCreate: false });
    expect(await b.list(user)).toEqual({ folders: made, limit: 5, canCreate: false });
    expectError(await b.post(user, { name: 'One more' }), 403, 'FOLDER_LIMIT_REACHED');
    expect((await a.patch(user, made[0]!.id, { name: 'Renamed' })).statusCode).toBe(200);
    for (const folder of made.slice(0, 3)) expect((await b.del(user, folder.id)).statusCode).toBe(200);
    expect(await a.list(user)).toMatchObject({ canCreate: true });
    await b.create(user, { name: 'Allowed again' });
  });
});

/** The OpenAPI document describes every folder route with its schemas. */
describe('Folder routes in /openapi.yaml', () => {
  const t = useTestApp();

  it('documents each folder route', async () => {
    const res: LightMyRequestResponse = await t.app.inject({ method: 'GET', url: '/openapi.yaml' });
    for (const p of ['/api/v1/folders', '/api/v1/folders/{folderId}', '/api/v1/links/{shortCode}/folder', '/api/folders', '/api/folders/{folderId}', '/api/link/{short}/folder']) {
      expect(res.body).toContain(`${p}:`);
    }
  });
});
