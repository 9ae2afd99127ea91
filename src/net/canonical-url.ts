import { normalHostname } from './hostname.js';

/** Decodes %XX escapes until none is left (`%2573` is `%73` is `s`), at most a few rounds. */
function unescapeFully(text: string): string {
  let current = text;
  for (let round = 0; round < 8; round++) {
    const next = current.replace(/%([0-9A-Fa-f]{2})/g, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === current) return current;
    current = next;
  }
  return current;
}

/** Escapes what Safe Browsing escapes: controls and space, non-ASCII, `#` and `%`, as upper-case %XX. */
const escapeSome = (text: string): string =>
  Array.from(Buffer.from(text, 'latin1'))
    .map((byte) => (byte <= 0x20 || byte >= 0x7f || byte === 0x23 || byte === 0x25 ? `%${byte.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(byte)))
    .join('');

/**
 * A URL's host and path-with-query in the one spelling Safe Browsing's URL canonicalisation gives, so a threat list
 * entry matches every variant a browser treats as the same URL: escapes decoded until none is left (then only
 * controls, non-ASCII, `#` and `%` escaped again), runs of slashes as one, the host lower case without leading,
 * trailing or doubled dots. The WHATWG parser has already resolved `.`/`..` segments and numeric IPv4 forms.
 */
export function canonicalUrl(url: URL): { host: string; path: string } {
  const host = normalHostname(unescapeFully(url.hostname)).replace(/^\.+/, '').replace(/\.{2,}/g, '.');
  const path = escapeSome(unescapeFully(url.pathname).replace(/\/{2,}/g, '/'));
  const query = url.search ? `?${escapeSome(unescapeFully(url.search.slice(1)))}` : '';
  return { host, path: path + query };
}
