import { describe, expect, it } from 'vitest';
import { newId, randomBase62 } from '../../src/ids.js';

describe('random ids', () => {
  it('draws base62 text of the asked length, never the same twice, every character about equally often', () => {
    const drawn = Array.from({ length: 10_000 }, () => randomBase62(10));
    expect(drawn.every((s) => /^[A-Za-z0-9]{10}$/.test(s))).toBe(true);
    // Bytes handed out twice (a pool read past its refill) would repeat whole strings.
    expect(new Set(drawn).size).toBe(drawn.length);
    const counts = new Map<string, number>();
    for (const ch of drawn.join('')) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = 100_000 / 62;
    for (const [ch, n] of counts) expect(Math.abs(n - expected) / expected, ch).toBeLessThan(0.15);
  });

  it('makes ids that sort in creation order, even within one millisecond', () => {
    const ids = Array.from({ length: 1_000 }, () => newId('lnk'));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
