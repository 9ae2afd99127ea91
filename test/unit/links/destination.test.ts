import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { checkDestination, MAX_URL_LENGTH } from '../../../src/links/rules.js';

const own = new Set(['snip.test']);
const loopbackOwn = new Set(['localhost']);

/** The refusal `checkDestination` throws for `raw`, as code and sentence. */
function refusal(raw: unknown, ownHostnames: ReadonlySet<string> = own): { code: string; message: string } {
  try {
    checkDestination(raw, ownHostnames);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { code: error.code, message: error.message };
  }
  throw new Error(`${JSON.stringify(raw)} was accepted`);
}

describe('checkDestination', () => {
  it('returns the URL as the WHATWG parser spells it', () => {
    expect(checkDestination('  https://Example.COM  ', own)).toBe('https://example.com/');
    expect(checkDestination('http://example.com:80/a/../b?q=1#top', own)).toBe('http://example.com/b?q=1#top');
    expect(checkDestination('https://bücher.example/straße', own)).toBe('https://xn--bcher-kva.example/stra%C3%9Fe');
    expect(checkDestination('https://[2001:DB8::0001]/', own)).toBe('https://[2001:db8::1]/');
  });

  it.each([undefined, null, '', '   \t '])('calls %j missing, not invalid', (raw) => {
    expect(refusal(raw)).toEqual({ code: 'MISSING_URL', message: 'URL is required' });
  });

  it.each([
    [42, 'must be a string'],
    [['https://example.com'], 'must be a string'],
    ['example.com', 'not an absolute URL'],
    ['/relative/path', 'not an absolute URL'],
    ['ftp://example.com/file', 'only http and https URLs can be shortened'],
    ['javascript:alert(1)', 'only http and https URLs can be shortened'],
    ['data:text/html,<p>hi</p>', 'only http and https URLs can be shortened'],
  ])('refuses %j: %s', (raw, why) => {
    expect(refusal(raw)).toEqual({ code: 'INVALID_URL', message: `Invalid URL: ${why}` });
  });

  it('takes a URL of exactly the limit and refuses one character more', () => {
    const base = 'https://example.com/';
    const longest = base + 'a'.repeat(MAX_URL_LENGTH - base.length);
    expect(checkDestination(longest, own)).toBe(longest);
    expect(refusal(longest + 'a').message).toBe(`Invalid URL: longer than ${MAX_URL_LENGTH} characters`);
  });

  it('measures the limit after trimming the spaces around the URL', () => {
    const base = 'https://example.com/';
    const longest = base + 'a'.repeat(MAX_URL_LENGTH - base.length);
    expect(checkDestination(`   ${longest}   `, own)).toBe(longest);
  });

  it.each(['https://snip.test/abc123', 'https://SNIP.test./abc123', 'http://snip.test:8080/x'])('refuses %s, which would loop back to Snip', (raw) => {
    expect(refusal(raw)).toEqual({ code: 'INVALID_URL', message: 'Invalid URL: a short link cannot point at this service' });
  });

  it('accepts a host that merely ends in Snip\'s own name', () => {
    expect(checkDestination('https://notsnip.test/', own)).toBe('https://notsnip.test/');
    expect(checkDestination('https://a.snip.test/', own)).toBe('https://a.snip.test/');
  });

  it('on a loopback BASE_URL, refuses every loopback spelling, and only those', () => {
    for (const raw of ['http://127.0.0.1:3000/x', 'http://127.1.2.3/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://0.0.0.0/', 'http://app.localhost/']) {
      expect(refusal(raw, loopbackOwn).code, raw).toBe('INVALID_URL');
    }
    expect(checkDestination('http://192.168.1.10/', loopbackOwn)).toBe('http://192.168.1.10/');
  });

  it('on a public BASE_URL, leaves loopback destinations alone (they name the visitor\'s machine, not Snip)', () => {
    expect(checkDestination('http://127.0.0.1:8080/', own)).toBe('http://127.0.0.1:8080/');
  });
});
