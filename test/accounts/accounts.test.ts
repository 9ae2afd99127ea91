import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dialectName, useTestApp, type TestUser } from '../helpers/app.js';
import { expectError } from '../helpers/api-errors.js';

interface KeyInfo {
  id: string;
  prefix: string;
  createdAt: string;
}

interface CreatedKey extends KeyInfo {
  apiKey: string;
}

interface Profile {
  id: string;
  email: string;
  tier: string;
  namespace: string | null;
  createdAt: string;
  limits: Record<string, unknown>;
}

const KEY_PATTERN = /^snip_[A-Za-z0-9]{32,}$/;
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const unique = (base: string): string => `${base}-${randomBytes(3).toString('hex')}`;

describe(`Description B account groups (${dialectName})`, () => {
  const t = useTestApp();

  const profileOf = async (key: TestUser | string): Promise<Profile> => {
    const res = await t.as(key, { method: 'GET', url: '/api/user' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Profile>();
  };
  const keysOf = async (user: TestUser | string): Promise<KeyInfo[]> => {
    const res = await t.as(user, { method: 'GET', url: '/api/keys' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ keys: KeyInfo[] }>().keys;
  };
  const createKey = async (user: TestUser | string): Promise<CreatedKey> => {
    const res = await t.as(user, { method: 'POST', url: '/api/keys' });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<CreatedKey>();
  };
  const claim = (user: TestUser | string, namespace: unknown) =>
    t.as(user, { method: 'PUT', url: '/api/user/namespace', payload: { namespace } });
  const createLink = (user: TestUser | string, body: Record<string, unknown>) =>
    t.as(user, { method: 'POST', url: '/api/v1/links', payload: body });

  describe('GET /api/user', () => {
    it.each(['free', 'pro', 'builder', 'enterprise'])('answers the %s caller its profile and plan limits', async (tier) => {
      const user = await t.createUser(tier);
      const res = await t.as(user, { method: 'GET', url: '/api/user' });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<Profile>();
      expect(body).toEqual({
        id: user.id,
        email: user.email,
        tier,
        namespace: user.namespace,
        role: 'member',
        createdAt: expect.any(String),
        limits: expect.objectContaining({ apiAccess: tier !== 'free', customSlugs: tier !== 'free' }),
      });
      expect(Number.isNaN(Date.parse(body.createdAt))).toBe(false);
      // The body never carries a key or its hash.
      expect(res.body).not.toContain(user.apiKey);
      expect(res.body).not.toContain(sha256(user.apiKey));
    });

    it('shows different limits for different plans', async () => {
      const free = await profileOf(await t.createUser('free'));
      const pro = await profileOf(await t.createUser('pro'));
      const builder = await profileOf(await t.createUser('builder'));
      expect(free.limits).not.toEqual(pro.limits);
      expect(pro.limits).not.toEqual(builder.limits);
    });

    it('answers 401 API_KEY_REQUIRED without a key', async () => {
      expectError(await t.as(null, { method: 'GET', url: '/api/user' }), 401, 'API_KEY_REQUIRED');
    });

    it.each([
      ['a well-formed unknown key', `snip_${'A1b2C3d4'.repeat(5)}`],
      ['a malformed key', 'not-a-key'],
      ['a key of the wrong service', `other_${'a'.repeat(40)}`],
    ])('answers 401 INVALID_API_KEY for %s', async (_label, key) => {
      expectError(await t.as(key, { method: 'GET', url: '/api/user' }), 401, 'INVALID_API_KEY');
    });
  });

  describe('/api/keys', () => {
    it.each([
      ['GET', '/api/keys'],
      ['POST', '/api/keys'],
      ['DELETE', '/api/keys/key_whatever'],
      ['PUT', '/api/user/namespace'],
    ] as const)('%s %s needs a key (401 API_KEY_REQUIRED / INVALID_API_KEY)', async (method, url) => {
      const payload = method === 'PUT' ? { namespace: 'whatever-ns' } : undefined;
      expectError(await t.as(null, { method, url, ...(payload ? { payload } : {}) }), 401, 'API_KEY_REQUIRED');
      expectError(await t.as(`snip_${'Z'.repeat(40)}`, { method, url, ...(payload ? { payload } : {}) }), 401, 'INVALID_API_KEY');
    });

    it('lists the caller\'s keys by prefix and creation time, never their secret values', async () => {
      const user = await t.createUser('pro');
      const res = await t.as(user, { method: 'GET', url: '/api/keys' });
      expect(res.statusCode, res.body).toBe(200);
      const keys = res.json<{ keys: KeyInfo[] }>().keys;
      expect(keys).toHaveLength(1);
      const [key] = keys;
      // This very request used the key: its last use is now (to the minute); it was made without a name.
      expect(key).toEqual({ id: expect.any(String), prefix: expect.stringMatching(/^snip_/), createdAt: expect.any(String), name: null, lastUsedAt: expect.any(String) });
      expect(Number.isNaN(Date.parse(key!.createdAt))).toBe(false);
      // The prefix identifies the key without revealing it.
      expect(user.apiKey.startsWith(key!.prefix)).toBe(true);
      expect(key!.prefix.length).toBeLessThan(user.apiKey.length - 16);
      expect(res.body).not.toContain(user.apiKey);
      expect(res.body).not.toContain(sha256(user.apiKey));
    });

    it('creates a key (201), shown once, that works at once alongside the old one', async () => {
      const user = await t.createUser('pro');
      const created = await createKey(user);
      expect(created).toEqual({
        id: expect.any(String),
        prefix: expect.stringMatching(/^snip_/),
        createdAt: expect.any(String),
        name: null,
        lastUsedAt: null,
        apiKey: expect.stringMatching(KEY_PATTERN),
      });
      expect(created.apiKey.startsWith(created.prefix)).toBe(true);
      expect(created.apiKey).not.toBe(user.apiKey);

      // It works immediately, as the same account, on the account routes and on the API.
      expect((await profileOf(created.apiKey)).id).toBe(user.id);
      const link = await createLink(created.apiKey, { url: 'https://example.com/new-key' });
      expect(link.statusCode, link.body).toBe(201);
      // The old key still works too.
      expect((await profileOf(user)).id).toBe(user.id);

      // The list now holds both, by prefix only: the new value is never shown again.
      const list = await t.as(user, { method: 'GET', url: '/api/keys' });
      const keys = list.json<{ keys: KeyInfo[] }>().keys;
      expect(keys.map((k) => k.id)).toContain(created.id);
      expect(keys).toHaveLength(2);
      expect(keys.find((k) => k.id === created.id)).toEqual({ id: created.id, prefix: created.prefix, createdAt: created.createdAt, name: null, lastUsedAt: expect.any(String) });
      expect(list.body).not.toContain(created.apiKey);
      expect(list.body).not.toContain(sha256(created.apiKey));
      for (const k of keys) expect(Object.keys(k).sort()).toEqual(['createdAt', 'id', 'lastUsedAt', 'name', 'prefix']);
      const named = await t.as(user, { method: 'POST', url: '/api/keys', payload: { name: '  Deploy script ' } });
      expect(named.json()).toMatchObject({ name: 'Deploy script', lastUsedAt: null });
      for (const name of ['', ' ', 'x'.repeat(101)]) {
        const refused = await t.as(user, { method: 'POST', url: '/api/keys', payload: { name } });
        expect([refused.statusCode, refused.json().code]).toEqual([400, 'INVALID_KEY_NAME']);
      }
    });

    it('gives every new key a distinct value', async () => {
      const user = await t.createUser('builder');
      const values = new Set<string>([user.apiKey]);
      for (let i = 0; i < 5; i++) values.add((await createKey(user)).apiKey);
      expect(values.size).toBe(6);
      expect(await keysOf(user)).toHaveLength(6);
    });

    it('revokes a key: it then gets 401 INVALID_API_KEY everywhere, the others keep working', async () => {
      const user = await t.createUser('pro');
      const extra = await createKey(user);
      const del = await t.as(user, { method: 'DELETE', url: `/api/keys/${extra.id}` });
      expect(del.statusCode, del.body).toBe(200);
      expect(del.json()).toEqual({ success: true });

      expectError(await t.as(extra.apiKey, { method: 'GET', url: '/api/user' }), 401, 'INVALID_API_KEY');
      expectError(await t.as(extra.apiKey, { method: 'GET', url: '/api/keys' }), 401, 'INVALID_API_KEY');
      expectError(await createLink(extra.apiKey, { url: 'https://example.com/revoked' }), 401, 'INVALID_API_KEY');

      expect((await profileOf(user)).id).toBe(user.id);
      expect((await keysOf(user)).map((k) => k.id)).not.toContain(extra.id);
      expect(await keysOf(user)).toHaveLength(1);

      // Revoking it again: there is no such active key any more.
      expectError(await t.as(user, { method: 'DELETE', url: `/api/keys/${extra.id}` }), 404, 'KEY_NOT_FOUND');
    });

    it('answers 404 KEY_NOT_FOUND for another account\'s key id, and that key keeps working', async () => {
      const owner = await t.createUser('pro');
      const intruder = await t.createUser('pro');
      const [ownerKey] = await keysOf(owner);
      const res = await t.as(intruder, { method: 'DELETE', url: `/api/keys/${ownerKey!.id}` });
      expectError(res, 404, 'KEY_NOT_FOUND');
      expect(res.body).not.toContain(ownerKey!.prefix);

      expect((await profileOf(owner)).id).toBe(owner.id);
      expect((await keysOf(owner)).map((k) => k.id)).toEqual([ownerKey!.id]);
      // The intruder's own list never shows the owner's key.
      expect((await keysOf(intruder)).map((k) => k.id)).not.toContain(ownerKey!.id);
    });

    it('answers 404 KEY_NOT_FOUND for an unknown key id', async () => {
      const user = await t.createUser('pro');
      expectError(await t.as(user, { method: 'DELETE', url: '/api/keys/key_doesnotexist' }), 404, 'KEY_NOT_FOUND');
      expect(await keysOf(user)).toHaveLength(1);
    });

    it('lets a free account manage its keys', async () => {
      const free = await t.createUser('free');
      const created = await createKey(free);
      expect(created.apiKey).toMatch(KEY_PATTERN);
      expect((await profileOf(created.apiKey)).id).toBe(free.id);
      expect(await keysOf(free)).toHaveLength(2);
      const del = await t.as(free, { method: 'DELETE', url: `/api/keys/${created.id}` });
      expect(del.statusCode, del.body).toBe(200);
      expectError(await t.as(created.apiKey, { method: 'GET', url: '/api/user' }), 401, 'INVALID_API_KEY');
      // ...while the link API itself stays closed to it.
      expectError(await createLink(free, { url: 'https://example.com/free' }), 403, 'TIER_REQUIRED');
    });
  });

  describe('PUT /api/user/namespace', () => {
    it('claims a new namespace: new custom slugs go under it, old links keep their paths and still redirect', async () => {
      const user = await t.createUser('pro');
      const oldNs = user.namespace!;
      expect(oldNs).toBeTruthy();
      const old = await createLink(user, { url: 'https://example.com/old-ns', customSlug: 'Old-Slug' });
      expect(old.statusCode, old.body).toBe(201);
      expect(old.json<{ fullPath: string }>().fullPath).toBe(`${oldNs}/Old-Slug`);

      const wanted = unique('Acme-Brand');
      const res = await claim(user, wanted);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ namespace: wanted.toLowerCase() });
      const newNs = wanted.toLowerCase();
      expect((await profileOf(user)).namespace).toBe(newNs);

      const fresh = await createLink(user, { url: 'https://example.com/new-ns', customSlug: 'New-Slug' });
      expect(fresh.statusCode, fresh.body).toBe(201);
      expect(fresh.json()).toMatchObject({ namespace: newNs, fullPath: `${newNs}/New-Slug`, shortUrl: `http://snip.test/${newNs}/New-Slug` });

      // The old link is where it was.
      const oldDetails = await t.as(user, { method: 'GET', url: `/api/v1/links/${encodeURIComponent(`${oldNs}/Old-Slug`)}` });
      expect(oldDetails.statusCode, oldDetails.body).toBe(200);
      expect(oldDetails.json()).toMatchObject({ namespace: oldNs, fullPath: `${oldNs}/Old-Slug` });

      const visitOld = await t.app.inject({ method: 'GET', url: `/${oldNs}/Old-Slug` });
      expect(visitOld.statusCode).toBe(302);
      expect(visitOld.headers.location).toBe('https://example.com/old-ns');
      const visitNew = await t.app.inject({ method: 'GET', url: `/${newNs}/New-Slug` });
      expect(visitNew.statusCode).toBe(302);
      expect(visitNew.headers.location).toBe('https://example.com/new-ns');
      // The old link did not move under the new namespace.
      expect((await t.app.inject({ method: 'GET', url: `/${newNs}/Old-Slug` })).statusCode).toBe(404);
    });

    it('keeps a namespace the account used before away from other accounts while its links use it, so old paths stay its own', async () => {
      const user = await t.createUser('pro');
      const oldNs = user.namespace!;
      expect((await createLink(user, { url: 'https://example.com/kept', customSlug: 'Kept' })).statusCode).toBe(201);
      expect((await claim(user, unique('moved-on'))).statusCode).toBe(200);
      const other = await t.createUser('pro');
      expectError(await claim(other, oldNs), 409, 'NAMESPACE_TAKEN');
      // The account itself may return to it.
      const back = await claim(user, oldNs);
      expect(back.statusCode, back.body).toBe(200);
      expect((await profileOf(user)).namespace).toBe(oldNs);
    });

    it.each(['ab', 'has space', '-leading', 'trailing-', 'a'.repeat(31), 'a/b', 'dots.not.allowed', 'ümlaut', ''])(
      'refuses %j with 400 INVALID_NAMESPACE and keeps the old one',
      async (namespace) => {
        const user = await t.createUser('pro');
        expectError(await claim(user, namespace), 400, 'INVALID_NAMESPACE');
        expect((await profileOf(user)).namespace).toBe(user.namespace);
      },
    );

    it.each(['api', 'API', 'mcp', 'healthz', 'dashboard'])('refuses the reserved %j with 400 RESERVED_NAMESPACE', async (namespace) => {
      const user = await t.createUser('pro');
      expectError(await claim(user, namespace), 400, 'RESERVED_NAMESPACE');
      expect((await profileOf(user)).namespace).toBe(user.namespace);
    });

    it('refuses a namespace another account holds with 409 NAMESPACE_TAKEN, whatever its case', async () => {
      const holder = await t.createUser('pro');
      const user = await t.createUser('pro');
      expectError(await claim(user, holder.namespace), 409, 'NAMESPACE_TAKEN');
      expectError(await claim(user, holder.namespace!.toUpperCase()), 409, 'NAMESPACE_TAKEN');
      expect((await profileOf(user)).namespace).toBe(user.namespace);
      expect((await profileOf(holder)).namespace).toBe(holder.namespace);
    });

    it('gives a fresh namespace to exactly one of several accounts claiming it at the same time', async () => {
      const users: TestUser[] = [];
      for (let i = 0; i < 6; i++) users.push(await t.createUser('pro'));
      const wanted = unique('contested');
      const results = await Promise.all(users.map((u) => claim(u, wanted)));
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      for (const r of results.filter((r) => r.statusCode === 409)) expectError(r, 409, 'NAMESPACE_TAKEN');
      const profiles = await Promise.all(users.map((u) => profileOf(u)));
      expect(profiles.filter((p) => p.namespace === wanted)).toHaveLength(1);
    });

    it('answers a free account 403 TIER_REQUIRED and leaves its namespace alone', async () => {
      const free = await t.createUser('free');
      expectError(await claim(free, unique('free-brand')), 403, 'TIER_REQUIRED');
      expect((await profileOf(free)).namespace).toBe(free.namespace);
    });
  });

  describe('tier changes', () => {
    it('apply on the next request, without restart', async () => {
      const user = await t.createUser('pro');
      const first = await createLink(user, { url: 'https://example.com/tier-1' });
      expect(first.statusCode, first.body).toBe(201);

      await t.core.accounts.setTier(user.email, 'free');
      expectError(await createLink(user, { url: 'https://example.com/tier-2' }), 403, 'TIER_REQUIRED');
      expectError(await t.as(user, { method: 'GET', url: '/api/v1/links' }), 403, 'TIER_REQUIRED');
      expectError(await claim(user, unique('tier-ns')), 403, 'TIER_REQUIRED');
      // The account itself stays reachable, and shows the new tier.
      const asFree = await profileOf(user);
      expect(asFree.tier).toBe('free');
      expect(asFree.limits).toMatchObject({ apiAccess: false });

      await t.core.accounts.setTier(user.email, 'pro');
      const again = await createLink(user, { url: 'https://example.com/tier-3' });
      expect(again.statusCode, again.body).toBe(201);
      expect((await profileOf(user)).tier).toBe('pro');
    });

    it('apply to every key of the account', async () => {
      const user = await t.createUser('builder');
      const second = await createKey(user);
      await t.core.accounts.setTier(user.email, 'free');
      expectError(await createLink(second.apiKey, { url: 'https://example.com/k2' }), 403, 'TIER_REQUIRED');
      await t.core.accounts.setTier(user.email, 'enterprise');
      const res = await createLink(second.apiKey, { url: 'https://example.com/k2' });
      expect(res.statusCode, res.body).toBe(201);
      expect((await profileOf(second.apiKey)).tier).toBe('enterprise');
    });
  });
});
