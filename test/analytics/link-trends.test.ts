import { describe, expect, it } from 'vitest';
import { dialectName, useTestApp } from '../helpers/app.js';
import { BROWSER_UA } from '../helpers/user-agents.js';

describe(`the links list's 7-day trends: GET /api/analytics/link-trends (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('pro');
  const stranger = t.user('pro');

  const create = async (user: typeof owner, url: string) =>
    (await t.as(user, { method: 'POST', url: '/api/v1/links', payload: { url } })).json<{ shortCode: string }>().shortCode;
  const idOf = async (user: typeof owner, code: string) => (await t.as(user, { method: 'GET', url: `/api/v1/links/${code}` })).json<{ id: string }>().id;
  const visit = (code: string) => t.app.inject({ method: 'GET', url: `/${code}`, headers: { 'user-agent': BROWSER_UA } });

  it("answers each of the caller's links' clicks per day, today last, in one request; other accounts' links stay zeros", async () => {
    const [busy, quiet, foreign] = [await create(owner, 'https://example.com/busy'), await create(owner, 'https://example.com/quiet'), await create(stranger, 'https://example.com/theirs')];
    for (let i = 0; i < 3; i++) await visit(busy);
    await visit(quiet);
    await visit(foreign);
    const ids = [await idOf(owner, busy), await idOf(owner, quiet), await idOf(stranger, foreign)];
    const res = await t.as(owner, { method: 'GET', url: `/api/analytics/link-trends?ids=${ids.join(',')}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      trends: [
        { id: ids[0], days: [0, 0, 0, 0, 0, 0, 3] },
        { id: ids[1], days: [0, 0, 0, 0, 0, 0, 1] },
        { id: ids[2], days: [0, 0, 0, 0, 0, 0, 0] },
      ],
    });
  });

  it('refuses a list that is not ids, or more than 100, and answers no caller without a key', async () => {
    for (const ids of ['', 'a;b', Array.from({ length: 101 }, (_, i) => `lnk_${i}`).join(',')]) {
      expect((await t.as(owner, { method: 'GET', url: `/api/analytics/link-trends?ids=${encodeURIComponent(ids)}` })).statusCode).toBe(400);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/analytics/link-trends?ids=lnk_1' })).statusCode).toBe(401);
  });
});
