import { hasControlCharacters } from '../control-characters.js';
import { appError, errors, type CatalogueCode } from '../errors.js';

export const TEMPLATE_NAME_MAX = 50;
export const UTM_VALUE_MAX = 200;

/** The template fields and the query parameters they set, in the order they are added to a URL. */
export const UTM_FIELDS = [
  ['utmSource', 'utm_source'],
  ['utmMedium', 'utm_medium'],
  ['utmCampaign', 'utm_campaign'],
  ['utmTerm', 'utm_term'],
  ['utmContent', 'utm_content'],
] as const;

export type UtmField = (typeof UTM_FIELDS)[number][0];
export type UtmValues = Record<UtmField, string | null>;


const CODES = {
  utmSource: 'INVALID_UTM_SOURCE',
  utmMedium: 'INVALID_UTM_MEDIUM',
  utmCampaign: 'INVALID_UTM_CAMPAIGN',
  utmTerm: 'INVALID_UTM_TERM',
  utmContent: 'INVALID_UTM_CONTENT',
} as const satisfies Record<UtmField, CatalogueCode>;

/** One utm value: absent or null is none; otherwise trimmed, 1-200 characters, no control characters. */
export function checkUtmValue(field: UtmField, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === 'string' ? value.trim() : null;
  const length = text === null ? 0 : [...text].length;
  if (text === null || length < 1 || length > UTM_VALUE_MAX || hasControlCharacters(text)) {
    throw appError(CODES[field], UTM_VALUE_MAX);
  }
  return text;
}

/** All five values of a new template; at least one must be set, or the template would do nothing. */
export function checkUtmValues(input: Partial<Record<UtmField, unknown>>): UtmValues {
  const values = Object.fromEntries(UTM_FIELDS.map(([field]) => [field, checkUtmValue(field, input[field])])) as UtmValues;
  if (UTM_FIELDS.every(([field]) => values[field] === null)) {
    throw errors.missingUtmFields();
  }
  return values;
}

const nameOfPair = (pair: string): string => {
  const raw = pair.split('=', 1)[0]!.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
};

/**
 * The URL with the template's parameters set: a parameter of the same name already there (every occurrence) is
 * replaced, every other parameter is kept exactly as written and in its place, the new ones follow in the
 * order source, medium, campaign, term, content; the fragment stays.
 */
export function applyUtm(url: URL, values: UtmValues): string {
  const set = UTM_FIELDS.flatMap(([field, param]) => (values[field] === null ? [] : [[param, values[field]] as const]));
  const names = new Set<string>(set.map(([param]) => param));
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && !names.has(nameOfPair(pair)));
  const result = new URL(url.href);
  result.search = [...kept, ...set.map(([param, value]) => `${param}=${encodeURIComponent(value)}`)].join('&');
  return result.href;
}
