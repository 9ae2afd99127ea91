import { createHash } from 'node:crypto';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/**
 * Tries the app, then the store: a browser that cannot open the deep link (the app is not installed) is still on
 * this page after a moment, and goes to the store. The script is fixed text reading the two addresses from the
 * page, so the page's policy allows exactly it, by its hash.
 */
const SCRIPT = `(function(){var a=document.getElementById('app').href,s=document.getElementById('store').href;var t=setTimeout(function(){if(!document.hidden)location.replace(s)},1500);document.addEventListener('visibilitychange',function(){if(document.hidden)clearTimeout(t)});location.href=a})();`;
const SCRIPT_HASH = createHash('sha256').update(SCRIPT).digest('base64');

export const APP_PAGE_POLICY = [
  "default-src 'none'",
  `script-src 'sha256-${SCRIPT_HASH}'`,
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The page a phone visitor of a link with app targets gets; both addresses already carry `snip_sid`. */
export function appPage(deepLink: string, storeUrl: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>Opening the app · Snip</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}a{display:block;margin:.75rem 0}</style>
</head><body><h1>Opening the app…</h1>
<a id="app" href="${escapeHtml(deepLink)}">Open in the app</a>
<a id="store" href="${escapeHtml(storeUrl)}">Get the app</a>
<script>${SCRIPT}</script></body></html>`;
}
