/**
 * Errors in people's words. The API's messages stay as they are for API clients ("customSlug may contain only ...",
 * "Invalid URL: not an absolute URL"); the dashboard shows the same refusal as a sentence that names the form's own
 * label ("Custom slug may contain only ...") and never shows a code. Every error the dashboard shows goes through
 * `describeError`; the code stays on the error (`errorCodeOf`) for whoever needs it.
 */
import { ApiError, type ApiErrorCode } from './api';

/** The form's words for the API's field names, such as `{ url: 'Endpoint URL' }`. */
export type FieldLabels = Readonly<Record<string, string>>;

/** The dashboard's labels for the API's fields, where a form does not name its own. */
const LABELS: FieldLabels = {
  url: 'Destination URL',
  long: 'Destination URL',
  urls: 'Links',
  customSlug: 'Custom slug',
  maxClicks: 'Max clicks',
  expiresAt: 'Expires at',
  activeFrom: 'Active from',
  blockedCountries: 'Blocked countries',
  expiredUrl: 'Expired URL',
  socialPreview: 'Preview in a chat app',
  appLinks: 'App links',
  rules: 'Routing rules',
  variants: 'A/B test',
  folderId: 'Folder',
  utmTemplateId: 'UTM template',
  utmSource: 'Source',
  utmMedium: 'Medium',
  utmCampaign: 'Campaign',
  utmTerm: 'Term',
  utmContent: 'Content',
  notFoundPage: '404 page',
  redirectUrl: 'Redirect URL',
  html: '404 page HTML',
  bgColor: 'Background',
  color: 'Colour',
  limitCents: 'Overage cap',
  clickId: 'Click ID',
  setDefault: 'Default domain',
};

/** `INVALID_<FIELD>` / `MISSING_<FIELD>` name the field as the API spells it (src/schema/messages.ts). */
const FIELD_OF_CODE: Record<string, string> = { SLUG: 'customSlug', URL: 'url', SHORT_PATH: 'shortPath' };

