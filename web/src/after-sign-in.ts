/** Where the dashboard lives: the router's basename. */
export const BASENAME = '/app';

const DEFAULT_PAGE = '/links';
const AUTH_PAGES = ['/sign-in', '/sign-up'];

interface Place {
  pathname: string;
  search: string;
  hash: string;
}

/**
 * The sign-in page's query for a person sent there from `place`, so signing in leads back to it (a reload or a
 * shared sign-in address keeps it too). None for the page signing in leads to anyway.
 */
export function signInSearch(place: Place): string {
  if ((place.pathname === '/' || place.pathname === DEFAULT_PAGE) && !place.search && !place.hash) return '';
  return `?${new URLSearchParams({ next: `${BASENAME}${place.pathname}${place.search}${place.hash}` })}`;
}

/**
 * The router path to open once signed in: the sign-in page's `next` when it is a dashboard page of this origin,
 * else the links. `next` is in the address, so anyone can write it: only a path under /app passes, read as the
 * browser reads it (so `//host`, `https:`, backslashes and dot segments leading out of /app never do).
 */
export function pageAfterSignIn(search: string): string {
  const next = new URLSearchParams(search).get('next');
  // eslint-disable-next-line no-control-regex -- a control character has no place in a path someone typed
  if (!next || !next.startsWith(`${BASENAME}/`) || /[\\\u0000-\u001f\u007f]/.test(next)) return DEFAULT_PAGE;
  let url: URL;
  try {
    url = new URL(next, window.location.origin);
  } catch {
    return DEFAULT_PAGE;
  }
  if (url.origin !== window.location.origin || !url.pathname.startsWith(`${BASENAME}/`) || url.pathname.includes('//')) return DEFAULT_PAGE;
  const path = url.pathname.slice(BASENAME.length);
  if (AUTH_PAGES.includes(path)) return DEFAULT_PAGE;
  return `${path}${url.search}${url.hash}`;
}
