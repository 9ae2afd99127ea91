import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/api-errors.js';
import { dialectName, useTestApp, type TestApp, type TestUser } from '../helpers/app.js';
import { linkApi, LINKS_A, LINKS_B, type CreatedLinkA, type LinkA, type LinkB } from '../helpers/links.js';
import { closedPort, expectedSignature, startReceiver, waitFor, type Receiver, type ReceivedRequest } from '../helpers/receiver.js';
import type { CreatedWebhook, Delivery, TestResult, WebhookObject } from '../helpers/webhook-shapes.js';

/**
 * Webhooks (spec section 6): the routes under A's /api/v1/webhooks and B's /api/webhooks, the seven events
 * delivered to a real HTTP receiver (signed, retried, logged), the test endpoint, and geo-blocking, which
 * link.geo_blocked announces. Delivery across restarts and the address guard at delivery time are in
 * webhook-delivery.test.ts (beside this file).
 */

const BASES = [
  { surface: 'A', base: '/api/v1/webhooks' },
  { surface: 'B', base: '/api/webhooks' },
] as const;

const ALL_EVENTS = ['link.click', 'link.created', 'link.deleted', 'link.expired', 'link.geo_blocked', 'link.limit_reached', 'link.updated'];

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
/** In the bundled DB-IP database: London, GB (see test/clicks/clicks.test.ts) and Mountain View, US. */
const LONDON_IP = '81.2.69.142';
const US_IP = '8.8.8.8';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** A delivery body as the receiver got it. */
interface Payload {
  event: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** The exact shape of a webhook in list, get and patch answers: never the secret. */
const webhookShape = (fields: Partial<WebhookObject> = {}) => ({
  id: expect.stringMatching(/^whk_/),
  url: expect.any(String),
  name: expect.any(String),
  events: expect.any(Array),
  enabled: expect.any(Boolean),
  createdAt: expect.stringMatching(ISO_INSTANT),
  lastDeliveryAt: null,
  lastStatus: null,
  ...fields,
});

/** Requests on one base's webhook routes. */
function webhookApi(t: TestApp, base: string) {
  const one = (id: string) => `${base}/${encodeURIComponent(id)}`;
  const api = {
    post: (user: TestUser | string | null, body: object) => t.as(user, { method: 'POST', url: base, payload: body }),
    async create(user: TestUser, body: Record<string, unknown>): Promise<CreatedWebhook> {
      const res = await api.post(user, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json<CreatedWebhook>();
    },
    listRes: (user: TestUser | string | null) => t.as(user, { method: 'GET', url: base }),
    async list(user: TestUser): Promise<{ webhooks: WebhookObject[]; limit: number | null }> {
      const res = await api.listRes(user);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    },
    getRes: (user: TestUser | string | null, id: string) => t.as(user, { method: 'GET', url: one(id) }),
    async get(user: TestUser, id: string): Promise<WebhookObject> {
      const res = await api.getRes(user, id);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<WebhookObject>();
    },
    patch: (user: TestUser | string | null, id: string, body: object) => t.as(user, { method: 'PATCH', url: one(id), payload: body }),
    del: (user: TestUser | string | null, id: string) => t.as(user, { method: 'DELETE', url: one(id) }),
    testRes: (user: TestUser | string | null, id: string) => t.as(user, { method: 'POST', url: `${one(id)}/test` }),
    async test(user: TestUser, id: string): Promise<TestResult> {
      const res = await api.testRes(user, id);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<TestResult>();
    },
    deliveriesRes: (user: TestUser | string | null, id: string, query = '') => t.as(user, { method: 'GET', url: `${one(id)}/deliveries${query}` }),
    async deliveries(user: TestUser, id: string, query = ''): Promise<Delivery[]> {
      const res = await api.deliveriesRes(user, id, query);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ deliveries: Delivery[] }>().deliveries;
    },
  };
  return api;
}

/** The parsed body of a received delivery. */
const payloadOf = (request: ReceivedRequest): Payload => JSON.parse(request.body.toString('utf8')) as Payload;

/** Asserts what every delivery carries: a JSON POST, signed over its exact bytes with `secret`. */
function expectSignedDelivery(request: ReceivedRequest, secret: string, event: string, attempt = 1): void {
  expect(request.method).toBe('POST');
  expect(request.headers['content-type']).toBe('application/json');
  expect(request.headers['x-snip-event']).toBe(event);
  expect(request.headers['x-snip-attempt']).toBe(String(attempt));
  expect(request.headers['x-snip-delivery']).toEqual(expect.any(String));
  const signature = request.headers['x-snip-signature'];
  expect(signature).toMatch(/^[0-9a-f]{64}$/);
  expect(signature).toBe(expectedSignature(secret, request.body));
  const payload = payloadOf(request);
  expect(Object.keys(payload).sort()).toEqual(['data', 'event', 'timestamp']);
  expect(payload.event).toBe(event);
  expect(payload.timestamp).toMatch(ISO_INSTANT);
}

for (const { surface, base } of BASES) {
  describe(`webhook routes under ${base} (${surface}, ${dialectName})`, () => {
    const t = useTestApp();
    const pro = t.user('pro');
    const builder = t.user('builder');
    const free = t.user('free');
    const api = () => webhookApi(t, base);

    it('creates a webhook: 201 with a generated whsec_ secret, the host as name, sorted events, enabled, nothing delivered yet', async () => {
      const user = await t.createUser('pro');
      const before = t.clock.now().getTime();
      const res = await api().post(user, { url: 'https://hooks.example.com/snip', events: ['link.created', 'link.click'] });
      expect(res.statusCode, res.body).toBe(201);
      const created = res.json<CreatedWebhook>();
      expect(created).toEqual({
        ...webhookShape({ url: 'https://hooks.example.com/snip', name: 'hooks.example.com', events: ['link.click', 'link.created'], enabled: true }),
        secret: expect.stringMatching(/^whsec_\S{16,}$/),
      });
      expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(before - 1);
      expect(Date.parse(created.createdAt)).toBeLessThanOrEqual(t.clock.now().getTime());

      const other = await api().create(user, { url: 'https://hooks.example.com/other', events: ['link.click'] });
      expect(other.secret).toMatch(/^whsec_/);
      expect(other.secret).not.toBe(created.secret);
    });

    it('keeps a given secret and name, and deduplicates the events', async () => {
      const user = await t.createUser('pro');
      const created = await api().create(user, {
        url: 'https://hooks.example.com/named',
        events: ['link.updated', 'link.created', 'link.updated', 'link.created'],
        name: 'Zapier bridge',
        secret: 'my-own-secret',
      });
      expect(created).toEqual({
        ...webhookShape({ url: 'https://hooks.example.com/named', name: 'Zapier bridge', events: ['link.created', 'link.updated'], enabled: true }),
        secret: 'my-own-secret',
      });
    });

    it('lists the webhooks with the plan limit, and neither the list nor GET /:id shows the secret', async () => {
      const user = await t.createUser('pro');
      expect(await api().list(user)).toEqual({ webhooks: [], limit: 2 });
      const first = await api().create(user, { url: 'https://a.example.com/hook', events: ['link.deleted'] });
      const second = await api().create(user, { url: 'https://b.example.com/hook', events: ALL_EVENTS });
      const { secret: _s1, ...firstShown } = first;
      const { secret: _s2, ...secondShown } = second;

      const listed = await api().list(user);
      expect(listed).toEqual({ webhooks: [firstShown, secondShown], limit: 2 });
      expect(JSON.stringify(listed)).not.toContain(first.secret);
      expect(JSON.stringify(listed)).not.toContain('secret');

      const res = await api().getRes(user, second.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual(secondShown);
      expect(res.body).not.toContain(second.secret);
    });

    it('answers the Builder plan limit (10) in the list', async () => {
      expect((await api().list(builder)).limit).toBe(10);
    });

    it('changes url, events, name and enabled with PATCH, answering the webhook without its secret', async () => {
      const user = await t.createUser('pro');
      const created = await api().create(user, { url: 'https://hooks.example.com/before', events: ['link.created'], secret: 'patch-secret' });

      const res = await api().patch(user, created.id, {
        url: 'https://new.example.com/after',
        events: ['link.updated', 'link.deleted', 'link.updated'],
        name: 'Renamed',
        enabled: false,
      });
      expect(res.statusCode, res.body).toBe(200);
      const expected = webhookShape({
        id: created.id,
        url: 'https://new.example.com/after',
        name: 'Renamed',
        events: ['link.deleted', 'link.updated'],
        enabled: false,
        createdAt: created.createdAt,
      });
      expect(res.json()).toEqual(expected);
      expect(res.body).not.toContain('patch-secret');
      expect(await api().get(user, created.id)).toEqual(expected);

      // One field at a time leaves the others as they are.
      const enabled = await api().patch(user, created.id, { enabled: true });
      expect(enabled.statusCode, enabled.body).toBe(200);
      expect(enabled.json()).toEqual({ ...expected, enabled: true });
    });

    it('deletes a webhook: 200 {success, message}, then it is gone from GET and the list', async () => {
      const user = await t.createUser('pro');
      const doomed = await api().create(user, { url: 'https://hooks.example.com/doomed', events: ['link.created'] });
      const kept = await api().create(user, { url: 'https://hooks.example.com/kept', events: ['link.created'] });

      const res = await api().del(user, doomed.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, message: expect.any(String) });
      expectError(await api().getRes(user, doomed.id), 404, 'WEBHOOK_NOT_FOUND');
      expectError(await api().del(user, doomed.id), 404, 'WEBHOOK_NOT_FOUND');
      expect((await api().list(user)).webhooks.map((w) => w.id)).toEqual([kept.id]);
    });

    it('answers an empty delivery log for a new webhook, echoing limit and offset', async () => {
      const user = await t.createUser('pro');
      const hook = await api().create(user, { url: 'https://hooks.example.com/log', events: ['link.created'] });
      const res = await api().deliveriesRes(user, hook.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ deliveries: [], limit: 20, offset: 0 });
      const paged = await api().deliveriesRes(user, hook.id, '?limit=5&offset=10');
      expect(paged.json()).toEqual({ deliveries: [], limit: 5, offset: 10 });
      expect((await api().deliveriesRes(user, hook.id, '?limit=0')).statusCode).toBe(400);
      expect((await api().deliveriesRes(user, hook.id, '?limit=101')).statusCode).toBe(400);
    });

    describe('refusals', () => {
      /** Asserts the answer is `status` `code` and the caller's webhooks did not change. */
      const expectRefused = async (user: TestUser, attempt: () => Promise<LightMyRequestResponse>, status: number, code: string) => {
        const before = await api().list(user);
        expectError(await attempt(), status, code);
        expect(await api().list(user)).toEqual(before);
      };

      it.each([[['click']], [['created', 'link.updated']], [['link.created', 'clicks']], [['limit_reached']]])(
        'refuses the short event names of %j with 400 INVALID_EVENTS and creates nothing',
        async (events) => {
          await expectRefused(pro, () => api().post(pro, { url: 'https://hooks.example.com/short', events }), 400, 'INVALID_EVENTS');
        },
      );

      it.each([[[]], [['link.bogus']], [['link.click', 'link.visited']], [['webhook.test']]])(
        'refuses the events %j with 400 INVALID_EVENTS',
        async (events) => {
          await expectRefused(pro, () => api().post(pro, { url: 'https://hooks.example.com/bad-events', events }), 400, 'INVALID_EVENTS');
        },
      );

      it('says in words which events there are, and that the operator can allow private hosts with WEBHOOK_ALLOW_PRIVATE', async () => {
        const message = async (body: object) => (await api().post(pro, body)).json<{ message: string }>().message;
        const every = 'link.click, link.created, link.updated, link.deleted, link.expired, link.limit_reached, link.geo_blocked';
        expect(await message({ url: 'https://hooks.example.com/words', events: [] })).toBe(`Choose at least one event to send: ${every}`);
        expect(await message({ url: 'https://hooks.example.com/words', events: ['click'] })).toBe(`"click" is not an event Snip sends; choose from ${every} (full names, such as link.click)`);
        expect(await message({ url: 'https://hooks.example.com/words', events: ['click', 'x'] })).toMatch(/^"click", "x" are not events Snip sends; /);
        const hint = "the server's operator can allow private hosts and http:// by setting WEBHOOK_ALLOW_PRIVATE=true";
        expect(await message({ url: 'https://192.168.1.20/x', events: ['link.click'] })).toBe(`Invalid webhook URL: must not point at a private, loopback or link-local address; ${hint}`);
        expect(await message({ url: 'https://intranet/x', events: ['link.click'] })).toBe(`Invalid webhook URL: must name a public host; ${hint}`);
        expect(await message({ url: 'http://hooks.example.com/x', events: ['link.click'] })).toBe(`Invalid webhook URL: must use https://; ${hint}`);
        // No setting lifts these: they do not name one.
        expect(await message({ url: 'ftp://hooks.example.com/x', events: ['link.click'] })).toBe('Invalid webhook URL: must use https://');
      });

      it('refuses a body without events with 400 MISSING_EVENTS and one without url with 400 MISSING_URL', async () => {
        await expectRefused(pro, () => api().post(pro, { url: 'https://hooks.example.com/x' }), 400, 'MISSING_EVENTS');
        await expectRefused(pro, () => api().post(pro, { events: ['link.created'] }), 400, 'MISSING_URL');
      });

      it.each([
        ['not a URL', 'not a url'],
        ['a relative path', '/hooks/snip'],
        ['an ftp:// URL', 'ftp://hooks.example.com/x'],
        ['an http:// URL', 'http://hooks.example.com/x'],
        ['a private IPv4 literal', 'https://10.0.0.1/x'],
        ['a 192.168 address', 'https://192.168.1.20/x'],
        ['the loopback address', 'https://127.0.0.1/x'],
        ['the loopback address written as a number', 'https://2130706433/x'],
        ['IPv6 loopback', 'https://[::1]/x'],
        ['IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/x'],
        ['the cloud metadata address', 'https://169.254.169.254/x'],
        ['the unspecified address', 'https://0.0.0.0/x'],
        ['carrier-grade NAT', 'https://100.64.0.1/x'],
        ['unique-local IPv6', 'https://[fd00::1]/x'],
        ['localhost', 'https://localhost/x'],
        ['a .localhost name', 'https://api.localhost/x'],
        ['a name without a dot', 'https://intranet/x'],
        ['a user name and password', 'https://user:pass@hooks.example.com/x'],
        ['a user name alone', 'https://user@hooks.example.com/x'],
      ])('refuses %s (%s) with 400 INVALID_URL and creates nothing', async (_what, url) => {
        await expectRefused(pro, () => api().post(pro, { url, events: ['link.created'] }), 400, 'INVALID_URL');
      });

      it('refuses the same URL with the same event set again with 400 DUPLICATE_WEBHOOK, whatever the order of the events', async () => {
        const user = await t.createUser('builder');
        await api().create(user, { url: 'https://hooks.example.com/dup', events: ['link.created', 'link.deleted'] });
        await expectRefused(user, () => api().post(user, { url: 'https://hooks.example.com/dup', events: ['link.deleted', 'link.created'] }), 400, 'DUPLICATE_WEBHOOK');
        await expectRefused(
          user,
          () => api().post(user, { url: 'https://HOOKS.example.com/dup', events: ['link.deleted', 'link.created', 'link.created'], name: 'again' }),
          400,
          'DUPLICATE_WEBHOOK',
        );
        // Another event set at the same URL, or the same set at another URL, is another webhook.
        await api().create(user, { url: 'https://hooks.example.com/dup', events: ['link.created'] });
        await api().create(user, { url: 'https://hooks.example.com/dup2', events: ['link.created', 'link.deleted'] });
        // Another account may use the same URL and events.
        const other = await t.createUser('pro');
        await api().create(other, { url: 'https://hooks.example.com/dup', events: ['link.created', 'link.deleted'] });
      });

      it('refuses a PATCH that would make a duplicate with 400 DUPLICATE_WEBHOOK and changes nothing', async () => {
        const user = await t.createUser('pro');
        const a = await api().create(user, { url: 'https://hooks.example.com/one', events: ['link.click'] });
        const b = await api().create(user, { url: 'https://hooks.example.com/two', events: ['link.created'] });
        await expectRefused(user, () => api().patch(user, b.id, { url: 'https://hooks.example.com/one', events: ['link.click'] }), 400, 'DUPLICATE_WEBHOOK');
        await expectRefused(user, () => api().patch(user, a.id, { events: ['link.created'], url: 'https://hooks.example.com/two' }), 400, 'DUPLICATE_WEBHOOK');
        const bOnly = await api().patch(user, b.id, { url: 'https://hooks.example.com/one' });
        expect(bOnly.statusCode, bOnly.body).toBe(200);
        await expectRefused(user, () => api().patch(user, b.id, { events: ['link.click'] }), 400, 'DUPLICATE_WEBHOOK');
        // Patching a webhook to what it already is, is no duplicate of itself.
        const same = await api().patch(user, a.id, { url: 'https://hooks.example.com/one', events: ['link.click'] });
        expect(same.statusCode, same.body).toBe(200);
      });

      it('refuses invalid changes with 400 and leaves the webhook as it was', async () => {
        const user = await t.createUser('pro');
        const hook = await api().create(user, { url: 'https://hooks.example.com/keep', events: ['link.created'] });
        for (const [body, code] of [
          [{ enabled: 'yes' }, 'INVALID_ENABLED'],
          [{ events: ['click'] }, 'INVALID_EVENTS'],
          [{ events: [] }, 'INVALID_EVENTS'],
          [{ url: 'https://10.0.0.1/x' }, 'INVALID_URL'],
          [{ url: 'http://hooks.example.com/x' }, 'INVALID_URL'],
          [{ url: 'https://localhost/x' }, 'INVALID_URL'],
        ] as const) {
          await expectRefused(user, () => api().patch(user, hook.id, body), 400, code);
        }
        const empty = await api().patch(user, hook.id, {});
        expect(empty.statusCode, empty.body).toBe(400);
        const { secret: _secret, ...shown } = hook;
        expect(await api().get(user, hook.id)).toEqual(shown);
      });

      it('refuses a Pro account its third webhook with 403 WEBHOOK_LIMIT_REACHED; deleting one frees the place', async () => {
        const user = await t.createUser('pro');
        const first = await api().create(user, { url: 'https://hooks.example.com/1', events: ['link.created'] });
        await api().create(user, { url: 'https://hooks.example.com/2', events: ['link.created'] });
        await expectRefused(user, () => api().post(user, { url: 'https://hooks.example.com/3', events: ['link.created'] }), 403, 'WEBHOOK_LIMIT_REACHED');
        // Disabling one does not free its place.
        expect((await api().patch(user, first.id, { enabled: false })).statusCode).toBe(200);
        await expectRefused(user, () => api().post(user, { url: 'https://hooks.example.com/3', events: ['link.created'] }), 403, 'WEBHOOK_LIMIT_REACHED');
        expect((await api().del(user, first.id)).statusCode).toBe(200);
        await api().create(user, { url: 'https://hooks.example.com/3', events: ['link.created'] });
      });

      it('allows a Builder account ten webhooks and refuses the eleventh with 403 WEBHOOK_LIMIT_REACHED', async () => {
        const user = await t.createUser('builder');
        for (let i = 1; i <= 10; i++) await api().create(user, { url: `https://hooks.example.com/b${i}`, events: ['link.created'] });
        await expectRefused(user, () => api().post(user, { url: 'https://hooks.example.com/b11', events: ['link.created'] }), 403, 'WEBHOOK_LIMIT_REACHED');
        expect((await api().list(user)).webhooks).toHaveLength(10);
      });

      it('refuses the Free plan (no API access) with 403 TIER_REQUIRED', async () => {
        expectError(await api().listRes(free), 403, 'TIER_REQUIRED');
        expectError(await api().post(free, { url: 'https://hooks.example.com/free', events: ['link.created'] }), 403, 'TIER_REQUIRED');
        expectError(await api().getRes(free, 'whk_anything'), 403, 'TIER_REQUIRED');
      });

      it('answers 401 API_KEY_REQUIRED on every route without a key', async () => {
        const hook = await api().create(pro, { url: 'https://hooks.example.com/nokey', events: ['link.created'] });
        for (const res of [
          await api().listRes(null),
          await api().post(null, { url: 'https://hooks.example.com/x', events: ['link.created'] }),
          await api().getRes(null, hook.id),
          await api().patch(null, hook.id, { enabled: false }),
          await api().del(null, hook.id),
          await api().testRes(null, hook.id),
          await api().deliveriesRes(null, hook.id),
        ]) {
          expectError(res, 401, 'API_KEY_REQUIRED');
        }
        expect(await api().get(pro, hook.id)).toMatchObject({ enabled: true });
        expect((await api().del(pro, hook.id)).statusCode).toBe(200);
      });

      it("answers 404 WEBHOOK_NOT_FOUND for an unknown id and for another account's webhook, which stays as it was", async () => {
        const owner = await t.createUser('pro');
        const stranger = await t.createUser('pro');
        const hook = await api().create(owner, { url: 'https://hooks.example.com/private', events: ['link.created'] });
        for (const id of ['whk_doesnotexist', hook.id]) {
          expectError(await api().getRes(stranger, id), 404, 'WEBHOOK_NOT_FOUND', `GET ${id}`);
          expectError(await api().patch(stranger, id, { enabled: false, url: 'https://evil.example.com/x' }), 404, 'WEBHOOK_NOT_FOUND', `PATCH ${id}`);
          expectError(await api().del(stranger, id), 404, 'WEBHOOK_NOT_FOUND', `DELETE ${id}`);
          expectError(await api().testRes(stranger, id), 404, 'WEBHOOK_NOT_FOUND', `test ${id}`);
          expectError(await api().deliveriesRes(stranger, id), 404, 'WEBHOOK_NOT_FOUND', `deliveries ${id}`);
        }
        const { secret: _secret, ...shown } = hook;
        expect(await api().get(owner, hook.id)).toEqual(shown);
        expect((await api().list(stranger)).webhooks).toEqual([]);
      });
    });
  });
}

