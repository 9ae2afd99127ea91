import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { acceptedLanguages, addressMatcher, checkRules, checkVariants, compileRouting, route, variantBucket, type RoutingVisitor } from '../../../src/links/routing.js';

const OWN = new Set(['snip.test']);

const visitor = (parts: Partial<{ os: string; device: 'desktop' | 'mobile' | 'tablet'; country: string; acceptLanguage: string; query: string; address: string; bucket: number }>): RoutingVisitor => ({
  software: () => ({ os: parts.os ?? 'Windows', device: parts.device ?? 'desktop' }),
  country: () => parts.country,
  acceptLanguage: parts.acceptLanguage,
  query: parts.query ?? '',
  address: parts.address ?? '192.0.2.1',
  bucket: () => parts.bucket ?? 0,
});

describe('rule matching (src/links/routing.ts)', () => {
  it('reads Accept-Language by weight, leaving out q=0 and *', () => {
    expect(acceptedLanguages('de;q=0.5, fr-CA, en;q=0, *;q=0.1, it;q=0.9')).toEqual(['fr-ca', 'it', 'de']);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });

  it('matches addresses and CIDR ranges of either family, an IPv4-mapped IPv6 address as IPv4', () => {
    const office = addressMatcher('203.0.113.0/24')!;
    expect([office('203.0.113.9'), office('::ffff:203.0.113.9'), office('203.0.114.1'), office('2001:db8::1'), office('not an ip')]).toEqual([true, true, false, false, false]);
    const v6 = addressMatcher('2001:db8::/32')!;
    expect([v6('2001:db8:1::5'), v6('2001:db9::1')]).toEqual([true, false]);
    expect(addressMatcher('203.0.113.0/33')).toBeNull();
  });

  it('takes the first rule whose conditions all match, then the variant, then the destination', () => {
    const rules = checkRules(
      [
        { conditions: [{ type: 'device', value: 'ios' }, { type: 'country', value: 'de' }], url: 'https://example.com/ios-de' },
        { conditions: [{ type: 'language', value: 'fr' }], url: 'https://example.com/fr' },
        { conditions: [{ type: 'query', key: 'ref' }], url: 'https://example.com/ref' },
      ],
      OWN,
    );
    const variants = checkVariants([{ url: 'https://example.com/a', weight: 30 }, { url: 'https://example.com/b', weight: 70 }], OWN);
    const routing = compileRouting(rules, variants)!;
    const go = (v: RoutingVisitor) => route(routing, 'https://example.com/', v);
    expect(go(visitor({ os: 'iOS', device: 'mobile', country: 'DE', acceptLanguage: 'fr' }))).toEqual({ url: 'https://example.com/ios-de', reason: 'rule', rule: 0 });
    expect(go(visitor({ os: 'iOS', device: 'mobile', country: 'FR', acceptLanguage: 'fr-CA' }))).toEqual({ url: 'https://example.com/fr', reason: 'rule', rule: 1 });
    expect(go(visitor({ query: 'ref=' }))).toEqual({ url: 'https://example.com/ref', reason: 'rule', rule: 2 });
    expect(go(visitor({ bucket: 29 }))).toEqual({ url: 'https://example.com/a', reason: 'variant' });
    expect(go(visitor({ bucket: 30 }))).toEqual({ url: 'https://example.com/b', reason: 'variant' });
    expect(route(compileRouting(rules, null)!, 'https://example.com/', visitor({}))).toEqual({ url: 'https://example.com/', reason: 'destination' });
  });

  it('stores conditions with their own fields only, and refuses what a type cannot take', () => {
    expect(checkRules([{ conditions: [{ type: 'country', value: 'de', key: undefined }], url: 'https://example.com/x' }], OWN)).toEqual([
      { conditions: [{ type: 'country', value: 'DE' }], url: 'https://example.com/x' },
    ]);
    const refusal = (conditions: unknown[]) => {
      try {
        checkRules([{ conditions: conditions as never, url: 'https://example.com/x' }], OWN);
        return null;
      } catch (error) {
        return error instanceof AppError ? `${error.code}: ${error.message}` : String(error);
      }
    };
    expect(refusal([{ type: 'device', value: 'amiga' }])).toMatch(/^INVALID_RULES: rules\[0\]\.conditions\[0\] value must be one of ios/);
    expect(refusal([{ type: 'query' }])).toBe('INVALID_RULES: rules[0].conditions[0] needs the key of the query parameter');
    expect(refusal([{ type: 'country', value: 'DE', key: 'x' }])).toMatch(/only a query condition takes/);
    expect(refusal([{ type: 'address', value: '10.0.0.0/99' }])).toMatch(/CIDR range/);
    expect(() => checkRules([{ conditions: [{ type: 'device', value: 'ios' }], url: 'https://snip.test/loop' }], OWN)).toThrow(/rules\[0\]\.url/);
    expect(() => checkVariants([{ url: 'https://example.com/a', weight: 50 }, { url: 'https://example.com/b', weight: 40 }], OWN)).toThrow('variants weights must add up to 100 (they add up to 90)');
  });

  it('puts a visitor in the same bucket every time, and spreads visitors evenly', () => {
    expect(variantBucket('lnk_1', '198.51.100.7', 'UA')).toBe(variantBucket('lnk_1', '198.51.100.7', 'UA'));
    // An IPv6 /64 is one visitor address.
    expect(variantBucket('lnk_1', '2001:db8:1:2::1', 'UA')).toBe(variantBucket('lnk_1', '2001:db8:1:2::ffff', 'UA'));
    const counts = new Array<number>(10).fill(0);
    for (let i = 0; i < 10_000; i++) counts[Math.floor(variantBucket('lnk_1', `10.${(i >> 8) & 255}.${i & 255}.1`, 'Mozilla/5.0') / 10)]! += 1;
    for (const n of counts) {
      expect(n).toBeGreaterThan(850);
      expect(n).toBeLessThan(1150);
    }
  });
});
