import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PENDING_CLAIM_TTL_MS } from '../../src/domains/rules.js';
import { expectError } from '../helpers/api-errors.js';
import { dialectName, useTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { startTxtServer, type TxtServer } from '../helpers/dns-txt.js';
import { Clients, listenMcp, refused } from '../helpers/mcp.js';

/**
 * Attack (issue 16, class 6): domain squatting. An account adds someone else's hostname and never verifies it;
 * before, the pending claim owned the name and the real owner got 409 DOMAIN_TAKEN. Now a pending claim owns
 * nothing: any account may hold one, the first to publish its own TXT record and verify owns the hostname, the
 * others' pending claims go, and pending claims expire.
 */

const DOMAINS = '/api/user/domains';

interface AddedDomain {
  domain: string;
  status: string;
  verificationToken: string;
  txtRecord: { name: string; type: string; value: string };
}

let dns: TxtServer;
beforeAll(async () => {
  dns = await startTxtServer();
});
afterAll(async () => {
  await dns?.close();
});

const withDns = (): Record<string, string> => ({
  get DNS_RESOLVER() {
    return dns.resolver;
  },
});

let sequence = 0;
const fresh = (label = 'brand'): string => `${label}-${++sequence}-${process.pid.toString(36)}.squat-target.com`;

function domainApi(t: TestApp) {
  const one = (domain: string) => `${DOMAINS}/${encodeURIComponent(domain)}`;
  const api = {
    post: (user: TestUser, domain: string) => t.as(user, { method: 'POST', url: DOMAINS, payload: { domain } }),
    async add(user: TestUser, domain: string): Promise<AddedDomain> {
      const res = await api.post(user, domain);
      expect(res.statusCode, res.body).toBe(201);
      return res.json<AddedDomain>();
    },
    async names(user: TestUser): Promise<string[]> {
      const res = await t.as(user, { method: 'GET', url: DOMAINS });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ domains: { domain: string }[] }>().domains.map((d) => d.domain).sort();
    },
    async status(user: TestUser, domain: string): Promise<string | undefined> {
      const res = await t.as(user, { method: 'GET', url: DOMAINS });
      return res.json<{ domains: { domain: string; status: string }[] }>().domains.find((d) => d.domain === domain)?.status;
    },
    verify: (user: TestUser, domain: string): Promise<LightMyRequestResponse> => t.as(user, { method: 'GET', url: `${one(domain)}/verify` }),
    activate: (user: TestUser, domain: string) => t.as(user, { method: 'POST', url: `${one(domain)}/activate` }),
    del: (user: TestUser, domain: string) => t.as(user, { method: 'DELETE', url: one(domain) }),
    check: (domain: string) => t.as(null, { method: 'GET', url: `/api/domains/check/${encodeURIComponent(domain)}` }),
  };
  return api;
}