function fieldOfCode(code: string): string | undefined {
  const match = /^(?:INVALID|MISSING)_([A-Z0-9_]+)$/.exec(code);
  if (!match) return undefined;
  const name = match[1]!;
  return FIELD_OF_CODE[name] ?? name.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

const ACRONYMS: Record<string, string> = { url: 'URL', id: 'ID', utm: 'UTM', html: 'HTML', ip: 'IP', api: 'API' };

/** `maxClicks` → "Max clicks", `redirectUrl` → "Redirect URL": an API name read aloud. */
function humanised(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(' ');
  const text = words.map((w) => ACRONYMS[w] ?? w).join(' ');
  return text[0]!.toUpperCase() + text.slice(1);
}

/** A label inside a sentence: "expires at", but "URL" and "UTM template" keep their capitals. */
const inSentence = (label: string): string => (/^[A-Z]{2}/.test(label) ? label : label[0]!.toLowerCase() + label.slice(1));
const capitalised = (text: string): string => (text ? text[0]!.toUpperCase() + text.slice(1) : text);

/** A dotted API path (`notFoundPage.redirectUrl`, `links[0].url`) by the label of its most specific part. */
function labelOf(path: string, labels: FieldLabels): string {
  if (labels[path]) return labels[path];
  const parts = path.split(/[.[\]]+/).filter((p) => p && !/^\d+$/.test(p));
  for (let i = parts.length - 1; i >= 0; i--) if (labels[parts[i]!]) return labels[parts[i]!]!;
  return humanised(parts.at(-1) ?? path);
}

/** Words of API types and formats that people do not say. */
const PLAIN: [RegExp, string][] = [
  [/\ban integer\b/g, 'a whole number'],
  [/\bmust be a string\b/g, 'must be text'],
  [/\ban ISO 8601 date-time(, like [^\s,;]+)?/g, 'a date and time'],
];

/** Reasons a URL check gives, said about the field ("Endpoint URL must be a full web address ..."). */
function urlReason(subject: string, why: string): string {
  if (why === 'not an absolute URL') return `${subject} must be a full web address, such as https://example.com/page`;
  if (why === 'a URL is required') return `${subject} is required`;
  if (/^(must|may|is|are|has|cannot|can't|should|needs?)\b/.test(why)) return `${subject} ${why}`;
  if (/^(at most|longer than)\b/.test(why)) return `${subject} is ${why.replace(/^at most/, 'limited to')}`;
  // "a short link cannot point at this service", "only http and https ...", '"foo" is not a hostname': a sentence.
  if (/^(a|an|the|only|no|this)\b|^"/.test(why)) return capitalised(why);
  // "ios must be an https URL": a part of the field, named as the API names it.
  return `${subject}: ${why}`;
}

/** The API's sentence with its field names replaced by the form's labels. */
function inPeoplesWords(message: string, labels: FieldLabels, field: string | undefined): string {
  let text = message;
  // "Invalid URL: why", "Invalid webhook URL: why", "Invalid domain: why": the field, then why.
  const invalid = /^Invalid ([\w .]+?): (.+)$/s.exec(text);
  if (invalid) {
    const subject = field ? labelOf(field, labels) : capitalised(invalid[1]!);
    text = urlReason(subject, invalid[2]!);
  } else {
    // "customSlug may contain ...", "notFoundPage.html is limited ...": the API's sentences that start in lower case
    // start with a field name (a plain word such as "error" only gains its capital).
    const led = /^([a-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*|\[\d+\])*)(?= )/.exec(text);
    if (led) text = labelOf(led[1]!, labels) + text.slice(led[1]!.length);
  }
  // camelCase API names further in ("later than activeFrom", "one of utmSource, utmMedium"): their labels.
  text = text.replace(/\b[a-z]+[A-Z][A-Za-z]*\b/g, (name) => (labels[name] ? inSentence(labels[name]) : name));
  for (const [pattern, plain] of PLAIN) text = text.replace(pattern, plain);
  return capitalised(text);
}

/** The limit a RATE_LIMITED message names: `5 links per day` of "Rate limit exceeded: 5 links per day". */
export const limitNamedIn = (message: string): string => message.replace(/^Rate limit exceeded: /, '');

/**
 * A counted limit (`5 links per day`) and when it starts again (src/usage/windows.ts: fixed UTC windows): "wait a
 * moment" said of the plan's daily link limit sent people to try again all day.
 */
function limitInWords(limit: string): string {
  if (limit.endsWith(' per day')) return `Your plan's limit of ${limit} is reached. It starts again at midnight UTC`;
  if (limit.endsWith(' per month')) return `Your plan's limit of ${limit} is reached. It starts again on the 1st of next month (UTC)`;
  if (limit.endsWith(' per hour')) return `Your plan's limit of ${limit} is reached. It starts again at the top of the hour`;
  return `Too many requests in a short time (${limit}). Wait a moment and try again`;
}

/** Refusals whose API sentence does not tell a person what to do next. */
const BY_CODE: Partial<Record<ApiErrorCode, (error: ApiError) => string | undefined>> = {
  INTERNAL_ERROR: () => "Something went wrong on the server. Try again; if it keeps happening, the server's log says why",
  UNEXPECTED_RESPONSE: (e) => `The server could not answer just now${e.status ? ` (HTTP ${e.status})` : ''}. Try again in a moment`,
  RATE_LIMITED: (e) => limitInWords(limitNamedIn(e.message)),
  INVALID_BODY: (e) => (e.message === 'Give at least one field to change' ? 'Change something before saving' : undefined),
  NOT_FOUND: (e) => (e.message.startsWith('No route for ') ? 'This server does not offer that yet: reload the page, or update the server' : undefined),
};

/**
 * The sentence to show a person for an error a call threw: an `ApiError`'s message with the form's labels in place
 * of the API's field names (`labels` adds or overrides them: `{ url: 'Endpoint URL' }`), with no code in it.
 */
export function describeError(error: unknown, labels: FieldLabels = {}): string {
  let sentence: string;
  if (error instanceof ApiError) sentence = BY_CODE[error.code]?.(error) ?? inPeoplesWords(error.message, { ...LABELS, ...labels }, fieldOfCode(error.code));
  else sentence = error instanceof Error && error.message ? error.message : 'Something went wrong. Try again';
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** The stable code of an API error, kept out of sight (an element's title or data attribute), never in its text. */
export const errorCodeOf = (error: unknown): ApiErrorCode | undefined => (error instanceof ApiError ? error.code : undefined);

/** The sentence for a form field when the API refused with one of `codes` (the field's own codes); else nothing. */
export function fieldMessage(error: unknown, codes: readonly ApiErrorCode[], labels: FieldLabels = {}): string | undefined {
  return error instanceof ApiError && codes.includes(error.code) ? describeError(error, labels) : undefined;
}
