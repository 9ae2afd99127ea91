import type { RedirectOutcome } from './service.js';

type Miss = Exclude<RedirectOutcome, { kind: 'redirect' } | { kind: 'unsafe' } | { kind: 'app' } | { kind: 'password' } | { kind: 'social' } | { kind: 'fallback' }>['kind'];

/**
 * Visitors who cannot be redirected get a small page. A link that never existed, or is not active yet, is 404;
 * a link that existed and ended (expired or used up) is 410 Gone, which tells crawlers to drop it. None of them
 * shows a destination.
 */
const PAGES: Record<Miss, { status: number; title: string; text: string }> = {
  not_found: { status: 404, title: 'Link not found', text: 'There is no short link at this address.' },
  scheduled: { status: 404, title: 'Link not active yet', text: 'This short link is not active yet. Try again later.' },
  expired: { status: 410, title: 'Link expired', text: 'This short link has expired.' },
  limit_reached: { status: 410, title: 'Link no longer available', text: 'This short link has reached its click limit.' },
  // The operator's decision (abuse): no destination, and no hint of it.
  disabled: { status: 410, title: 'Link disabled', text: 'This short link has been disabled by the operator of this server.' },
  geo_blocked: { status: 451, title: 'Not available in your country', text: 'The owner of this short link has made it unavailable in your country.' },
  // A HEAD request or a bot (link preview, mail scanner) on a capped link: 200 and no destination, so neither
  // burns nor reveals a one-time link.
  limited_use: {
    status: 200,
    title: 'Open this link in a browser',
    text: 'This is a limited-use short link: it opens a limited number of times, so where it leads is shown only to a visitor who opens it in a web browser.',
  },
};

export function missPage(kind: Miss): { status: number; html: string } {
  const page = PAGES[kind];
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${page.title} · Snip</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}</style>
</head><body><h1>${page.title}</h1><p>${page.text}</p></body></html>`;
  return { status: page.status, html };
}
