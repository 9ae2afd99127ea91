import type { TrustScore } from './service.js';

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STATUS_TEXT: Record<string, { label: string; color: string; text: string }> = {
  safe: { label: 'Safe', color: '#1a7f37', text: 'No threats found for this destination.' },
  warning: { label: 'Caution', color: '#9a6700', text: 'This destination shows signs that it may not be what it seems.' },
  unsafe: { label: 'Unsafe', color: '#cf222e', text: 'This destination is known or strongly suspected to be harmful.' },
  pending: { label: 'Not scanned yet', color: '#57606a', text: 'The destination has not been checked yet.' },
};

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} · Snip</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:0 auto;padding:1.5rem 1rem;color:#1f2328}
h1{font-size:1.35rem;margin:0 0 1rem}.dest{word-break:break-all;font-family:ui-monospace,monospace;background:#f6f8fa;padding:.6rem;border-radius:6px}
.badge{display:inline-block;padding:.15rem .6rem;border-radius:999px;color:#fff;font-weight:600}
.qr{display:block;width:min(240px,70vw);height:auto;margin:1.2rem auto}dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem}
dt{color:#57606a}a.button{display:inline-block;margin-top:1rem;padding:.6rem 1rem;border-radius:6px;background:#0969da;color:#fff;text-decoration:none}
a.quiet{color:#57606a}
</style></head><body>${body}</body></html>`;

/**
 * `/{code}+`: where a short link goes before going there — destination, trust status, creation date and the
 * QR code. A limited-use link (a click cap; `destination` null) names no destination: the page would give it away
 * without using a click. Everything shown is escaped; nothing here runs script.
 */
export function previewPage(score: TrustScore, shortUrl: string, qrPath: string): string {
  const status = STATUS_TEXT[score.trustStatus ?? 'pending']!;
  const threats = score.threats.length > 0 ? `<dt>Threats</dt><dd>${score.threats.map(escapeHtml).join(', ')}</dd>` : '';
  const shown = shortUrl.replace(/^https?:\/\//, '');
  const where =
    score.destination === null
      ? `<h1>Where <a href="${escapeHtml(shortUrl)}" rel="nofollow">${escapeHtml(shown)}</a> leads</h1>
<p>This is a limited-use link: it opens a limited number of times, so its destination is shown only to a visitor who opens it.</p>`
      : `<h1>Where <a href="${escapeHtml(shortUrl)}" rel="nofollow">${escapeHtml(shown)}</a> leads</h1>
<p class="dest">${escapeHtml(score.destination)}</p>`;
  const onward =
    score.destination === null
      ? `<a class="button" href="${escapeHtml(shortUrl)}" rel="nofollow">Open the link (uses one of its visits)</a>`
      : `<a class="button" href="${escapeHtml(score.destination)}" rel="noopener noreferrer nofollow">Continue to the destination</a>`;
  return layout(
    `Preview of ${shortUrl}`,
    `${where}
<p><span class="badge" style="background:${status.color}">${status.label}</span>${score.trustScore === null ? '' : ` trust score ${score.trustScore}/100`}</p>
<p>${status.text}</p>
<dl><dt>Created</dt><dd><time datetime="${new Date(score.createdAt).toISOString()}">${new Date(score.createdAt).toUTCString()}</time></dd>${threats}</dl>
<img class="qr" src="${escapeHtml(qrPath)}" alt="QR code for ${escapeHtml(shortUrl)}" width="240" height="240">
${onward}`,
  );
}

/**
 * What a visitor of an unsafe link sees instead of the redirect: the destination, why it is flagged, and a way
 * on for someone who knows better (not a link a crawler or a prefetcher follows). A capped link's destination
 * (null) is not shown and offers no way on: following it would use no click.
 */
export function warningPage(destination: string | null, threats: string[]): string {
  const list = threats.length > 0 ? ` (${threats.map(escapeHtml).join(', ')})` : '';
  const onward =
    destination === null
      ? '<p>This is a limited-use link, so Snip does not show where it leads while it is flagged.</p>'
      : `<p class="dest">${escapeHtml(destination)}</p>
<p><a class="quiet" href="${escapeHtml(destination)}" rel="noopener noreferrer nofollow">I understand the risk, continue anyway</a></p>`;
  return layout(
    'Warning: unsafe destination',
    `<h1 style="color:#cf222e">This link may be harmful</h1>
<p>The short link you followed points to a destination that Snip's safety checks flag as unsafe${list}. It may
try to steal passwords or install harmful software.</p>
${onward}`,
  );
}