describe(`webhooks are one resource under both bases (${dialectName})`, () => {
  const t = useTestApp();
  const pro = t.user('pro');

  it('a webhook created under /api/v1/webhooks is read, changed and deleted under /api/webhooks, and the other way round', async () => {
    const a = webhookApi(t, '/api/v1/webhooks');
    const b = webhookApi(t, '/api/webhooks');
    const fromA = await a.create(pro, { url: 'https://hooks.example.com/both', events: ['link.created'] });
    const { secret: _secret, ...shown } = fromA;
    expect(await b.get(pro, fromA.id)).toEqual(shown);
    expect(await b.list(pro)).toEqual(await a.list(pro));
    const patched = await b.patch(pro, fromA.id, { name: 'via B' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await a.get(pro, fromA.id)).name).toBe('via B');
    const fromB = await b.create(pro, { url: 'https://hooks.example.com/both', events: ['link.deleted'] });
    expectError(await a.post(pro, { url: 'https://hooks.example.com/both', events: ['link.deleted'] }), 403, 'WEBHOOK_LIMIT_REACHED');
    expect((await a.del(pro, fromB.id)).statusCode).toBe(200);
    expectError(await b.post(pro, { url: 'https://hooks.example.com/both', events: ['link.created'] }), 400, 'DUPLICATE_WEBHOOK');
  });
});