describe(`domain squatting: a pending claim never blocks another account (${dialectName})`, () => {
  const t = useTestApp(withDns());

  it('the real owner adds a name a squatter left pending, verifies first and owns it; the squatter loses its claim', async () => {
    const api = domainApi(t);
    const squatter = await t.createUser('pro');
    const owner = await t.createUser('pro');
    const domain = fresh();

    const squat = await api.add(squatter, domain);
    expect(squat.status).toBe('pending_txt');
    expect((await api.check(domain)).json()).toEqual({ hostname: domain, available: true });

    const claim = await api.add(owner, domain.toUpperCase());
    expect(claim).toMatchObject({ domain, status: 'pending_txt', txtRecord: { name: `_snip-verify.${domain}` } });
    expect(claim.verificationToken).not.toBe(squat.verificationToken);

    // The squatter's own record does not verify the owner's claim, nor the other way round.
    dns.set(`_snip-verify.${domain}`, [squat.txtRecord.value.replace(squat.verificationToken, 'x')]);
    expect((await api.verify(owner, domain)).json()).toMatchObject({ verified: false, status: 'pending_txt' });

    dns.set(`_snip-verify.${domain}`, [claim.txtRecord.value]);
    const won = await api.verify(owner, domain);
    expect(won.statusCode, won.body).toBe(200);
    expect(won.json()).toMatchObject({ verified: true, status: 'verified' });

    // The squatter's pending claim is gone, and it cannot come back. The name is not the squatter's any more, so a
    // verify is the spec's 404 DOMAIN_NOT_FOUND ("unknown or not the account's"; issue 26); adding it again is 409.
    expect(await api.names(squatter)).toEqual([]);
    expectError(await api.verify(squatter, domain), 404, 'DOMAIN_NOT_FOUND');
    expectError(await api.post(squatter, domain), 409, 'DOMAIN_TAKEN');
    expectError(await api.activate(squatter, domain), 404, 'DOMAIN_NOT_FOUND');
    expectError(await api.del(squatter, domain), 404, 'DOMAIN_NOT_FOUND');
    expect((await api.check(domain)).json()).toEqual({ hostname: domain, available: false });

    // Even publishing its old token afterwards changes nothing.
    dns.set(`_snip-verify.${domain}`, [claim.txtRecord.value, squat.txtRecord.value]);
    expectError(await api.verify(squatter, domain), 404, 'DOMAIN_NOT_FOUND');
    expect(await api.status(owner, domain)).toBe('verified');
    expect((await api.activate(owner, domain)).statusCode).toBe(200);
    expect(await api.status(owner, domain)).toBe('active');
    expectError(await api.post(squatter, domain), 409, 'DOMAIN_TAKEN');
  });

  it('several accounts may hold pending claims on one name; one verify removes all the others', async () => {
    const api = domainApi(t);
    const users = await Promise.all([t.createUser('pro'), t.createUser('pro'), t.createUser('pro')]);
    const domain = fresh('many');
    const claims = [];
    for (const user of users) claims.push(await api.add(user, domain));
    dns.set(`_snip-verify.${domain}`, [claims[1]!.txtRecord.value]);
    expect((await api.verify(users[1]!, domain)).json()).toMatchObject({ verified: true, status: 'verified' });
    expect(await api.names(users[0]!)).toEqual([]);
    expect(await api.names(users[1]!)).toEqual([domain]);
    expect(await api.names(users[2]!)).toEqual([]);
  });

  it('a deleted pending claim leaves the other accounts’ claims alone', async () => {
    const api = domainApi(t);
    const [a, b] = await Promise.all([t.createUser('pro'), t.createUser('pro')]);
    const domain = fresh('del');
    await api.add(a, domain);
    const mine = await api.add(b, domain);
    expect((await api.del(a, domain)).statusCode).toBe(200);
    expect(await api.names(b)).toEqual([domain]);
    dns.set(`_snip-verify.${domain}`, [mine.txtRecord.value]);
    expect((await api.verify(b, domain)).json()).toMatchObject({ verified: true });
  });

  it('two accounts verifying at once: exactly one wins, the other gets 409 DOMAIN_TAKEN and loses its claim', async () => {
    const api = domainApi(t);
    for (let round = 0; round < 6; round++) {
      const [a, b] = await Promise.all([t.createUser('pro'), t.createUser('pro')]);
      const domain = fresh('race');
      const [ca, cb] = [await api.add(a, domain), await api.add(b, domain)];
      // Both have published their records: both DNS checks pass, only the database can pick the winner.
      dns.set(`_snip-verify.${domain}`, [ca.txtRecord.value, cb.txtRecord.value]);
      // A late answer holds both verifies after they read their claims, so they meet in the database. Without it, on
      // PostgreSQL under load one verify could finish before the other began, which then rightly answers 404.
      dns.delay(`_snip-verify.${domain}`, 300);
      const [ra, rb] = await Promise.all([api.verify(a, domain), api.verify(b, domain)]);
      const codes = [ra.statusCode, rb.statusCode];
      expect(codes.sort(), `${ra.body} ${rb.body}`).toEqual([200, 409]);
      const [winner, loser, lost] = ra.statusCode === 200 ? [a, b, rb] : [b, a, ra];
      expectError(lost, 409, 'DOMAIN_TAKEN');
      expect(await api.names(winner)).toEqual([domain]);
      expect(await api.status(winner, domain)).toBe('verified');
      expect(await api.names(loser)).toEqual([]);
    }
  });
});

