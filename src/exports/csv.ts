import { stringify } from 'csv-stringify/sync';
import { protectFormula } from './formula-guard.js';

export { protectFormula, unprotectFormula } from './formula-guard.js';

/**
 * The one CSV dialect Snip writes (the API exports and the operator CLI's `links export`, which write the same
 * file): comma-separated, a header row, RFC 4180 quoting (a cell with a comma, a double quote, CR or LF is quoted
 * and its quotes doubled), records ended by LF, null as an empty cell, text cells guarded against formulas.
 */

export type CsvCell = string | number | null;

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