describe(`webhook deliveries (${dialectName}, WEBHOOK_ALLOW_PRIVATE, retries after 200, 300 and 400 ms)`, () => {
  const t = useTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_DELAYS_MS: '200,300,400', TRUST_PROXY: 'true' });
  const hooks = () => webhookApi(t, '/api/v1/webhooks');
  const links = () => linkApi<CreatedLinkA, LinkA>(t, LINKS_A);
  let receiver: Receiver;
  let paths = 0;

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  /** A webhook of `user` at a fresh path of the receiver, answering `answer` there. */
  const subscribe = async (user: TestUser, events: string[], answer: number | ((r: ReceivedRequest, nth: number) => number) = 200) => {
    paths += 1;
    const path = `/hook-${paths}`;
    const hook = await hooks().create(user, { url: receiver.endpoint(path, answer), events });
    return { ...hook, path };
  };
  /** Waits until `path` has received a delivery of `event` (the `count`th), and answers the requests of that event. */
  const received = (path: string, event: string, count = 1): Promise<ReceivedRequest[]> =>
    waitFor(`${count} × ${event} at ${path}`, () => {
      const hits = receiver.to(path).filter((r) => r.headers['x-snip-event'] === event);
      return hits.length >= count ? hits : undefined;
    });
  const eventsAt = (path: string): string[] => receiver.to(path).map((r) => String(r.headers['x-snip-event']));
  /** Waits until the delivery log of `hook` answers a delivery matching `ready`, and answers the log. */
  const logUntil = (user: TestUser, hookId: string, ready: (d: Delivery) => boolean, what: string): Promise<Delivery[]> =>
    waitFor(what, async () => {
      const log = await hooks().deliveries(user, hookId);
      return log.some(ready) ? log : undefined;
    });
  const visit = (code: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    t.app.inject({ method, url: `/${code}`, headers: { 'user-agent': CHROME, ...headers } });

  it('delivers link.created as a signed JSON POST {event, timestamp, data}, logged as delivered under the id it was sent with', async () => {
    const user = await t.createUser('pro');
    const hook = await subscribe(user, ['link.created']);
    const before = t.clock.now().getTime();
    const link = await links().create(user, { url: 'https://example.com/created', maxClicks: 5 });
    const after = t.clock.now().getTime();

    const [request] = await received(hook.path, 'link.created');
    expectSignedDelivery(request!, hook.secret, 'link.created');
    const payload = payloadOf(request!);
    const at = Date.parse(payload.timestamp);
    expect(at).toBeGreaterThanOrEqual(before - 1);
    expect(at).toBeLessThanOrEqual(after + 1);
    expect(payload.data).toMatchObject({
      shortCode: link.shortCode,
      url: `http://snip.test/${link.shortCode}`,
      destination: 'https://example.com/created',
      maxClicks: 5,
      expiresAt: null,
      blockedCountries: [],
    });

    const log = await logUntil(user, hook.id, (d) => d.status === 'delivered', 'the delivery logged as delivered');
    expect(await webhookApi(t, '/api/webhooks').deliveries(user, hook.id)).toEqual(log);
    expect(log).toEqual([
      {
        id: request!.headers['x-snip-delivery'],
        event: 'link.created',
        status: 'delivered',
        attempts: 1,
        lastStatus: 200,
        lastError: null,
        createdAt: expect.stringMatching(ISO_INSTANT),
        nextAttemptAt: null,
        finishedAt: expect.stringMatching(ISO_INSTANT),
      },
    ]);
    const shown = await hooks().get(user, hook.id);
    expect(shown.lastStatus).toBe(200);
    expect(shown.lastDeliveryAt).toMatch(ISO_INSTANT);
    expect(Date.parse(shown.lastDeliveryAt!)).toBeGreaterThanOrEqual(before - 1);
  });

  it('delivers link.updated with the new destination and the previous one', async () => {
    const user = await t.createUser('pro');
    const hook = await subscribe(user, ['link.updated']);
    const link = await links().create(user, { url: 'https://example.com/old' });
    const res = await links().patch(user, link.shortCode, { url: 'https://example.com/new' });
    expect(res.statusCode, res.body).toBe(200);

    const [request] = await received(hook.path, 'link.updated');
    expectSignedDelivery(request!, hook.secret, 'link.updated');
    const { data } = payloadOf(request!);
    expect(data).toMatchObject({
      shortCode: link.shortCode,
      url: `http://snip.test/${link.shortCode}`,
      destination: 'https://example.com/new',
      previous: expect.objectContaining({ destination: 'https://example.com/old' }),
    });
  });

  it('delivers link.deleted when a link is deleted', async () => {
    const user = await t.createUser('pro');
    const hook = await subscribe(user, ['link.deleted']);
    const link = await links().create(user, { url: 'https://example.com/deleted' });
    expect((await links().del(user, link.shortCode)).statusCode).toBe(200);

    const [request] = await received(hook.path, 'link.deleted');
    expectSignedDelivery(request!, hook.secret, 'link.deleted');
    expect(payloadOf(request!).data).toMatchObject({
      shortCode: link.shortCode,
      url: `http://snip.test/${link.shortCode}`,
      destination: 'https://example.com/deleted',
    });
  });

  it('delivers link.limit_reached once, when the last allowed click is used', async () => {
    const user = await t.createUser('pro');
    const hook = await subscribe(user, ['link.limit_reached']);
    const link = await links().create(user, { url: 'https://example.com/capped', maxClicks: 1 });
    const first = await visit(link.shortCode);
    expect(first.statusCode, first.body).toBe(302);

    const [request] = await received(hook.path, 'link.limit_reached');
    expectSignedDelivery(request!, hook.secret, 'link.limit_reached');
    expect(payloadOf(request!).data).toMatchObject({
      shortCode: link.shortCode,
      url: `http://snip.test/${link.shortCode}`,
      destination: 'https://example.com/capped',
    });

    // Visits after the limit are refused and announce nothing more.
    expect((await visit(link.shortCode)).statusCode).toBe(410);
    const sentinel = await links().create(user, { url: 'https://example.com/after-limit', maxClicks: 1 });
    await visit(sentinel.shortCode);
    await received(hook.path, 'link.limit_reached', 2);
    expect(receiver.to(hook.path).map((r) => (payloadOf(r).data as { shortCode: string }).shortCode)).toEqual([link.shortCode, sentinel.shortCode]);
  });

  it('delivers link.click with exactly the seven strings: shortCode, url, destination, country, device, referrer, userAgent', async () => {
    const user = await t.createUser('pro');
    const hook = await subscribe(user, ['link.click']);
    const link = await links().create(user, { url: 'https://example.com/clicked?ref=1' });
    const before = t.clock.now().getTime();
    const res = await visit(link.shortCode, { 'x-forwarded-for': LONDON_IP, referer: 'https://News.Example.com/article?id=7' });
    expect(res.statusCode, res.body).toBe(302);

    const [request] = await received(hook.path, 'link.click');
    expectSignedDelivery(request!, hook.secret, 'link.click');
    const payload = payloadOf(request!);
    expect(payload.data).toEqual({
      shortCode: link.shortCode,
      url: `http://snip.test/${link.shortCode}`,
      destination: 'https://example.com/clicked?ref=1',
      country: 'GB',
      device: 'desktop',
      referrer: 'news.example.com',
      userAgent: CHROME,
    });
    expect(Date.parse(payload.timestamp)).toBeGreaterThanOrEqual(before - 1);
  });

  it('signs the exact bytes sent, non-ASCII text included, with a non-ASCII secret', async () => {
    const user = await t.createUser('pro');
    paths += 1;
    const path = `/hook-${paths}`;
    const secret = 'clé-secrète-🔑';
    const hook = await hooks().create(user, { url: receiver.endpoint(path), events: ['link.click'], secret });
    expect(hook.secret).toBe(secret);
    const link = await links().create(user, { url: 'https://example.com/unicode' });
    const userAgent = 'Mozilla/5.0 (X11; Linux x86_64) Navigateur-Spécial/1.0 Café';
    expect((await visit(link.shortCode, { 'user-agent': userAgent })).statusCode).toBe(302);

    const [request] = await received(path, 'link.click');
    // The body carries the UTF-8 bytes of é, not a \u escape: the signature must cover exactly these bytes.
    expect(request!.body.includes(Buffer.from('Spécial', 'utf8'))).toBe(true);
    expectSignedDelivery(request!, secret, 'link.click');
    expect((payloadOf(request!).data as { userAgent: string }).userAgent).toBe(userAgent);
  });

  it('sends an unknown country and a missing referrer in link.click as empty strings', async () => {
    const user = await t.createUser('pro');
    const hook = await subscribe(user, ['link.click']);
    const link = await links().create(user, { url: 'https://example.com/anonymous' });
    expect((await visit(link.shortCode, { 'x-forwarded-for': '10.1.2.3' })).statusCode).toBe(302);

    const [request] = await received(hook.path, 'link.click');
    expect(payloadOf(request!).data).toEqual({
      shortCode: link.shortCode,
      url: `http://snip.test/${link.shortCode}`,
      destination: 'https://example.com/anonymous',
      country: '',
      device: 'desktop',
      referrer: '',
      userAgent: CHROME,
    });
  });

  it('announces no link.click for bots and HEAD requests', async () => {
    const user = await t.createUser('pro');
    const hook = await subscribe(user, ['link.click']);
    const link = await links().create(user, { url: 'https://example.com/bots' });
    expect((await visit(link.shortCode, { 'user-agent': GOOGLEBOT })).statusCode).toBe(302);
    expect((await visit(link.shortCode, {}, 'HEAD')).statusCode).toBe(302);
    // A person's click after them: once it has arrived, a click of theirs would have been queued before it.
    expect((await visit(link.shortCode, { 'x-forwarded-for': US_IP })).statusCode).toBe(302);
    await received(hook.path, 'link.click');
    const log = await logUntil(user, hook.id, (d) => d.status === 'delivered', 'the click logged');
    expect(log.map((d) => d.event)).toEqual(['link.click']);
    expect(receiver.to(hook.path).map((r) => (payloadOf(r).data as { userAgent: string; country: string }).country)).toEqual(['US']);
  });

  it('refuses a visitor from a blocked country with a 451 page and delivers link.geo_blocked with the country; others are redirected', async () => {
    const user = await t.createUser('pro');
    const hook = await subscribe(user, ['link.geo_blocked', 'link.click']);
    const link = await links().create(user, { url: 'https://example.com/geo', blockedCountries: ['GB'] });

    const blocked = await visit(link.shortCode, { 'x-forwarded-for': LONDON_IP });
    expect(blocked.statusCode).toBe(451);
    expect(blocked.headers.location).toBeUndefined();
    expect(blocked.headers['content-type']).toMatch(/^text\/html/);
    expect(blocked.body).toMatch(/<html/i);
    expect(blocked.body).not.toContain('https://example.com/geo');

    const [request] = await received(hook.path, 'link.geo_blocked');
    expectSignedDelivery(request!, hook.secret, 'link.geo_blocked');
    expect(payloadOf(request!).data).toMatchObject({
      shortCode: link.shortCode,
      url: `http://snip.test/${link.shortCode}`,
      destination: 'https://example.com/geo',
      country: 'GB',
    });

    const allowed = await visit(link.shortCode, { 'x-forwarded-for': US_IP });
    expect(allowed.statusCode).toBe(302);
    expect(allowed.headers.location).toBe('https://example.com/geo');
    const [click] = await received(hook.path, 'link.click');
    expect((payloadOf(click!).data as { country: string }).country).toBe('US');
    // The blocked visit was no click, and a blocked bot is not announced.
    expect((await visit(link.shortCode, { 'x-forwarded-for': LONDON_IP, 'user-agent': GOOGLEBOT })).statusCode).toBe(451);
    expect((await visit(link.shortCode, { 'x-forwarded-for': LONDON_IP })).statusCode).toBe(451);
    await received(hook.path, 'link.geo_blocked', 2);
    const log = await waitFor('three deliveries logged as delivered', async () => {
      const all = await hooks().deliveries(user, hook.id);
      return all.length >= 3 && all.every((d) => d.status === 'delivered') ? all : undefined;
    });
    expect(log.map((d) => d.event).sort()).toEqual(['link.click', 'link.geo_blocked', 'link.geo_blocked']);
    expect((await links().get(user, link.shortCode)).json<LinkA>().clicks).toBe(1);
  });

  it('delivers link.expired after the clock passes expiresAt and the expiry sweep runs', async () => {
    const user = await t.createUser('pro');
    const hook = await subscribe(user, ['link.expired']);
    const link = await links().create(user, { url: 'https://example.com/expiring', expiresAt: links().inFuture(5_000) });
    await t.core.expiry.sweep();
    t.clock.advance(6_000);
    await t.core.expiry.sweep();

    const [request] = await received(hook.path, 'link.expired');
    expectSignedDelivery(request!, hook.secret, 'link.expired');
    expect(payloadOf(request!).data).toMatchObject({
      shortCode: link.shortCode,
      url: `http://snip.test/${link.shortCode}`,
      destination: 'https://example.com/expiring',
      expiresAt: link.expiresAt,
    });
    expect(eventsAt(hook.path)).toEqual(['link.expired']);
  });

  it('sends only the subscribed events, and nothing of one account to the webhooks of another', async () => {
    const user = await t.createUser('pro');
    const stranger = await t.createUser('pro');
    const narrow = await subscribe(user, ['link.deleted']);
    // Receives everything, in one outbox with `narrow`: once it has the last event, `narrow` has had its chance.
    const everything = await subscribe(user, ALL_EVENTS);
    const strangers = await subscribe(stranger, ALL_EVENTS);

    const link = await links().create(user, { url: 'https://example.com/many', maxClicks: 1, blockedCountries: ['GB'] });
    expect((await links().patch(user, link.shortCode, { url: 'https://example.com/many-2' })).statusCode).toBe(200);
    expect((await visit(link.shortCode, { 'x-forwarded-for': LONDON_IP })).statusCode).toBe(451);
    expect((await visit(link.shortCode, { 'x-forwarded-for': US_IP })).statusCode).toBe(302);
    await received(everything.path, 'link.click');
    expect((await links().del(user, link.shortCode)).statusCode).toBe(200);

    await received(everything.path, 'link.deleted');
    await received(narrow.path, 'link.deleted');
    await waitFor('all six events at the catch-all webhook', () => receiver.to(everything.path).length >= 6);
    expect(eventsAt(everything.path).sort()).toEqual(['link.click', 'link.created', 'link.deleted', 'link.geo_blocked', 'link.limit_reached', 'link.updated']);
    expect(eventsAt(narrow.path)).toEqual(['link.deleted']);
    expect((await hooks().deliveries(user, narrow.id)).map((d) => d.event)).toEqual(['link.deleted']);
    expect(receiver.to(strangers.path)).toEqual([]);
    expect(await hooks().deliveries(stranger, strangers.id)).toEqual([]);
  });

  it('answers the delivery log newest first, a page at a time', async () => {
    const user = await t.createUser('pro');
    const hook = await subscribe(user, ['link.created']);
    const codes: string[] = [];
    for (let i = 0; i < 3; i++) {
      codes.push((await links().create(user, { url: `https://example.com/page-${i}` })).shortCode);
      await received(hook.path, 'link.created', i + 1);
    }
    const sentIds = receiver.to(hook.path).map((r) => r.headers['x-snip-delivery']);
    const all = await logUntil(user, hook.id, (d) => d.id === sentIds[2] && d.status === 'delivered', 'three delivered');
    expect(all.map((d) => d.id)).toEqual([...sentIds].reverse());
    expect((await hooks().deliveries(user, hook.id, '?limit=2')).map((d) => d.id)).toEqual([sentIds[2], sentIds[1]]);
    expect((await hooks().deliveries(user, hook.id, '?limit=2&offset=2')).map((d) => d.id)).toEqual([sentIds[0]]);
    expect(receiver.to(hook.path).map((r) => (payloadOf(r).data as { shortCode: string }).shortCode)).toEqual(codes);
  });

  it('retries a failed delivery: 500, 500, then 200 is delivered at attempt 3 with the same bytes and signature, after the configured delays', async () => {
    const user = await t.createUser('pro');
    const hook = await subscribe(user, ['link.created'], (_request, nth) => (nth <= 2 ? 500 : 200));
    await links().create(user, { url: 'https://example.com/flaky' });

    const attempts = await received(hook.path, 'link.created', 3);
    expect(attempts.map((r) => r.headers['x-snip-attempt'])).toEqual(['1', '2', '3']);
    for (const [i, request] of attempts.entries()) expectSignedDelivery(request, hook.secret, 'link.created', i + 1);
    expect(new Set(attempts.map((r) => r.body.toString('base64'))).size).toBe(1);
    expect(new Set(attempts.map((r) => r.headers['x-snip-signature'])).size).toBe(1);
    expect(new Set(attempts.map((r) => r.headers['x-snip-delivery'])).size).toBe(1);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(200);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(300);

    const log = await logUntil(user, hook.id, (d) => d.status === 'delivered', 'delivered at attempt 3');
    expect(log).toEqual([
      expect.objectContaining({ id: attempts[0]!.headers['x-snip-delivery'], status: 'delivered', attempts: 3, lastStatus: 200, lastError: null, nextAttemptAt: null }),
    ]);
    expect(log[0]!.finishedAt).toMatch(ISO_INSTANT);
    expect((await hooks().get(user, hook.id)).lastStatus).toBe(200);
    expect(receiver.to(hook.path)).toHaveLength(3);
  });

  it('gives up after 1 + 3 retries against a receiver that always answers 500: abandoned, attempts 4, lastStatus 500', async () => {
    const user = await t.createUser('pro');
    const hook = await subscribe(user, ['link.created'], 500);
    await links().create(user, { url: 'https://example.com/down' });

    const [first] = await received(hook.path, 'link.created');
    const log = await logUntil(user, hook.id, (d) => d.status === 'abandoned', 'the delivery abandoned');
    expect(log).toEqual([
      {
        id: first!.headers['x-snip-delivery'],
        event: 'link.created',
        status: 'abandoned',
        attempts: 4,
        lastStatus: 500,
        lastError: expect.stringContaining('500'),
        createdAt: expect.stringMatching(ISO_INSTANT),
        nextAttemptAt: null,
        finishedAt: expect.stringMatching(ISO_INSTANT),
      },
    ]);
    const attempts = receiver.to(hook.path);
    expect(attempts.map((r) => r.headers['x-snip-attempt'])).toEqual(['1', '2', '3', '4']);
    expect(attempts[3]!.at - attempts[2]!.at).toBeGreaterThanOrEqual(400);
    const shown = await hooks().get(user, hook.id);
    expect(shown.lastStatus).toBe(500);
    expect(shown.lastDeliveryAt).toBe(log[0]!.finishedAt);
  });

  it('sends a signed webhook.test payload from the test endpoint and reports a 204 as success', async () => {
    const user = await t.createUser('pro');
    const hook = await subscribe(user, ['link.click'], 204);
    const result = await hooks().test(user, hook.id);
    expect(result).toEqual({ success: true, statusCode: 204, durationMs: expect.any(Number), error: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);

    const [request] = receiver.to(hook.path);
    expect(request).toBeDefined();
    expectSignedDelivery(request!, hook.secret, 'webhook.test');
    expect(payloadOf(request!).data).toMatchObject({ webhookId: hook.id });
    const shown = await hooks().get(user, hook.id);
    expect(shown.lastStatus).toBe(204);
    expect(shown.lastDeliveryAt).toMatch(ISO_INSTANT);

    // The same under B's base.
    const viaB = await webhookApi(t, '/api/webhooks').test(user, hook.id);
    expect(viaB).toEqual({ success: true, statusCode: 204, durationMs: expect.any(Number), error: null });
    const [, second] = receiver.to(hook.path);
    expectSignedDelivery(second!, hook.secret, 'webhook.test');
    expect(second!.headers['x-snip-delivery']).not.toBe(request!.headers['x-snip-delivery']);
  });

  it('reports a 500 from the receiver as failure with its status, and a closed port as failure with status 0', async () => {
    const user = await t.createUser('builder');
    const failing = await subscribe(user, ['link.click'], 500);
    const result = await hooks().test(user, failing.id);
    expect(result).toEqual({ success: false, statusCode: 500, durationMs: expect.any(Number), error: expect.any(String) });
    expect(receiver.to(failing.path)).toHaveLength(1);
    expect((await hooks().get(user, failing.id)).lastStatus).toBe(500);

    const port = await closedPort();
    const closed = await hooks().create(user, { url: `http://127.0.0.1:${port}/nobody`, events: ['link.click'] });
    const refused = await hooks().test(user, closed.id);
    expect(refused).toEqual({ success: false, statusCode: 0, durationMs: expect.any(Number), error: expect.any(String) });
    expect(refused.error).not.toBe('');
  });

  it('sends nothing to a disabled webhook, and sends again once it is enabled', async () => {
    const user = await t.createUser('pro');
    const paused = await subscribe(user, ['link.created']);
    const sentinel = await subscribe(user, ['link.created']);
    expect((await hooks().patch(user, paused.id, { enabled: false })).json<WebhookObject>().enabled).toBe(false);

    const quiet = await links().create(user, { url: 'https://example.com/while-disabled' });
    await received(sentinel.path, 'link.created');
    expect(receiver.to(paused.path)).toEqual([]);
    expect(await hooks().deliveries(user, paused.id)).toEqual([]);

    expect((await hooks().patch(user, paused.id, { enabled: true })).json<WebhookObject>().enabled).toBe(true);
    const loud = await links().create(user, { url: 'https://example.com/enabled-again' });
    const [request] = await received(paused.path, 'link.created');
    expect((payloadOf(request!).data as { shortCode: string }).shortCode).toBe(loud.shortCode);
    expect(quiet.shortCode).not.toBe(loud.shortCode);
  });

  it('abandons the pending retry of a webhook that is disabled, without sending it', async () => {
    const user = await t.createUser('pro');
    const hook = await subscribe(user, ['link.created'], 500);
    await links().create(user, { url: 'https://example.com/paused-retry' });

    const [first] = await received(hook.path, 'link.created');
    expect((await hooks().patch(user, hook.id, { enabled: false })).statusCode).toBe(200);
    const log = await logUntil(user, hook.id, (d) => d.status === 'abandoned', 'the pending retry abandoned');
    expect(log).toEqual([expect.objectContaining({ id: first!.headers['x-snip-delivery'], status: 'abandoned', nextAttemptAt: null, finishedAt: expect.stringMatching(ISO_INSTANT) })]);
    expect(receiver.to(hook.path)).toHaveLength(1);
  });

  it('stops the pending retries of a webhook that is deleted', async () => {
    const user = await t.createUser('pro');
    const doomed = await subscribe(user, ['link.created'], 500);
    // Fails alongside `doomed`, on the same schedule: once its later attempts have come, so would have doomed's.
    const witness = await subscribe(user, ['link.created'], 500);
    await links().create(user, { url: 'https://example.com/retrying' });

    await received(doomed.path, 'link.created');
    expect((await hooks().del(user, doomed.id)).statusCode).toBe(200);
    await received(witness.path, 'link.created', 3);
    expect(receiver.to(doomed.path).map((r) => r.headers['x-snip-attempt'])).toEqual(['1']);
    expectError(await hooks().deliveriesRes(user, doomed.id), 404, 'WEBHOOK_NOT_FOUND');
  });
});

