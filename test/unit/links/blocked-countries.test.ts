import { describe, expect, it } from 'vitest';
import { normalisedCountries } from '../../../src/links/rules.js';

/** The codes' shape (two letters, at most 250) is the link schema's (src/links/input.ts); this is their stored form. */
describe('normalisedCountries', () => {
  it('upper-cases, removes repeats and sorts, so one list has one stored form', () => {
    expect(normalisedCountries(['ru', 'DE', 'Ru', 'de', 'br'])).toEqual(['BR', 'DE', 'RU']);
  });

  it('stores an empty list, and null, as blocking nobody', () => {
    expect(normalisedCountries([])).toBeNull();
    expect(normalisedCountries(null)).toBeNull();
  });

  it('keeps every one of 250 distinct codes, the most a link may list', () => {
    const codes = Array.from({ length: 250 }, (_, i) => String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26)));
    const stored = normalisedCountries([...codes].reverse());
    expect(stored).toHaveLength(250);
    expect(stored).toEqual(codes.map((c) => c.toUpperCase()));
  });

  it('leaves the caller\'s list as it was', () => {
    const codes = ['fr', 'DE'];
    normalisedCountries(codes);
    expect(codes).toEqual(['fr', 'DE']);
  });
});
