import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectName, useTestApp } from '../helpers/app.js';
import { expectError } from '../helpers/api-errors.js';
import { connectClient, listenMcp, refused } from '../helpers/mcp.js';

/** Routing fields a link refuses, with the same stable code on every surface that writes a link. */

const DEST = 'https://example.com/x';
const rule = (conditions: unknown[], url = 'https://example.com/r') => ({ conditions, url });
const split = (...weights: number[]) => weights.map((weight, i) => ({ url: `https://example.com/v${i}`, weight }));

const REFUSED: [string, Record<string, unknown>, string][] = [
  ['variants adding up to 90', { variants: split(40, 50) }, 'INVALID_VARIANTS'],
  ['variants adding up to 110', { variants: split(60, 50) }, 'INVALID_VARIANTS'],
  ['one variant', { variants: split(100) }, 'INVALID_VARIANTS'],
  ['five variants', { variants: split(20, 20, 20, 20, 20) }, 'INVALID_VARIANTS'],
  ['a weight of 0', { variants: split(0, 100) }, 'INVALID_VARIANTS'],
  ['a variant pointing at Snip', { variants: [{ url: 'http://snip.test/abcdef', weight: 50 }, { url: DEST, weight: 50 }] }, 'INVALID_VARIANTS'],
  ['21 rules', { rules: Array.from({ length: 21 }, () => rule([{ type: 'device', value: 'ios' }])) }, 'INVALID_RULES'],
  ['a CIDR prefix past 32', { rules: [rule([{ type: 'address', value: '10.0.0.0/33' }])] }, 'INVALID_RULES'],
  ['an address that is none', { rules: [rule([{ type: 'address', value: '999.1.1.1' }])] }, 'INVALID_RULES'],
  ['an IPv6 prefix past 128', { rules: [rule([{ type: 'address', value: '2001:db8::/129' }])] }, 'INVALID_RULES'],
  ['an unknown device', { rules: [rule([{ type: 'device', value: 'blackberry' }])] }, 'INVALID_RULES'],
  ['an unknown condition type', { rules: [rule([{ type: 'weather', value: 'rain' }])] }, 'INVALID_RULES'],
  ['a rule without conditions', { rules: [rule([])] }, 'INVALID_RULES'],
  ['a country of three letters', { rules: [rule([{ type: 'country', value: 'DEU' }])] }, 'INVALID_RULES'],
  ['a rule pointing at Snip itself', { rules: [rule([{ type: 'device', value: 'ios' }], 'http://snip.test/abcdef')] }, 'INVALID_RULES'],
  ['a rule url that is not http', { rules: [rule([{ type: 'device', value: 'ios' }], 'javascript:alert(1)')] }, 'INVALID_RULES'],
  ['an expiredUrl pointing at Snip', { expiredUrl: 'http://snip.test/abcdef' }, 'INVALID_EXPIRED_URL'],
  ['an expiredUrl that is not http', { expiredUrl: 'ftp://example.com/x' }, 'INVALID_EXPIRED_URL'],
];

describe(`routing fields refused (${dialectName})`, () => {
  const t = useTestApp();
  const owner = t.user('pro');
  let mcp: Client;
  let code: string;

  beforeAll(async () => {
    mcp = await connectClient(await listenMcp(t), owner.apiKey);
    code = (await t.as(owner, { method: 'POST', url: '/api/v1/links', payload: { url: DEST } })).json<{ shortCode: string }>().shortCode;
  });
  afterAll(async () => {
    await mcp?.close();
  });

  it.each(REFUSED)('refuses %s on every surface', async (_label, fields, errorCode) => {
    const before = (await t.as(owner, { method: 'GET', url: '/api/v1/links?limit=100' })).json<{ links: unknown[] }>().links.length;
    expectError(await t.as(owner, { method: 'POST', url: '/api/v1/links', payload: { url: DEST, ...fields } }), 400, errorCode, 'REST A create');
    expectError(await t.as(owner, { method: 'POST', url: '/api/links', payload: { url: DEST, ...fields } }), 400, errorCode, 'REST B create');
    expectError(await t.as(owner, { method: 'PATCH', url: `/api/v1/links/${code}`, payload: fields }), 400, errorCode, 'REST A change');
    expectError(await t.as(owner, { method: 'PATCH', url: `/api/links/${code}`, payload: fields }), 400, errorCode, 'REST B change');
    await refused(mcp, 'shorten_url', { url: DEST, ...fields }, errorCode);
    await refused(mcp, 'update_link', { shortPath: code, ...fields }, errorCode);
    expect((await t.as(owner, { method: 'GET', url: '/api/v1/links?limit=100' })).json<{ links: unknown[] }>().links.length).toBe(before);
    const link = (await t.as(owner, { method: 'GET', url: `/api/v1/links/${code}` })).json();
    expect(link).toMatchObject({ rules: null, variants: null, expiredUrl: null });
  });

  it('accepts the edges: 20 rules, 4 variants, IPv6 and IPv4 addresses and ranges', async () => {
    const res = await t.as(owner, {
      method: 'POST',
      url: '/api/v1/links',
      payload: {
        url: DEST,
        rules: [
          rule([{ type: 'address', value: '2001:db8::1' }]),
          rule([{ type: 'address', value: '2001:db8::/32' }]),
          rule([{ type: 'address', value: '192.0.2.1' }]),
          rule([{ type: 'address', value: '0.0.0.0/0' }]),
          ...Array.from({ length: 16 }, () => rule([{ type: 'device', value: 'chromeos' }])),
        ],
        variants: split(25, 25, 25, 25),
      },
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});
