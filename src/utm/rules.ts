import { hasControlCharacters } from '../control-characters.js';
import { appError, errors, type CatalogueCode } from '../errors.js';

export const TEMPLATE_NAME_MAX = 50;
export const UTM_VALUE_MAX = 200;

export { UTM_FIELDS, applyUtm, type UtmField, type UtmValues } from './apply.js';
import { UTM_FIELDS, type UtmField, type UtmValues } from './apply.js';


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
