/**
 * A web address as people type it: `example.com/page` means https://example.com/page. The API takes only absolute
 * URLs (and says "not an absolute URL" to anything else); the dashboard's URL fields call `withAssumedScheme` on what
 * was typed before sending it, so a missing scheme is assumed rather than refused.
 */

/** A scheme such as `https:` or `mailto:`; `example.com:8080` is a host and port, not a scheme. */
const SCHEME = /^[a-z][a-z0-9+.-]*:(?!\d+(?:[/?#]|$))/i;
/** A host name with a dot (any script), `localhost`, or an IPv6 literal, with an optional port, then the end or a path. */
const HOST = /^(?:(?:[\p{L}\p{N}-]+\.)+[\p{L}\p{N}-]+|localhost|\[[0-9a-f:.]+\])(?::\d+)?(?:[/?#]|$)/iu;

/**
 * The address with `https://` in front when it starts with a host name and has no scheme (`example.com/page`,
 * `www.example.com`, `//example.com`); anything else (an address with a scheme, a bare word, a path) is returned
 * trimmed, as typed, for the server to judge. Never downgrades or rewrites an address that has a scheme.
 */
export function withAssumedScheme(typed: string): string {
  const text = typed.trim();
  if (text === '' || SCHEME.test(text)) return text;
  if (text.startsWith('//') && HOST.test(text.slice(2))) return `https:${text}`;
  return HOST.test(text) ? `https://${text}` : text;
}
