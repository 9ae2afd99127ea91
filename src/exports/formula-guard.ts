/** The formula guard of Snip's CSV cells: pure, so the dashboard's import reads Snip's exports as the CLI does. */

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

