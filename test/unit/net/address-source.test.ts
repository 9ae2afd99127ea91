import { describe, expect, it } from 'vitest';
import { sourceOf } from '../../../src/net/address-source.js';

describe('sourceOf', () => {
  it('counts an IPv4 address as itself', () => {
    expect(sourceOf('203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts every address of one IPv6 /64 as that /64, however it is spelled', () => {
    const source = '2001:db8:1:2::/64';
    for (const address of ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:0:0:0:9', '2001:db8:1:2:a:b:c:d']) {
      expect(sourceOf(address), address).toBe(source);
    }
  });

  it('tells neighbouring /64s apart', () => {
    expect(sourceOf('2001:db8:1:2::1')).not.toBe(sourceOf('2001:db8:1:3::1'));
    expect(sourceOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  it('writes the prefix with zero groups as 0, so one network has one spelling', () => {
    expect(sourceOf('::1')).toBe('0:0:0:0::/64');
    expect(sourceOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('counts an IPv4-mapped IPv6 address as the IPv4 address it carries', () => {
    expect(sourceOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(sourceOf('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('leaves a value that is no address as it is, so it still counts as one source of its own', () => {
    expect(sourceOf('not:an:address')).toBe('not:an:address');
    expect(sourceOf('unknown')).toBe('unknown');
    expect(sourceOf('')).toBe('');
  });
});