describe(`blocked countries on links (${dialectName}, TRUST_PROXY=true)`, () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  const pro = t.user('pro');
  const apiA = () => linkApi<CreatedLinkA, LinkA & { blockedCountries: string[] }>(t, LINKS_A);
  const apiB = () => linkApi<LinkB & { blockedCountries: string[] }, LinkB>(t, LINKS_B);
  const visitFrom = (code: string, ip: string) => t.app.inject({ method: 'GET', url: `/${code}`, headers: { 'user-agent': CHROME, 'x-forwarded-for': ip } });
  const blockedOf = async (code: string): Promise<string[]> => {
    const res = await apiA().get(pro, code);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ blockedCountries: string[] }>().blockedCountries;
  };

  it('stores blockedCountries given on create (A), upper-cased, deduplicated and sorted, and shows them in the details', async () => {
    const link = await apiA().create(pro, { url: 'https://example.com/a-geo', blockedCountries: ['gb', 'FR', 'GB'] });
    expect(await blockedOf(link.shortCode)).toEqual(['FR', 'GB']);
    expect((await visitFrom(link.shortCode, LONDON_IP)).statusCode).toBe(451);
    expect((await visitFrom(link.shortCode, US_IP)).headers.location).toBe('https://example.com/a-geo');
  });

  it('stores blockedCountries given on create (B /api/links) and answers them in the created link', async () => {
    const created = await apiB().create(pro, { url: 'https://example.com/b-geo', blockedCountries: ['us'] });
    expect(created.blockedCountries).toEqual(['US']);
    const res = await apiB().get(pro, created.shortCode);
    expect(res.json<{ blockedCountries: string[] }>().blockedCountries).toEqual(['US']);
    expect((await visitFrom(created.shortCode, US_IP)).statusCode).toBe(451);
    expect((await visitFrom(created.shortCode, LONDON_IP)).statusCode).toBe(302);
  });

  it('lets through a visitor the GeoIP database cannot place (a private address)', async () => {
    const link = await apiA().create(pro, { url: 'https://example.com/unplaced', blockedCountries: ['GB', 'US'] });
    const res = await visitFrom(link.shortCode, '10.1.2.3');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://example.com/unplaced');
  });

  it('shows an empty list for a link that blocks nobody, including one created with []', async () => {
    const plain = await apiA().create(pro, { url: 'https://example.com/open' });
    const empty = await apiA().create(pro, { url: 'https://example.com/open-empty', blockedCountries: [] });
    expect(await blockedOf(plain.shortCode)).toEqual([]);
    expect(await blockedOf(empty.shortCode)).toEqual([]);
    expect((await visitFrom(empty.shortCode, LONDON_IP)).statusCode).toBe(302);
  });

  it('changes the blocked countries with PATCH, and clears them with [] or null; visitors see the change at once', async () => {
    const link = await apiA().create(pro, { url: 'https://example.com/changing', blockedCountries: ['GB'] });
    expect((await visitFrom(link.shortCode, LONDON_IP)).statusCode).toBe(451);
    expect((await visitFrom(link.shortCode, US_IP)).statusCode).toBe(302);

    const changed = await apiA().patch(pro, link.shortCode, { blockedCountries: ['us'] });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<{ blockedCountries: string[] }>().blockedCountries).toEqual(['US']);
    expect(await blockedOf(link.shortCode)).toEqual(['US']);
    expect((await visitFrom(link.shortCode, LONDON_IP)).statusCode).toBe(302);
    expect((await visitFrom(link.shortCode, US_IP)).statusCode).toBe(451);

    const viaB = await apiB().patch(pro, link.shortCode, { blockedCountries: ['GB', 'US'] });
    expect(viaB.statusCode, viaB.body).toBe(200);
    expect(await blockedOf(link.shortCode)).toEqual(['GB', 'US']);

    const emptied = await apiA().patch(pro, link.shortCode, { blockedCountries: [] });
    expect(emptied.statusCode, emptied.body).toBe(200);
    expect(await blockedOf(link.shortCode)).toEqual([]);
    expect((await apiA().patch(pro, link.shortCode, { blockedCountries: ['GB', 'US'] })).statusCode).toBe(200);

    const cleared = await apiA().patch(pro, link.shortCode, { blockedCountries: null });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await blockedOf(link.shortCode)).toEqual([]);
    expect((await visitFrom(link.shortCode, LONDON_IP)).statusCode).toBe(302);
    expect((await visitFrom(link.shortCode, US_IP)).statusCode).toBe(302);
  });

  it.each([[['GBR']], ['GB'], [['G1']], [['']], [[7]]])(
    'refuses blockedCountries %j with 400 INVALID_BLOCKED_COUNTRIES on create (A and B) and on PATCH',
    async (blockedCountries) => {
      const before = (await apiA().listAll(pro)).length;
      expectError(await apiA().post(pro, { url: 'https://example.com/bad-geo', blockedCountries }), 400, 'INVALID_BLOCKED_COUNTRIES', 'A create');
      expectError(await apiB().post(pro, { url: 'https://example.com/bad-geo', blockedCountries }), 400, 'INVALID_BLOCKED_COUNTRIES', 'B create');
      expect((await apiA().listAll(pro)).length).toBe(before);

      const link = await apiA().create(pro, { url: 'https://example.com/geo-kept', blockedCountries: ['FR'] });
      expectError(await apiA().patch(pro, link.shortCode, { blockedCountries }), 400, 'INVALID_BLOCKED_COUNTRIES', 'A patch');
      expectError(await apiB().patch(pro, link.shortCode, { blockedCountries }), 400, 'INVALID_BLOCKED_COUNTRIES', 'B patch');
      expect(await blockedOf(link.shortCode)).toEqual(['FR']);
    },
  );
});
