import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { dialectName, useTestApp, type TestUser } from '../helpers/app.js';
import { expectError } from '../helpers/api-errors.js';
import { linkApi, LINKS_A, type Caller, type CreatedLinkA, type LinkA } from '../helpers/links.js';

/**
 * Namespaces over real HTTP (spec 4.3 `set_namespace`, `delete_namespace`): PUT /api/user/namespace claims one,
 * GET /api/user/namespaces lists the prefixes an account holds, DELETE /api/user/namespaces/{namespace} releases one.
 */

interface NamespaceInfo {
  namespace: string;
  current: boolean;
  linkCount: number;
  createdAt: string;
}
interface NamespaceList {
  current: string | null;
  namespaces: NamespaceInfo[];
}

let unique = 0;
/** A fresh, valid prefix no test shares. */
const fresh = (label: string) => `${label}-${process.pid.toString(36)}${(unique++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

describe(`namespaces: GET /api/user/namespaces, DELETE /api/user/namespaces/{namespace} (${dialectName})`, () => {
  const t = useTestApp();
  const other = t.user('pro');
  const free = t.user('free');
  const links = linkApi<CreatedLinkA, LinkA>(t, LINKS_A);

  const list = (user: Caller) => t.as(user, { method: 'GET', url: '/api/user/namespaces' });
  const listOk = async (user: TestUser): Promise<NamespaceList> => {
    const res = await list(user);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<NamespaceList>();
  };
  const claim = (user: Caller, namespace: string) => t.as(user, { method: 'PUT', url: '/api/user/namespace', payload: { namespace } });
  const claimOk = async (user: TestUser, namespace: string) => {
    const res = await claim(user, namespace);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ namespace: namespace.toLowerCase() });
  };
  const release = (user: Caller, namespace: string): Promise<LightMyRequestResponse> =>
    t.as(user, { method: 'DELETE', url: `/api/user/namespaces/${encodeURIComponent(namespace)}` });
  const releaseOk = async (user: TestUser, namespace: string) => {
    const res = await release(user, namespace);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, namespace: namespace.toLowerCase() });
  };

  it("lists the account's namespace, current, with no links, as the service does", async () => {
    const pro = await t.createUser('pro');
    const body = await listOk(pro);
    expect(body).toEqual({ current: pro.namespace, namespaces: [{ namespace: pro.namespace, current: true, linkCount: 0, createdAt: expect.any(String) }] });
    expect(new Date(body.namespaces[0]!.createdAt).toISOString()).toBe(body.namespaces[0]!.createdAt);
    expect(await t.core.accounts.namespaces(pro.id)).toEqual(body.namespaces);
  });

  it('keeps every prefix claimed, oldest first, counting the links under each (not links without a slug)', async () => {
    const pro = await t.createUser('pro');
    const second = fresh('second');
    await links.create(pro, { url: 'https://example.com/first', customSlug: 'under-first' });
    t.clock.advance(1000);
    await claimOk(pro, second);
    await links.create(pro, { url: 'https://example.com/a', customSlug: 'one' });
    await links.create(pro, { url: 'https://example.com/b', customSlug: 'two' });
    await links.create(pro, { url: 'https://example.com/plain' });
    expect(await listOk(pro)).toEqual({
      current: second,
      namespaces: [
        { namespace: pro.namespace, current: false, linkCount: 1, createdAt: expect.any(String) },
        { namespace: second, current: true, linkCount: 2, createdAt: expect.any(String) },
      ],
    });
    // The profile agrees on the current one.
    expect((await t.as(pro, { method: 'GET', url: '/api/user' })).json()).toMatchObject({ namespace: second });
  });

  it('refuses to release the current namespace (400 NAMESPACE_IN_USE); it stays current', async () => {
    const pro = await t.createUser('pro');
    expectError(await release(pro, pro.namespace!), 400, 'NAMESPACE_IN_USE');
    expectError(await release(pro, pro.namespace!.toUpperCase()), 400, 'NAMESPACE_IN_USE');
    expect(await listOk(pro)).toMatchObject({ current: pro.namespace, namespaces: [{ namespace: pro.namespace, current: true }] });
    expectError(await claim(other, pro.namespace!), 409, 'NAMESPACE_TAKEN');
  });

  it('releases a former namespace without links (any case); anyone may claim it again, the former owner too', async () => {
    const pro = await t.createUser('pro');
    const old = pro.namespace!;
    const next = fresh('next');
    const kept = await links.create(pro, { url: 'https://example.com/kept', customSlug: 'kept' });
    await claimOk(pro, next);
    expectError(await claim(other, old), 409, 'NAMESPACE_TAKEN');
    expect((await links.del(pro, kept.fullPath!)).statusCode).toBe(200);
    await releaseOk(pro, old.toUpperCase());
    expect(await listOk(pro)).toEqual({ current: next, namespaces: [{ namespace: next, current: true, linkCount: 0, createdAt: expect.any(String) }] });
    expectError(await release(pro, old), 404, 'NAMESPACE_NOT_FOUND');

    // Free for anyone: another account claims it and makes links under it.
    const newcomer = await t.createUser('pro');
    await claimOk(newcomer, old);
    const link = await links.create(newcomer, { url: 'https://example.com/newcomer', customSlug: 'mine-now' });
    expect(link.fullPath).toBe(`${old}/mine-now`);
    expectError(await release(pro, old), 404, 'NAMESPACE_NOT_FOUND');
    expectError(await claim(pro, old), 409, 'NAMESPACE_TAKEN');

    // Released again by the newcomer (after switching and deleting its link), the first owner may take it back.
    await claimOk(newcomer, fresh('elsewhere'));
    expectError(await release(newcomer, old), 409, 'NAMESPACE_HAS_LINKS');
    expect((await links.del(newcomer, link.fullPath!)).statusCode).toBe(200);
    await releaseOk(newcomer, old);
    await claimOk(pro, old);
    expect((await listOk(pro)).current).toBe(old);
  });

  it('refuses to release a prefix links still use (409 NAMESPACE_HAS_LINKS) until they are deleted', async () => {
    const pro = await t.createUser('pro');
    const first = pro.namespace!;
    const a = await links.create(pro, { url: 'https://example.com/1', customSlug: 'keep-one' });
    const b = await links.create(pro, { url: 'https://example.com/2', customSlug: 'keep-two' });
    await claimOk(pro, fresh('moved'));
    const refused = await release(pro, first);
    expectError(refused, 409, 'NAMESPACE_HAS_LINKS');
    expect(refused.json<{ message: string }>().message).toContain('2 links');
    // The links keep working under the held prefix.
    expect((await links.visit(a.fullPath!)).statusCode).toBe(302);
    expectError(await claim(other, first), 409, 'NAMESPACE_TAKEN');

    expect((await links.del(pro, a.fullPath!)).statusCode).toBe(200);
    expectError(await release(pro, first), 409, 'NAMESPACE_HAS_LINKS');
    expect((await listOk(pro)).namespaces.find((n) => n.namespace === first)).toMatchObject({ linkCount: 1, current: false });
    expect((await links.del(pro, b.fullPath!)).statusCode).toBe(200);
    await releaseOk(pro, first);
    expect((await listOk(pro)).namespaces.map((n) => n.namespace)).not.toContain(first);
  });

  it("an unknown, malformed or another account's prefix is 404 NAMESPACE_NOT_FOUND, and the owner keeps it", async () => {
    const pro = await t.createUser('pro');
    const owner = await t.createUser('pro');
    const theirs = owner.namespace!;
    await links.create(owner, { url: 'https://example.com/theirs', customSlug: 'theirs' });
    await claimOk(owner, fresh('theirs-now')); // `theirs` is a former namespace of owner's, releasable by owner alone
    for (const name of [theirs, fresh('nobody'), 'a', 'api', 'not valid!']) {
      expectError(await release(pro, name), 404, 'NAMESPACE_NOT_FOUND', name);
    }
    expect((await listOk(owner)).namespaces.map((n) => n.namespace)).toContain(theirs);
    expect((await listOk(pro)).namespaces.map((n) => n.namespace)).toEqual([pro.namespace]);
    await expect(t.core.accounts.releaseNamespace(pro.id, theirs)).rejects.toMatchObject({ status: 404, code: 'NAMESPACE_NOT_FOUND' });
  });

  it('releases each prefix once when asked in parallel', async () => {
    const pro = await t.createUser('pro');
    const old = pro.namespace!;
    const kept = await links.create(pro, { url: 'https://example.com/kept', customSlug: 'kept' });
    await claimOk(pro, fresh('parallel'));
    expect((await links.del(pro, kept.fullPath!)).statusCode).toBe(200);
    const answers = await Promise.all(Array.from({ length: 5 }, () => release(pro, old)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 404, 404, 404, 404]);
  });

  it('the service answers what the MCP tools need: the released name, and the same errors', async () => {
    const pro = await t.createUser('pro');
    const old = pro.namespace!;
    const kept = await links.create(pro, { url: 'https://example.com/kept', customSlug: 'kept' });
    await t.core.accounts.claimNamespace(pro.id, fresh('svc'));
    expect((await links.del(pro, kept.fullPath!)).statusCode).toBe(200);
    await expect(t.core.accounts.releaseNamespace(pro.id, `  ${old.toUpperCase()} `)).resolves.toEqual({ namespace: old });
    const current = (await t.core.accounts.namespaces(pro.id)).find((n) => n.current)!;
    await expect(t.core.accounts.releaseNamespace(pro.id, current.namespace)).rejects.toMatchObject({ status: 400, code: 'NAMESPACE_IN_USE' });
  });

  it('needs a key (401) and the Pro plan (free: 403 TIER_REQUIRED)', async () => {
    expectError(await list(null), 401, 'API_KEY_REQUIRED');
    expectError(await release(null, 'anything'), 401, 'API_KEY_REQUIRED');
    expectError(await list(free), 403, 'TIER_REQUIRED');
    expectError(await release(free, free.namespace!), 403, 'TIER_REQUIRED');
  });
});
