/**
 * The Cache-Control of every answer on the redirect path: a redirect of any REDIRECT_STATUS, on the fast path or the
 * route, on Snip's host or a custom domain, and the pages and misses it answers instead (preview, warning, web2app,
 * 404, 410, 451). Nothing may keep one: a browser or proxy that reused a redirect would skip Snip, so the visit would
 * go uncounted and a changed, expired or deleted link would still lead to its old destination. Chromium and Firefox
 * keep a 301, a 308 and a 410 that say nothing about caching for ever (RFC 9111 §4.2.2 lets them: those statuses are
 * heuristically cacheable); `no-store` overrules that for every status, in browsers and shared caches alike (the pages
 * of the redirect path said it already). One constant string, so the fast path writes it at no cost.
 */
export const REDIRECT_CACHE_CONTROL = 'no-store';
