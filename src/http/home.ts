import fs from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import { assetPath, packageVersion } from '../runtime/package-root.js';

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * What a person opening the server's address in a browser sees: what this is, and where to go next. The links name
 * BASE_URL: on a custom domain, which answers short links only (src/http/hosts.ts), a relative /docs would be refused.
 */
export function homePage(baseUrl: string): string {
  const base = escapeHtml(baseUrl);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Snip · link shortener</title><link rel="icon" href="/favicon.ico" type="image/svg+xml">
<style>body{font:16px/1.55 system-ui,sans-serif;max-width:40rem;margin:0 auto;padding:2rem 1rem;color:#1f2328}
h1{font-size:1.6rem;margin:0 0 .5rem}code,pre{font-family:ui-monospace,monospace;background:#f6f8fa;border-radius:6px}
code{padding:.1rem .3rem}pre{padding:.8rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all}a{color:#0969da}.quiet{color:#57606a}</style>
</head><body>
<h1>Snip</h1>
<p>This server runs <strong>Snip ${escapeHtml(packageVersion)}</strong>, a self-hostable link shortener: short links, redirects,
click statistics, QR codes, webhooks, custom domains and an MCP endpoint for AI assistants.</p>
<ul>
<li><a href="${base}/docs">API reference</a> (interactive) and the <a href="${base}/openapi.yaml">OpenAPI document</a></li>
<li><a href="${base}/healthz">Health check</a></li>
<li>MCP endpoint: <code>${base}/mcp</code> (JSON-RPC, <code>Authorization: Bearer snip_…</code>)</li>
</ul>
<p>Create an account and its first API key with the operator CLI on the server:</p>
<pre>npm run --silent cli -- users create --email you@example.com --tier pro</pre>
<p>then shorten a link:</p>
<pre>curl -s -X POST ${base}/api/v1/links -H 'authorization: Bearer snip_…' \\
  -H 'content-type: application/json' -d '{"url":"https://example.com/a/long/page"}'</pre>
<p class="quiet">Operators: set <code>ROOT_REDIRECT</code> to send visitors of this address to a page of your own instead.</p>
</body></html>`;
}

export interface HomeOptions {
  baseUrl: string;
  /** Where `GET /` sends visitors instead of the dashboard (an operator's own site). */
  rootRedirect: string | null;
  /** True for an active custom domain's host: its root shows the page above, never the dashboard. */
  isCustomDomain: (host: string) => Promise<boolean>;
}

const htmlOrRedirect = {
  tags: ['meta'],
  operationId: 'getHome',
  summary: 'Redirects to the dashboard at /app (or to ROOT_REDIRECT when set); a custom domain shows what this server is',
  description: "What a browser opening the server's address gets: a redirect to the dashboard, or to the operator's ROOT_REDIRECT. On a custom domain, a small page saying what the server is.",
  response: {
    200: { description: 'A small HTML page (custom domains)', content: { 'text/html': { schema: { type: 'string' } } } },
    302: { description: 'Redirect to /app or ROOT_REDIRECT', type: 'null' },
  },
};
const iconSchema = {
  tags: ['meta'],
  operationId: 'getFavicon',
  summary: "The site's icon (SVG)",
  description: "The icon browsers show for the site's pages, as SVG.",
  response: { 200: { description: 'SVG image', content: { 'image/svg+xml': { schema: { type: 'string' } } } } },
};

/**
 * Snip's own redirects of `/` (to the dashboard, or ROOT_REDIRECT) count nothing and change only with the settings, so a
 * browser may reuse one briefly; never a shared cache, and never for long, so a new ROOT_REDIRECT shows within minutes.
 * Short links' redirects are never kept at all (src/redirects/cache-control.ts).
 */
const ROOT_REDIRECT_CACHE_CONTROL = 'private, max-age=300';

/** `GET /` and the icon every browser asks a site for (a JSON 404 there would be noise in every log). */
export const homeRoutes =
  ({ baseUrl, rootRedirect, isCustomDomain }: HomeOptions): FastifyPluginAsync =>
  async (app) => {
    const page = homePage(baseUrl);
    const icon = fs.readFileSync(assetPath('favicon.svg'));
    // A custom domain's root shows the page above, with its icon: both answer on active custom domains too (src/http/hosts.ts).
    app.get('/', { config: { hosts: 'custom-domains' }, schema: htmlOrRedirect }, async (request, reply) => {
      if (rootRedirect) return reply.header('cache-control', ROOT_REDIRECT_CACHE_CONTROL).redirect(rootRedirect, 302);
      if (!(await isCustomDomain(request.hostname))) return reply.header('cache-control', ROOT_REDIRECT_CACHE_CONTROL).redirect('/app', 302);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
    });
    app.get('/favicon.ico', { config: { hosts: 'custom-domains' }, schema: iconSchema }, async (_request, reply) =>
      reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(icon),
    );
  };
