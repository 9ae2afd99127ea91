import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createSnipClient, type SnipClient } from '../../client/index.js';
import { dialectName, useTestApp, type BlockApp, type TestUser } from '../helpers/app.js';

/**
 * A tag as such, across the account's links: PATCH and DELETE /api/v1/tags/{tag} (A) and /api/tags/{tag} (B), over
 * real HTTP through Snip's typed client, as the dashboard's tags page calls them.
 */

/** The ApiError a call rejects with (fails the test when it resolves or rejects with anything else). */
async function refusal(call: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await call.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

const path = (tag: string) => ({ params: { path: { tag } } });
const link = (shortPath: string) => ({ params: { path: { shortPath } } });

/** One description's tag calls, the same shapes on both. */
const SURFACES = {
  A: (snip: SnipClient) => ({
    rename: (tag: string, name: string) => snip.patch('/api/v1/tags/{tag}', { ...path(tag), body: { name } }),
    remove: (tag: string) => snip.delete('/api/v1/tags/{tag}', path(tag)),
    list: async () => (await snip.get('/api/v1/tags')).tags,
    tag: (shortPath: string, tag: string) => snip.post('/api/v1/links/{shortPath}/tags', { ...link(shortPath), body: { tag } }),
    tagsOf: async (shortPath: string) => (await snip.get('/api/v1/links/{shortPath}', link(shortPath))).tags,
  }),
  B: (snip: SnipClient) => ({
    rename: (tag: string, name: string) => snip.patch('/api/tags/{tag}', { ...path(tag), body: { name } }),
    remove: (tag: string) => snip.delete('/api/tags/{tag}', path(tag)),
    list: async () => (await snip.get('/api/tags')).tags,
    tag: (shortPath: string, tag: string) => snip.post('/api/links/{shortPath}/tags', { ...link(shortPath), body: { tag } }),
    tagsOf: async (shortPath: string) => (await snip.get('/api/links/{shortPath}', link(shortPath))).tags,
  }),
};

describe.each(['A', 'B'] as const)(`Renaming and deleting a tag on description %s (${dialectName})`, (surface) => {
  const t: BlockApp = useTestApp();
  const owner = t.user('pro');
  const other = t.user('pro');
  let baseUrl = '';
  const api = (user: TestUser) => SURFACES[surface](createSnipClient({ baseUrl, apiKey: user.apiKey }));
  let serial = 0;

  /** A new link of `user`'s carrying `tags`; answers its short code. */
  async function tagged(user: TestUser, ...tags: string[]): Promise<string> {
    serial += 1;
    const created = await createSnipClient({ baseUrl, apiKey: user.apiKey }).post('/api/v1/links', { body: { url: `https://example.com/tagged/${serial}` } });
    for (const tag of tags) await api(user).tag(created.shortCode, tag);
    return created.shortCode;
  }

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });

  it('renames a tag, named in any case, on every link carrying it, and on no other account', async () => {
    const first = await tagged(owner, 'promo', 'keep');
    const second = await tagged(owner, 'Promo');
    const others = await tagged(other, 'promo');
    expect(await api(owner).rename('PROMO', '  Spring  sale ')).toEqual({ tag: 'Spring sale', linkCount: 2 });
    expect(await api(owner).tagsOf(first)).toEqual(['keep', 'Spring sale']);
    expect(await api(owner).tagsOf(second)).toEqual(['Spring sale']);
    const listed = await api(owner).list();
    expect(listed.find((t) => t.tag === 'Spring sale')).toEqual({ tag: 'Spring sale', linkCount: 2 });
    expect(listed.some((t) => t.tag.toLowerCase() === 'promo')).toBe(false);
    expect(await api(other).tagsOf(others)).toEqual(['promo']);
    // Renamed again, back and forth: the old name is free once no link carries it.
    expect(await api(owner).rename('spring sale', 'promo')).toEqual({ tag: 'promo', linkCount: 2 });
    await api(owner).rename('promo', 'Spring sale');
  });

  it('respells a tag in another case: every link then writes it the new way', async () => {
    const a = await tagged(owner, 'news');
    const b = await tagged(owner, 'NEWS');
    expect(await api(owner).rename('news', 'News')).toEqual({ tag: 'News', linkCount: 2 });
    expect(await api(owner).tagsOf(a)).toEqual(['News']);
    expect(await api(owner).tagsOf(b)).toEqual(['News']);
  });

  it('refuses a name another tag has with 409 TAG_EXISTS, in words, and changes nothing', async () => {
    const a = await tagged(owner, 'red');
    const b = await tagged(owner, 'blue');
    const error = await refusal(api(owner).rename('red', 'Blue'));
    expect([error.status, error.code]).toEqual([409, 'TAG_EXISTS']);
    expect(error.message).toBe('You already have a tag "Blue": choose another name');
    expect(await api(owner).tagsOf(a)).toEqual(['red']);
    expect(await api(owner).tagsOf(b)).toEqual(['blue']);
  });

  it.each([
    ['', 'INVALID_NAME'],
    ['   ', 'INVALID_NAME'],
    ['no!', 'INVALID_NAME'],
    ['x'.repeat(31), 'INVALID_NAME'],
  ])('refuses the new name %j with 400 %s, saying what a tag is', async (name, code) => {
    const a = await tagged(owner, 'bad-name');
    const error = await refusal(api(owner).rename('bad-name', name));
    expect([error.status, error.code]).toEqual([400, code]);
    expect(error.message).toBe('A tag is 1-30 characters: letters, digits, spaces, hyphens and underscores');
    expect(await api(owner).tagsOf(a)).toEqual(['bad-name']);
    await api(owner).remove('bad-name');
  });

  it('refuses a rename without a name with 400 MISSING_NAME', async () => {
    await tagged(owner, 'unnamed');
    const snip = createSnipClient({ baseUrl, apiKey: owner.apiKey });
    const where = surface === 'A' ? '/api/v1/tags/{tag}' : '/api/tags/{tag}';
    // The typed client insists on a name; the raw call sends none.
    const { response, error } = await snip.raw.PATCH(where, { ...path('unnamed'), body: {} as { name: string } });
    expect([response.status, (error as { code?: string }).code]).toEqual([400, 'MISSING_NAME']);
  });

  it('answers 404 TAG_NOT_FOUND for a tag none of the caller\'s links carries, even one another account uses', async () => {
    await tagged(other, 'theirs');
    for (const call of [() => api(owner).rename('theirs', 'mine'), () => api(owner).remove('theirs'), () => api(owner).rename('nowhere', 'x')]) {
      const error = await refusal(call());
      expect([error.status, error.code]).toEqual([404, 'TAG_NOT_FOUND']);
      expect(error.message).toMatch(/^None of your links carries the tag "(theirs|nowhere)"$/);
    }
    expect((await api(other).list()).find((t) => t.tag === 'theirs')).toEqual({ tag: 'theirs', linkCount: 1 });
  });

  it('answers 400 INVALID_TAG for a path that is no tag', async () => {
    for (const call of [() => api(owner).rename('no!', 'fine'), () => api(owner).remove('no!')]) {
      const error = await refusal(call());
      expect([error.status, error.code]).toEqual([400, 'INVALID_TAG']);
    }
  });

  it('deletes a tag, named in any case, from every link carrying it; the links stay, other accounts keep theirs', async () => {
    const a = await tagged(owner, 'old', 'stays');
    const b = await tagged(owner, 'OLD');
    const others = await tagged(other, 'old');
    expect(await api(owner).remove('Old')).toEqual({ tag: 'Old', linkCount: 2 });
    expect(await api(owner).tagsOf(a)).toEqual(['stays']);
    expect(await api(owner).tagsOf(b)).toEqual([]);
    expect((await api(owner).list()).some((t) => t.tag.toLowerCase() === 'old')).toBe(false);
    expect(await api(other).tagsOf(others)).toEqual(['old']);
    const again = await refusal(api(owner).remove('old'));
    expect([again.status, again.code]).toEqual([404, 'TAG_NOT_FOUND']);
  });

  it('is behind API access like the other tag routes: a free account gets 403', async () => {
    const free = await t.createUser('free');
    const error = await refusal(api(free).rename('any', 'other'));
    expect(error.status).toBe(403);
  });
});
