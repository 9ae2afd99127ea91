import { describe, expect, it } from 'vitest';
import { dialectName, useTestApp } from '../helpers/app.js';

/**
 * Attack: a short link that points back at Snip (a redirect loop, or a way to launder Snip's own URLs). Every
 * spelling of Snip's own host is refused, not only the one in BASE_URL.
 */
describe.each([
  ['http://snip.test', ['http://SNIP.TEST./abcdef', 'https://snip.test:8443/x', 'http://sn%69p.test/x', 'https://ｓｎｉｐ.test/x', 'http://user@snip.test/x']],
  [
    'http://localhost:3000',
    ['http://127.0.0.1:3000/abcdef', 'http://[::1]/x', 'http://0x7f.1/x', 'http://2130706433/x', 'http://127.1.2.3/x', 'http://LOCALHOST./x', 'http://app.localhost/x', 'http://0.0.0.0:3000/x', 'http://[::ffff:127.0.0.1]/x'],
  ],
])(`BASE_URL=%s (${dialectName})`, (baseUrl, spellings) => {
  const t = useTestApp({ BASE_URL: baseUrl });
  const user = t.user('pro');

  it.each(spellings)('refuses %s as a destination with 400 INVALID_URL', async (url) => {
    const res = await t.as(user, { method: 'POST', url: '/api/v1/links', payload: { url } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_URL', message: expect.stringContaining('this service') });
  });

  it('still accepts another host', async () => {
    expect((await t.as(user, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/fine' } })).statusCode).toBe(201);
  });
});
