import { createRequire } from 'node:module';
import { errors } from '../errors.js';
import { checkDestination } from '../links/rules.js';

export type NotFoundPage = { type: 'redirect'; redirectUrl: string } | { type: 'html'; html: string };

export const MAX_HTML = 10_000;

/** A CSS value without a function that fetches or runs anything (url(), image-set(), expression()). */
const PLAIN_CSS_VALUE = /^(?!.*\b(url|image-set|expression|image)\s*\()[\w\s#(),.%+\-/"']+$/i;

/** The inline style properties a 404 page may set: colours, type, spacing and alignment. */
const STYLE_PROPERTIES = [
  'color', 'background-color', 'font-family', 'font-size', 'font-weight', 'font-style', 'line-height', 'text-align',
  'text-decoration', 'margin', 'margin-top', 'margin-bottom', 'padding', 'max-width', 'width', 'border', 'border-radius',
];

/** Loaded when a page is first set: the redirect, the CLI and most servers never need it (it loads a CSS parser too). */
let sanitizer: typeof import('sanitize-html') | undefined;

/**
 * A domain's own 404 page may style itself but never run or fetch anything: scripts, event handlers, javascript:
 * URLs and <style> elements (whose @import and url() fetch from anywhere, and which sanitize-html cannot clean)
 * are removed by a maintained sanitiser; inline `style` keeps only plain values of the properties above.
 */
const sanitize = (html: string): string => {
  const sanitizeHtml = (sanitizer ??= createRequire(import.meta.url)('sanitize-html') as typeof import('sanitize-html'));
  return sanitizeHtml(html, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'title', 'center', 'font'],
    allowedAttributes: { ...sanitizeHtml.defaults.allowedAttributes, '*': ['style', 'class', 'id', 'align'], img: ['src', 'alt', 'width', 'height'] },
    allowedStyles: { '*': Object.fromEntries(STYLE_PROPERTIES.map((property) => [property, [PLAIN_CSS_VALUE]])) },
    allowedSchemes: ['http', 'https', 'mailto'],
  });
};

const invalid = errors.invalidNotFoundPage;

/** `null` clears it; otherwise a redirect to an http(s) URL, or HTML of at most 10,000 characters (sanitised). */
export function checkNotFoundPage(raw: unknown, ownHostnames: ReadonlySet<string>): NotFoundPage | null {
  if (raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw invalid('must be an object with a type of redirect or html, or null');
  const page = raw as Record<string, unknown>;
  if (page.type === 'redirect') {
    if (page.redirectUrl === undefined) throw errors.missingRedirectUrl();
    return { type: 'redirect', redirectUrl: checkDestination(page.redirectUrl, ownHostnames) };
  }
  if (page.type === 'html') {
    if (typeof page.html !== 'string') throw errors.missingHtml();
    if (page.html.length > MAX_HTML) throw errors.htmlTooLong(MAX_HTML);
    return { type: 'html', html: sanitize(page.html) };
  }
  throw invalid('type must be redirect or html');
}
