import { unprotectFormula } from '../exports/formula-guard.js';

/**
 * The one dialect of a links import file: which columns (CSV) or fields (JSON) become which link field. The CLI's
 * `links import` (src/cli/import-rows.ts) and the dashboard's import page (web/src/links/csv-import.ts) both read
 * rows through here, and every row then goes through the link input's schema as a bulk item does
 * (src/links/drafts.ts), so a file imports the same way wherever it is dropped. Pure: the dashboard bundles it.
 */

/** What a row carries over to the new link. */
export const IMPORT_FIELDS = ['url', 'customSlug', 'expiresAt', 'maxClicks', 'activeFrom', 'blockedCountries'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/**
 * The columns (CSV) or fields (JSON) each import field is read from, the first non-empty one winning: the short
 * names of a hand-written file, then the names of Snip's links file (src/exports/service.ts), whose `fullPath`
 * (`<prefix>/<slug>`) gives the slug. Anything else in the file (shortCode, clicks, ...) is ignored.
 */
const SOURCES: Record<ImportField, readonly string[]> = {
  url: ['url', 'destination'],
  customSlug: ['customSlug', 'slug', 'fullPath'],
  expiresAt: ['expiresAt'],
  maxClicks: ['maxClicks'],
  activeFrom: ['activeFrom'],
  blockedCountries: ['blockedCountries'],
};
export const IMPORT_COLUMNS = Object.values(SOURCES).flat();
const KNOWN = new Map(IMPORT_COLUMNS.map((name) => [name.toLowerCase(), name] as const));

/** The column a CSV header names, matched ignoring case and surrounding spaces; null for a column an import ignores. */
export const importColumnOf = (header: string): string | null => KNOWN.get(header.trim().toLowerCase()) ?? null;

/** Whether a CSV header row names a destination column, without which no row can make a link. */
export const hasDestinationColumn = (columns: ReadonlyArray<string | null | false>): boolean => columns.includes('url') || columns.includes('destination');

/**
 * Empty strings (after trimming) and null mean "absent"; strings are trimmed (CSV cells first lose the formula guard
 * of Snip's exports); anything else is kept as is.
 */
function cell(value: unknown, fromCsv: boolean): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'string') return value;
  const text = (fromCsv ? unprotectFormula(value) : value).trim();
  return text === '' ? undefined : text;
}

const DECIMAL = /^[+-]?\d+(\.\d+)?$/;

/**
 * The value of one import field: the first of its sources with a value. CSV has no types: a numeric maxClicks becomes
 * a number (anything else stays text, for the schema to refuse: "abc" is never read as no cap), and blocked countries
 * are one comma-separated cell.
 */
function fieldValue(record: Record<string, unknown>, field: ImportField, fromCsv: boolean): unknown {
  for (const source of SOURCES[field]) {
    let value = cell(record[source], fromCsv);
    if (value === undefined) continue;
    // `<prefix>/<slug>`: the slug goes into the importing account's own namespace.
    if (source === 'fullPath' && typeof value === 'string') value = value.slice(value.lastIndexOf('/') + 1);
    if (field === 'maxClicks' && fromCsv && typeof value === 'string' && DECIMAL.test(value)) value = Number(value);
    if (field === 'blockedCountries' && fromCsv && typeof value === 'string') value = value.split(',').map((c) => c.trim()).filter(Boolean);
    if (field === 'blockedCountries' && Array.isArray(value) && value.length === 0) continue;
    return value;
  }
  return undefined;
}

/**
 * Link fields a JSON row carries as they are (CSV has no column for them: a cell holds no object): the schema judges
 * them as it judges a bulk item's. Not `domain`, which a Snip export writes for the exporting account's own domain.
 */
export const JSON_ONLY_FIELDS = ['utmTemplateId', 'appLinks', 'rules', 'variants', 'password', 'expiredUrl', 'socialPreview'] as const;

/** The import fields of one record (keyed by column name), absent ones left out: a bulk item as the API takes it. */
export function importItem(record: Record<string, unknown>, fromCsv: boolean): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const field of IMPORT_FIELDS) {
    const value = fieldValue(record, field, fromCsv);
    if (value !== undefined) item[field] = value;
  }
  if (!fromCsv) for (const field of JSON_ONLY_FIELDS) if (record[field] !== undefined) item[field] = record[field];
  return item;
}
