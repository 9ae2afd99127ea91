import { describe, expect, it } from 'vitest';
import { MAX_OLD_NAMESPACES } from '../../src/accounts/namespace-rules.js';
import { expectError } from '../helpers/api-errors.js';
import { dialectName, useTestApp, type TestUser } from '../helpers/app.js';
import { linkApi, LINKS_A, type CreatedLinkA, type LinkA } from '../helpers/links.js';

/**
 * Attack (issue 16, class 7): namespace hoarding. Every change of namespace used to keep the old prefix for the
 * account for good, with no cap (one account held six, `well-known` among them). Now an old prefix stays the
 * account's only while links use it (so those links keep their paths and nobody can add links beside them), at
 * most MAX_OLD_NAMESPACES of them, and names the service uses or may use at the top level cannot be claimed.
 */

let unique = 0;
const fresh = (label: string) => `${label}-${process.pid.toString(36)}${(unique++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

interface NamespaceList {
  current: string | null;
  namespaces: { namespace: string; current: boolean; linkCount: number }[];
}

describe(`namespace hoarding (${dialectName})`, () => {
  const t = useTestApp();
  const links = linkApi<CreatedLinkA, LinkA>(t, LINKS_A);

  const claim = (user: TestUser, namespace: string) => t.as(user, { method: 'PUT', url: '/api/user/namespace', payload: { namespace } });
  const claimOk = async (user: TestUser, namespace: string) => {
    const res = await claim(user, namespace);
    expect(res.statusCode, res.body).toBe(200);
  };
  const held = async (user: TestUser): Promise<NamespaceList> => {
    const res = await t.as(user, { method: 'GET', url: '/api/user/namespaces' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<NamespaceList>();
  };
  const heldNames = async (user: TestUser) => (await held(user)).namespaces.map((n) => n.namespace).sort();

  it.each([
    'well-known', 'Well-Known', 'app', 'api', 'mcp', 'static', 'assets', 'docs', 'openapi', 'healthz', 'admin', 'www', 'favicon',
    'robots', 'sitemap', 'dashboard', 'login', 'stats', 'link-scan', 'security', 'apple-touch-icon',
  ])('refuses the reserved %j with 400 RESERVED_NAMESPACE and keeps the current namespace', async (name) => {
    const user = await t.createUser('pro');
    expectError(await claim(user, name), 400, 'RESERVED_NAMESPACE');
    expect((await held(user)).current).toBe(user.namespace);
  });

  it("the service's own top-level paths answer as before: no namespace can shadow them", async () => {
    for (const url of ['/healthz', '/openapi.yaml', '/docs/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeLessThan(400);
    }
  });

  it('changing namespace again and again keeps no old prefix without links; others may claim them at once', async () => {
    const user = await t.createUser('pro');
    const other = await t.createUser('pro');
    const names = [user.namespace!];
    for (let i = 0; i < 8; i++) {
      const next = fresh('hop');
      await claimOk(user, next);
      names.push(next);
      expect(await heldNames(user)).toEqual([next]);
    }
    await claimOk(other, names[0]!);
    await claimOk(other, names[4]!);
  });

  it(`keeps at most ${MAX_OLD_NAMESPACES} old prefixes with links; the next change is 409 NAMESPACE_HAS_LINKS until one is emptied`, async () => {
    const user = await t.createUser('pro');
    const rival = await t.createUser('pro');
    const made: { prefix: string; link: CreatedLinkA }[] = [];
    for (let i = 0; i < MAX_OLD_NAMESPACES; i++) {
      made.push({ prefix: (await held(user)).current!, link: await links.create(user, { url: `https://example.com/old-${i}`, customSlug: `old-${i}` }) });
      await claimOk(user, fresh('keep'));
    }
    const current = (await held(user)).current!;
    expect((await held(user)).namespaces).toHaveLength(MAX_OLD_NAMESPACES + 1);

    // The current prefix without links may still be swapped for another: it is not kept.
    const swapped = fresh('swap');
    await claimOk(user, swapped);
    expect(await heldNames(user)).not.toContain(current);

    // With a link under the current prefix, one more change would keep a fourth old prefix: refused.
    await links.create(user, { url: 'https://example.com/now', customSlug: 'now' });
    const refused = await claim(user, fresh('one-too-many'));
    expectError(refused, 409, 'NAMESPACE_HAS_LINKS');
    expect(refused.json<{ message: string }>().message).toContain(made[0]!.prefix);
    expect((await held(user)).current).toBe(swapped);
    expect((await held(user)).namespaces).toHaveLength(MAX_OLD_NAMESPACES + 1);

    // Every old prefix still resolves for its links, and stays away from other accounts.
    for (const { prefix, link } of made) {
      expect(link.fullPath).toBe(`${prefix}/${link.fullPath!.split('/')[1]}`);
      expect((await links.visit(link.fullPath!)).statusCode).toBe(302);
      expectError(await claim(rival, prefix), 409, 'NAMESPACE_TAKEN');
    }

    // Once the oldest prefix's link is deleted, the change goes through and that prefix is released by it.
    expect((await links.del(user, made[0]!.link.fullPath!)).statusCode).toBe(200);
    const next = fresh('next');
    await claimOk(user, next);
    const after = await heldNames(user);
    expect(after).toHaveLength(MAX_OLD_NAMESPACES + 1);
    expect(after).not.toContain(made[0]!.prefix);
    expect(after).toEqual([...made.slice(1).map((m) => m.prefix), swapped, next].sort());
    await claimOk(rival, made[0]!.prefix);
  });

  it('an old prefix whose links still exist resolves for them after any number of later changes', async () => {
    const user = await t.createUser('pro');
    const first = user.namespace!;
    const link = await links.create(user, { url: 'https://example.com/kept-path', customSlug: 'Kept-Path' });
    for (let i = 0; i < 5; i++) await claimOk(user, fresh('later'));
    const visit = await links.visit(link.fullPath!);
    expect(visit.statusCode).toBe(302);
    expect(visit.headers.location).toBe('https://example.com/kept-path');
    expect((await held(user)).namespaces.find((n) => n.namespace === first)).toMatchObject({ current: false, linkCount: 1 });
    expect(await heldNames(user)).toHaveLength(2);
  });

  it('a former namespace can be claimed back by its account while it is still held', async () => {
    const user = await t.createUser('pro');
    const first = user.namespace!;
    await links.create(user, { url: 'https://example.com/back', customSlug: 'back' });
    const second = fresh('second');
    await claimOk(user, second);
    await claimOk(user, first);
    // `second` had no links: going back released it.
    expect(await heldNames(user)).toEqual([first]);
  });
});
