import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectName, startApp, type TestApp, type TestUser } from './helpers/app.js';

describe(`Description A links (${dialectName})`, () => {
  let t: TestApp;
  let pro: TestUser;

  beforeAll(async () => {
    t = await startApp();
    pro = await t.createUser('pro');
  });
  afterAll(() => t.close());

  const create = (body: unknown, user: TestUser | null = pro) =>
    t.as(user, { method: 'POST', url: '/api/v1/links', payload: body as object });

  it('creates a link with a random 6-character code and answers the 2.3 shape', async () => {
    const res = await create({ url: 'https://example.com/page?q=1' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
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
    });
    expect(Number.isNaN(Date.parse(body.created))).toBe(false);
  });

  it('puts a custom slug under the account namespace, and both paths resolve to the link', async () => {
    const res = await create({ url: 'https://example.com/custom', customSlug: 'Summer-Sale' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.namespace).toBe(pro.namespace);
    expect(body.fullPath).toBe(`${pro.namespace}/Summer-Sale`);
    expect(body.shortUrl).toBe(`http://snip.test/${pro.namespace}/Summer-Sale`);

    const byPath = await t.as(pro, { method: 'GET', url: `/api/v1/links/${encodeURIComponent(body.fullPath)}` });
    expect(byPath.statusCode).toBe(200);
    expect(byPath.json()).toMatchObject({ shortCode: body.shortCode, isCustom: true, fullPath: body.fullPath });
    const byCode = await t.as(pro, { method: 'GET', url: `/api/v1/links/${body.shortCode}` });
    expect(byCode.json().id).toBe(byPath.json().id);

    const again = await create({ url: 'https://example.com/other', customSlug: 'Summer-Sale' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: true, code: 'SLUG_TAKEN', message: expect.any(String) });
  });

  it('stores expiresAt and maxClicks and returns them', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const res = await create({ url: 'https://example.com/x', expiresAt, maxClicks: 3 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ expiresAt, maxClicks: 3 });
  });

  it.each([
    [{}, 'MISSING_URL'],
    [{ url: '' }, 'MISSING_URL'],
    [{ url: 'not a url' }, 'INVALID_URL'],
    [{ url: 'javascript:alert(1)' }, 'INVALID_URL'],
    [{ url: 'data:text/html,hi' }, 'INVALID_URL'],
    [{ url: 'file:///etc/passwd' }, 'INVALID_URL'],
    [{ url: 'ftp://example.com/f' }, 'INVALID_URL'],
    [{ url: 'http://snip.test/abcdef' }, 'INVALID_URL'],
    [{ url: `https://example.com/${'a'.repeat(5000)}` }, 'INVALID_URL'],
    [{ url: 'https://example.com', customSlug: 'ab' }, 'INVALID_SLUG'],
    [{ url: 'https://example.com', customSlug: 'has space' }, 'INVALID_SLUG'],
    [{ url: 'https://example.com', customSlug: 'x'.repeat(51) }, 'INVALID_SLUG'],
    [{ url: 'https://example.com', maxClicks: 0 }, 'INVALID_MAX_CLICKS'],
    [{ url: 'https://example.com', maxClicks: 1.5 }, 'INVALID_MAX_CLICKS'],
    [{ url: 'https://example.com', expiresAt: 'tomorrow' }, 'INVALID_EXPIRES_AT'],
    [{ url: 'https://example.com', expiresAt: '2020-01-01T00:00:00Z' }, 'EXPIRES_AT_IN_PAST'],
    [{ url: 'https://example.com', activeFrom: '2020-01-01T00:00:00Z' }, 'ACTIVE_FROM_IN_PAST'],
    [
      { url: 'https://example.com', activeFrom: '2099-01-02T00:00:00Z', expiresAt: '2099-01-01T00:00:00Z' },
      'EXPIRES_BEFORE_ACTIVE',
    ],
  ])('refuses %j with 400 %s and creates nothing', async (body, code) => {
    const before = (await t.as(pro, { method: 'GET', url: '/api/v1/links?limit=100' })).json().links.length;
    const res = await create(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: true, code, message: expect.any(String) });
    const after = (await t.as(pro, { method: 'GET', url: '/api/v1/links?limit=100' })).json().links.length;
    expect(after).toBe(before);
  });
});
