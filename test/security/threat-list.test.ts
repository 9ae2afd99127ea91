import { describe, expect, it } from 'vitest';
import { LocalThreatList } from '../../src/trust/local-list.js';

/**
 * Attack: a known-bad URL spelled differently. A browser opens each of these as the listed page, so the threat
 * list must match them all (Safe Browsing's URL canonicalisation).
 */
describe('the threat list matches every spelling of a listed URL', () => {
  const list = new LocalThreatList(null);
  const threats = (url: string) => list.check(new URL(url)).map((f) => f.threat);

  it.each([
    'http://testsafebrowsing.appspot.com/s/phishing.html',
    'https://testsafebrowsing.appspot.com/s/phishing.html',
    'http://TESTSAFEBROWSING.AppSpot.com./s/phishing.html',
    'http://testsafebrowsing.appspot.com//s//phishing.html',
    'http://testsafebrowsing.appspot.com/s/./x/../phishing.html',
    'http://testsafebrowsing.appspot.com/%73/phishing%2Ehtml',
    'http://testsafebrowsing.appspot.com/s/%2570hishing.html',
    'http://testsafebrowsing.appspot.com/s/%252570hishing.html',
    'http://testsafebrowsing.appspot.com/s/phishing.html#anything',
    'http://testsafebrowsing.appspot.com:80/s/phishing.html',
  ])('%s', (url) => {
    expect(threats(url)).toContain('SOCIAL_ENGINEERING');
  });

  it('matches a listed host in any case, with a trailing dot, and its subdomains', () => {
    for (const url of ['http://MALWARE.testing.google.test./testing/malware/x', 'http://malware.testing.google.test//testing//malware/']) {
      expect(threats(url), url).toContain('MALWARE');
    }
  });

  it('does not match a different page or a name that only starts alike', () => {
    expect(threats('http://testsafebrowsing.appspot.com/s/phishing.html.safe')).toEqual([]);
    expect(threats('http://testsafebrowsing.appspot.com/s/other.html')).toEqual([]);
    expect(threats('http://example.com/s/phishing.html')).toEqual([]);
  });
});
