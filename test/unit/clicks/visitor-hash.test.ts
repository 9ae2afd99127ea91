import { describe, expect, it } from 'vitest';
import { dayOf } from '../../../src/clicks/day.js';
import { DISTINCT_PER_ADDRESS, VisitorHasher } from '../../../src/clicks/visitor-hash.js';
import { FIREFOX, IPHONE } from './visits.js';

const morning = Date.parse('2026-05-20T08:00:00Z');
const evening = Date.parse('2026-05-20T23:59:59.999Z');
const nextDay = Date.parse('2026-05-21T00:00:00Z');

describe('dayOf', () => {
  it('is the UTC calendar day, also when asked out of order', () => {
    expect(dayOf(evening)).toBe('2026-05-20');
    expect(dayOf(nextDay)).toBe('2026-05-21');
    expect(dayOf(evening)).toBe('2026-05-20');
    expect(dayOf(Date.parse('2026-05-21T01:30:00+02:00'))).toBe('2026-05-20');
    expect(dayOf(Date.parse('2024-02-29T12:00:00Z'))).toBe('2024-02-29');
  });
});

describe('VisitorHasher', () => {
  it('gives one visitor (address and user agent) one opaque value for the whole UTC day', () => {
    const hasher = new VisitorHasher('secret');
    const visitor = hasher.of('203.0.113.7', FIREFOX, morning);
    expect(visitor).toMatch(/^[0-9a-f]{32}$/);
    expect(hasher.of('203.0.113.7', FIREFOX, evening)).toBe(visitor);
    expect(hasher.of('203.0.113.7', IPHONE, morning)).not.toBe(visitor);
    expect(hasher.of('203.0.113.8', FIREFOX, morning)).not.toBe(visitor);
  });

  it('changes every value at midnight UTC, so no visitor can be followed across days', () => {
    const hasher = new VisitorHasher('secret');
    const today = hasher.of('203.0.113.7', FIREFOX, evening);
    expect(hasher.of('203.0.113.7', FIREFOX, nextDay)).not.toBe(today);
    expect(hasher.address('203.0.113.7', nextDay)).not.toBe(hasher.address('203.0.113.7', evening));
  });

  it('depends on the secret, not on the memo: a fresh hasher with the same secret agrees', () => {
    const a = new VisitorHasher('secret');
    expect(new VisitorHasher('secret').of('203.0.113.7', FIREFOX, morning)).toBe(a.of('203.0.113.7', FIREFOX, morning));
    expect(new VisitorHasher('other').of('203.0.113.7', FIREFOX, morning)).not.toBe(a.of('203.0.113.7', FIREFOX, morning));
  });

  it('hashes an address the same for every user agent and every address of its IPv6 /64', () => {
    const hasher = new VisitorHasher('secret');
    const address = hasher.address('2001:db8:1:2::1', morning);
    expect(hasher.address('2001:db8:1:2::ffff', morning)).toBe(address);
    expect(new VisitorHasher('secret').address('2001:db8:1:2:aaaa::1', evening)).toBe(address);
    expect(hasher.address('2001:db8:1:3::1', morning)).not.toBe(address);
    expect(hasher.address('::ffff:203.0.113.7', morning)).toBe(hasher.address('203.0.113.7', morning));
  });

  it(`counts at most ${DISTINCT_PER_ADDRESS} user agents of one /64 a day as visitors; past that they are the address`, () => {
    const hasher = new VisitorHasher('secret');
    // Rotating both the address within the /64 and the user agent, as a script would.
    const ip = (i: number) => `2001:db8:1:2::${(i % 65_535).toString(16)}`;
    const visitors = new Set<string>();
    for (let i = 0; i < DISTINCT_PER_ADDRESS; i++) visitors.add(hasher.of(ip(i), `agent/${i}`, morning));
    expect(visitors.size).toBe(DISTINCT_PER_ADDRESS);
    const address = hasher.address('2001:db8:1:2::1', morning);
    expect(hasher.of(ip(5_000), 'agent/5000', morning)).toBe(address);
    expect(hasher.of(ip(5_001), 'agent/5001', morning)).toBe(address);
    // A visitor already counted keeps its value; another network is not affected; the next day starts afresh.
    expect(hasher.of(ip(0), 'agent/0', morning)).toBe([...visitors][0]);
    expect(hasher.of('2001:db8:1:3::1', 'agent/5000', morning)).not.toBe(hasher.address('2001:db8:1:3::1', morning));
    expect(hasher.of(ip(5_000), 'agent/5000', nextDay)).not.toBe(hasher.address(ip(5_000), nextDay));
  });

  it(`counts at most ${DISTINCT_PER_ADDRESS} referring hosts of one address a day; past that they count as none`, () => {
    const hasher = new VisitorHasher('secret');
    expect(hasher.referrer('203.0.113.7', null, morning)).toBeNull();
    for (let i = 0; i < DISTINCT_PER_ADDRESS; i++) expect(hasher.referrer('203.0.113.7', `site${i}.example`, morning)).toBe(`site${i}.example`);
    expect(hasher.referrer('203.0.113.7', 'one-too-many.example', morning)).toBeNull();
    expect(hasher.referrer('203.0.113.7', 'site0.example', morning)).toBe('site0.example');
    expect(hasher.referrer('203.0.113.8', 'one-too-many.example', morning)).toBe('one-too-many.example');
    expect(hasher.referrer('203.0.113.7', 'one-too-many.example', nextDay)).toBe('one-too-many.example');
  });
});
