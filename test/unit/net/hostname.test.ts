import { describe, expect, it } from 'vitest';
import { isIpLiteral, isLoopbackHost } from '../../../src/net/hostname.js';

describe('host names and IP addresses', () => {
  it('tells IP addresses in every spelling ipaddr.js reads from names', () => {
    for (const ip of ['1.2.3.4', '[2001:db8::1]', '2001:db8::1', '::ffff:1.2.3.4', '0x7f.1', '2130706433', '0177.0.0.1', '0x7f000001']) {
      expect(isIpLiteral(ip), ip).toBe(true);
    }
    for (const name of ['example.com', 'cafe.de', 'links.example.org', '1.2.3.4.example.com', 'face', 'x', '']) {
      expect(isIpLiteral(name), name).toBe(false);
    }
  });

  it('finds loopback in its other spellings, and only there', () => {
    for (const host of ['localhost', 'a.localhost', '127.0.0.1', '127.9.9.9', '0x7f.1', '2130706433', '0177.0.0.1', '[::1]', '::ffff:127.0.0.1', '0.0.0.0']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ['example.com', 'cafe.de', '128.0.0.1', '[2001:db8::1]', '127.0.0.1.example.com', 'localhost.example.com']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});
