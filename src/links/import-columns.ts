import { unprotectFormula } from '../exports/formula-guard.js';

/**
 * The one dialect of a links import file: which columns (CSV) or fields (JSON) become which link field. The CLI's
 * `links import` (src/cli/import-rows.ts) and the dashboard's import page (web/src/links/csv-import.ts) both read
 * rows through here, and every row then goes through the link input's schema as a bulk item does
 * (src/links/drafts.ts), so a file imports the same way wherever it is dropped. Pure: the dashboard bundles it.
 */

/** CSV, one JSON document (`{"links":[...]}` as the exports write it, or an array of links) or JSON lines. */
export type ImportFormat = 'csv' | 'json' | 'jsonl';

const startOf = (head: string) => head.replace(/^\uFEFF/, '').trimStart();
/** `[` or an object whose first key is `links` (the exports' JSON): one JSON document rather than JSON lines. */
const isJsonDocument = (head: string) => /^(\[|\{\s*"links"\s*:)/.test(startOf(head));

/**
 * The format of an import file by its name and first characters: `.csv` is CSV, `.jsonl` and `.ndjson` JSON lines,
 * `.json` a JSON document or JSON lines by its start; any other file is sniffed (`{"links":` or `[` a JSON document,
 * another `{` JSON lines, anything else CSV).
 */
export function sniffImportFormat(fileName: string, head: string): ImportFormat {
  // As path.extname: a name's last dot, unless the name starts with it (`.csv` has no extension).
  const extension = /(?<=.)\.[^.]*$/.exec(fileName)?.[0].toLowerCase() ?? '';
  if (extension === '.csv') return 'csv';
  if (extension === '.jsonl' || extension === '.ndjson') return 'jsonl';
  if (isJsonDocument(head)) return 'json';
  return extension === '.json' || startOf(head).startsWith('{') ? 'jsonl' : 'csv';
}

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

/**
 * A value of a row that cannot become its link field, seen in the file itself. The dashboard's import shows these in
 * its preview and does not send the row; the links service refuses the very same values (the CLI's `links import`
 * sends every row, and each fails there with this code), so a row is never created with a value dropped. The checks
 * are the link input's schema (src/links/input.ts) for what a file can get wrong, never stricter.
 */
export interface ImportProblem {
  field: ImportField;
  code: string;
  message: string;
}

/** RFC 3339's date-time as the link input's schema takes it (`2030-12-31T23:59:59Z`, or an offset instead of Z). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt\s]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}(:?\d{2})?)$/;
const COUNTRY = /^[A-Za-z]{2}$/;

/** A value as the file has it: text in quotes, anything else as JSON writes it. */
const shown = (value: unknown): string => JSON.stringify(value) ?? String(value);

const notDateTime = (value: unknown) => !(typeof value === 'string' && DATE_TIME.test(value));

/**
 * What keeps the row's values from becoming a link, in the order the link input's schema checks them (so the first
 * is the one the links service answers): no destination, a time that is not a date-time, a click limit that is not a
 * whole number of 1 or more, a country that is not a two-letter code. Only what the file shows: the rest (a taken
 * slug, a past date, a destination Snip refuses) is for the links service to say when the row is sent.
 */
export function importProblems(item: Record<string, unknown>): ImportProblem[] {
  const problems: ImportProblem[] = [];
  const add = (field: ImportField, code: string, message: string) => problems.push({ field, code, message });
  if (item.url === undefined) add('url', 'MISSING_URL', 'The row has no url (or destination)');
  if (item.expiresAt !== undefined && notDateTime(item.expiresAt)) {
    add('expiresAt', 'INVALID_EXPIRES_AT', `expiresAt ${shown(item.expiresAt)} is not a date and time such as 2030-12-31T23:59:59Z`);
  }
  const clicks = item.maxClicks;
  if (clicks !== undefined && !(typeof clicks === 'number' && Number.isInteger(clicks) && clicks >= 1)) {
    add('maxClicks', 'INVALID_MAX_CLICKS', `maxClicks ${shown(clicks)} is not a whole number of 1 or more`);
  }
  if (item.activeFrom !== undefined && notDateTime(item.activeFrom)) {
    add('activeFrom', 'INVALID_ACTIVE_FROM', `activeFrom ${shown(item.activeFrom)} is not a date and time such as 2030-12-31T23:59:59Z`);
  }
  const countries = item.blockedCountries;
  if (countries !== undefined) {
    const code = 'INVALID_BLOCKED_COUNTRIES';
    const bad = Array.isArray(countries) ? countries.find((c) => typeof c !== 'string' || !COUNTRY.test(c)) : undefined;
    if (!Array.isArray(countries)) add('blockedCountries', code, `blockedCountries ${shown(countries)} is not a list of two-letter country codes`);
    else if (bad !== undefined) add('blockedCountries', code, `blockedCountries ${shown(bad)} is not a two-letter country code such as DE`);
  }
  return problems;
}