describe(`domain squatting: pending claims expire (${dialectName})`, () => {
  const t = useTestApp(withDns());

  it(`a pending claim older than ${PENDING_CLAIM_TTL_MS / 86_400_000} days is dropped and no longer counts toward the maximum`, async () => {
    const api = domainApi(t);
    const user = await t.createUser('pro'); // Pro holds 3
    const stale = [fresh('stale'), fresh('stale'), fresh('stale')];
    const added = [];
    for (const domain of stale) added.push(await api.add(user, domain));
    expectError(await api.post(user, fresh('over')), 403, 'DOMAIN_LIMIT_REACHED');

    // Just before the end of the period the claims still count.
    t.clock.advance(PENDING_CLAIM_TTL_MS - 60_000);
    expect(await api.names(user)).toEqual([...stale].sort());
    expectError(await api.post(user, fresh('over')), 403, 'DOMAIN_LIMIT_REACHED');

    t.clock.advance(2 * 60_000);
    expect(await api.names(user)).toEqual([]);
    // The expired claim cannot be verified any more, even with its record published.
    dns.set(added[0]!.txtRecord.name, [added[0]!.txtRecord.value]);
    expectError(await api.verify(user, stale[0]!), 404, 'DOMAIN_NOT_FOUND');
    // Three new ones fit again; the fourth does not.
    const next = [fresh('next'), fresh('next'), fresh('next')];
    for (const domain of next) await api.add(user, domain);
    expectError(await api.post(user, fresh('over')), 403, 'DOMAIN_LIMIT_REACHED');
    expect(await api.names(user)).toEqual([...next].sort());
    // The expired names were dropped: the account may add one again and gets a new token.
    expect((await api.del(user, next[0]!)).statusCode).toBe(200);
    const again = await api.add(user, stale[0]!);
    expect(again.verificationToken).not.toBe(added[0]!.verificationToken);
  });

  it("a verified domain never expires, and an expired pending claim does not block another account's verify", async () => {
    const api = domainApi(t);
    const [owner, late] = await Promise.all([t.createUser('pro'), t.createUser('pro')]);
    const domain = fresh('kept');
    const claim = await api.add(owner, domain);
    dns.set(claim.txtRecord.name, [claim.txtRecord.value]);
    expect((await api.verify(owner, domain)).json()).toMatchObject({ verified: true });
    t.clock.advance(PENDING_CLAIM_TTL_MS * 3);
    expect(await api.status(owner, domain)).toBe('verified');
    expectError(await api.post(late, domain), 409, 'DOMAIN_TAKEN');

    const other = fresh('other');
    await api.add(owner, other);
    t.clock.advance(PENDING_CLAIM_TTL_MS + 1000);
    const mine = await api.add(late, other);
    dns.set(mine.txtRecord.name, [mine.txtRecord.value]);
    expect((await api.verify(late, other)).json()).toMatchObject({ verified: true, status: 'verified' });
    expect(await api.names(owner)).toEqual([domain]);
  });
});

/**
 * Attack (issue 26, item 8): verifying a domain another account added answered 409 DOMAIN_TAKEN, telling a stranger
 * who holds what and departing from the spec's table (404 DOMAIN_NOT_FOUND: "domain unknown or not the account's").
 * A verify of a name the caller holds no claim on is 404 on REST and MCP alike, whether the other account's claim is
 * pending, verified or active, and it changes nothing of that claim.
 */
describe(`verifying someone else's domain is 404 DOMAIN_NOT_FOUND (${dialectName})`, () => {
  const t = useTestApp(withDns());
  const owner = t.user('pro');
  const stranger = t.user('pro');
  const clients = new Clients(() => url);
  let url: URL;
  beforeAll(async () => {
    url = await listenMcp(t);
  });
  afterAll(() => clients.closeAll());

  it('answers 404 for a pending, a verified and an active claim of another account, over REST and verify_domain', async () => {
    const api = domainApi(t);
    const mcp = await clients.for(stranger);
    const refusedEverywhere = async (domain: string) => {
      expectError(await api.verify(stranger, domain), 404, 'DOMAIN_NOT_FOUND', domain);
      expectError(await api.verify(stranger, domain.toUpperCase()), 404, 'DOMAIN_NOT_FOUND', domain);
      await refused(mcp, 'verify_domain', { domain }, 'DOMAIN_NOT_FOUND');
    };

    const pending = fresh('pending');
    const pendingClaim = await api.add(owner, pending);
    // The owner's record is published: a stranger's verify must neither use it nor touch the owner's claim.
    dns.set(pendingClaim.txtRecord.name, [pendingClaim.txtRecord.value]);
    await refusedEverywhere(pending);
    expect(await api.status(owner, pending)).toBe('pending_txt');
    expect(await api.names(stranger)).toEqual([]);

    const verified = fresh('verified');
    const verifiedClaim = await api.add(owner, verified);
    dns.set(verifiedClaim.txtRecord.name, [verifiedClaim.txtRecord.value]);
    expect((await api.verify(owner, verified)).json()).toMatchObject({ verified: true, status: 'verified' });
    await refusedEverywhere(verified);
    expect(await api.status(owner, verified)).toBe('verified');

    expect((await api.activate(owner, verified)).statusCode).toBe(200);
    await refusedEverywhere(verified);
    expect(await api.status(owner, verified)).toBe('active');

    // What the spec gives 409 for stays 409: adding a name another account has verified.
    expectError(await api.post(stranger, verified), 409, 'DOMAIN_TAKEN');
    // And a name nobody holds is the same 404: a stranger cannot tell "someone else's" from "nobody's" by verifying.
    expectError(await api.verify(stranger, fresh('nobody')), 404, 'DOMAIN_NOT_FOUND');
  });
});
