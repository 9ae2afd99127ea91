import { describe, expect, it } from 'vitest';
import { dialectName, useTestApp } from '../helpers/app.js';

/**
 * Attack: the client picks its own address. Behind an appending proxy (nginx's $proxy_add_x_forwarded_for), a
 * visitor who sends `X-Forwarded-For: 127.0.0.1` arrives as `127.0.0.1, <their address>`. Trusting the leftmost
 * entry gets round country blocks and skews statistics; trusting the proxies in front of Snip does not.
 */
const LONDON_IP = '81.2.69.142'; // GB in the bundled GeoIP database
const PROXY = '10.0.0.5';
const forged = { 'x-forwarded-for': `127.0.0.1, ${LONDON_IP}` };

describe.each([
  ['1', 'one proxy hop'],
  [PROXY, "the proxy's address"],
  ['10.0.0.0/8', "the proxies' network"],
])(`TRUST_PROXY=%s (%s) (${dialectName})`, (trust) => {
  const t = useTestApp({ TRUST_PROXY: trust });
  const user = t.user('pro');

  it('takes the address the proxy saw, not one the client wrote: a blocked country stays blocked', async () => {
    const link = await t.as(user, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/geo-proxy', blockedCountries: ['GB'] } });
    const code = link.json<{ shortCode: string }>().shortCode;
    const visit = await t.app.inject({ method: 'GET', url: `/${code}`, remoteAddress: PROXY, headers: forged });
    expect(visit.statusCode).toBe(451);
    expect(visit.headers.location).toBeUndefined();
  });

  it('ignores X-Forwarded-For from a client that is not a trusted proxy', async () => {
    if (trust === '1') return; // a hop count trusts whoever is one hop in front, by definition
    const link = await t.as(user, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/geo-direct', blockedCountries: ['GB'] } });
    const code = link.json<{ shortCode: string }>().shortCode;
    // A London visitor connecting directly, claiming to be elsewhere: the socket's address counts.
    const visit = await t.app.inject({ method: 'GET', url: `/${code}`, remoteAddress: LONDON_IP, headers: { 'x-forwarded-for': '8.8.8.8' } });
    expect(visit.statusCode).toBe(451);
  });
});

describe(`TRUST_PROXY=true (${dialectName}): every hop believed, as documented (start-up warns)`, () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  const user = t.user('pro');

  it('takes the leftmost address, which the client chose: why the README says to set a hop count or the proxies instead', async () => {
    const link = await t.as(user, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/geo-any', blockedCountries: ['GB'] } });
    const code = link.json<{ shortCode: string }>().shortCode;
    const visit = await t.app.inject({ method: 'GET', url: `/${code}`, remoteAddress: PROXY, headers: forged });
    expect(visit.statusCode).toBe(302);
  });
});
