import { stringify } from 'csv-stringify/sync';

/**
 * The one CSV dialect Snip writes (the API exports and the operator CLI's `links export`, which write the same
 * file): comma-separated, a header row, RFC 4180 quoting (a cell with a comma, a double quote, CR or LF is quoted
 * and its quotes doubled), records ended by LF, null as an empty cell, text cells guarded against formulas.
 */

export type CsvCell = string | number | null;

/** Characters that make a spreadsheet read a cell as a formula (OWASP's CSV injection list). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell a spreadsheet would run as a formula gets a leading `'`, which spreadsheets show as text. Numbers are
 * written as they are: they are data, not text (and Snip has no negative ones).
 */
export function protectFormula(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * The inverse of `protectFormula`, for reading Snip's own CSV back (`links import`): a `'` followed by one of the
 * formula characters is dropped. Only for cells that can never start with `'` themselves (URLs, slugs, dates,
 * numbers, country codes), where the `'` can only be the guard.
 */
export function unprotectFormula(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}

export interface CsvOptions {
  /** Write the header row first (the first page of an export). */
  header: boolean;
  /**
   * Prefix text cells that start with = + - @ tab or CR with `'`, so spreadsheets show them as text. On for every
   * export (`links import` undoes it with `unprotectFormula`).
   */
  protectFormulas: boolean;
}

/** Records as CSV text in the order of `columns` (also the header's names). Empty input without header: ''. */
export function toCsv<C extends string>(records: Record<C, CsvCell>[], columns: readonly C[], options: CsvOptions): string {
  const cell = (value: CsvCell): CsvCell => (typeof value === 'string' && options.protectFormulas ? protectFormula(value) : value);
  const rows = records.map((record) => Object.fromEntries(columns.map((column) => [column, cell(record[column])])));
  return stringify(rows, { header: options.header, columns: [...columns] });
}
