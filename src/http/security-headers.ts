import type { FastifyInstance } from 'fastify';

/**
 * Snip's HTML pages (home, link preview, warning, 404/410/451 pages, custom domains' 404 pages) run no script: their
 * only inline content is style. Images may come from Snip (the preview's QR code, the icon) and, on a domain's own
 * 404 page, from any https address.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data: https:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers of every HTML page besides its CSP (the OAuth library's pages get them too: src/oauth/mount.ts). */
export const FRAMING = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  // The preview and warning pages link to the destination: it learns nothing of which short link led there.
  'referrer-policy': 'no-referrer',
};
const HTML = { ...FRAMING, 'content-security-policy': CONTENT_SECURITY_POLICY };
/**
 * The dashboard runs its own bundled scripts (no inline script, nothing from elsewhere) and calls only Snip's API.
 * Its component library sets styles at run time, hence inline styles; images are Snip's QR codes and blob: downloads.
 */
const DASHBOARD = {
  ...FRAMING,
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
};
/** The API reference (@fastify/swagger-ui) runs its own scripts and styles: no CSP there, the rest as on every page. */
const DOCS = FRAMING;

const under = (prefix: string) => (url: string) => url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`);
const isDocs = under('/docs');
const isDashboard = under('/app');

/**
 * Security headers by the type of the answer, in one onSend hook: HTML answers get CSP, X-Frame-Options,
 * X-Content-Type-Options and Referrer-Policy; every other typed answer (JSON, YAML, PNG, SVG) gets nosniff. A redirect
 * has no body and no type, and gets nothing: its cost is one header read.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string') {
      // A page that brings its own policy (web2app's, which runs one script known by its hash) keeps it.
      if (type.startsWith('text/html')) reply.headers(reply.hasHeader('content-security-policy') ? FRAMING : isDocs(request.url) ? DOCS : isDashboard(request.url) ? DASHBOARD : HTML);
      else reply.header('x-content-type-options', 'nosniff');
    }
    done(null, payload);
  });
}
