import { describe, expect, it } from 'vitest';
import { HostPolicy, hostnameOf, type CustomDomains } from '../../../src/http/hosts.js';

describe('hostnameOf', () => {
  it.each([
    ['snip.test', 'snip.test'],
    ['SNIP.Test:8080', 'snip.test'],
    ['snip.test.', 'snip.test'],
    ['snip.test:', 'snip.test'],
    ['127.0.0.1:3000', '127.0.0.1'],
    ['[::1]:3000', '[::1]'],
    ['[2001:DB8:0:0::1]', '[2001:db8::1]'],
    ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]'],
    ['under_score.example', 'under_score.example'],
  ])('reads %j as %j', (authority, hostname) => {
    expect(hostnameOf(authority)).toBe(hostname);
  });

  it.each(['', ':80', '.', 'a:b:c', '::1', '[::1', '[::1]x', '[zz::1]', 'x y', 'snip.test:123456', 'user@snip.test', 'snip.test/path'])('finds no host in %j', (authority) => {
    expect(hostnameOf(authority)).toBeNull();
  });
});

/** Custom domains held in memory: the policy only asks whether a hostname is an active one. */
const domains = (active: string[], delayMs = 0): CustomDomains => ({
  activeDomain: async (hostname) => {
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    return active.includes(hostname) ? { hostname } : null;
  },
});

describe('HostPolicy', () => {
  const policy = new HostPolicy('https://Snip.Test:8443', ['alias.example', 'ALT.example.'], domains(['go.brand.example']));

  it('counts BASE_URL\'s host, ALLOWED_HOSTS and every loopback name as its own', () => {
    for (const hostname of ['snip.test', 'alias.example', 'alt.example', 'localhost', 'app.localhost', '127.0.0.1', '127.8.9.10', '[::1]']) {
      expect(policy.isOwn(hostname), hostname).toBe(true);
    }
    expect(policy.isOwn('evil.example')).toBe(false);
    expect(policy.isOwn('go.brand.example')).toBe(false);
  });

  it('lets every route answer on its own hosts, in any spelling of them', async () => {
    for (const hosts of [undefined, 'custom-domains', 'any'] as const) {
      expect(await policy.admits('SNIP.test.:8443', hosts)).toBe(true);
      expect(await policy.admits('[0:0::1]:3000', hosts)).toBe(true);
    }
  });

  it('answers on an active custom domain only where the route says so', async () => {
    expect(await policy.admits('go.brand.example', 'custom-domains')).toBe(true);
    expect(await policy.admits('GO.Brand.Example.', 'custom-domains')).toBe(true);
    expect(await policy.admits('go.brand.example', undefined)).toBe(false);
    expect(await policy.admits('other.brand.example', 'custom-domains')).toBe(false);
  });

  it('refuses a malformed Host, except on routes that answer on any host', async () => {
    expect(await policy.admits('a:b:c', 'custom-domains')).toBe(false);
    expect(await policy.admits('', undefined)).toBe(false);
    expect(await policy.admits('a:b:c', 'any')).toBe(true);
  });

  it('waits for a custom domain looked up asynchronously', async () => {
    const slow = new HostPolicy('http://localhost:3000', [], domains(['late.example'], 5));
    expect(await slow.admits('late.example', 'custom-domains')).toBe(true);
  });
});
