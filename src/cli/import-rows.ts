import path from 'node:path';
import { parse, type CsvError } from 'csv-parse';

/**
 * Turns an import file (CSV or JSON lines) into rows for `links import`. Only the file format is handled here:
 * every link rule (URL, slug, dates, maxClicks) stays in the links service, which judges each row.
 */

export type ImportFormat = 'csv' | 'jsonl';

/** The columns (CSV) or fields (JSON lines) an import reads; anything else in the file is ignored. */
export const IMPORT_FIELDS = ['url', 'customSlug', 'expiresAt', 'maxClicks', 'activeFrom'] as const;
type ImportField = (typeof IMPORT_FIELDS)[number];

/**
 * One row of the file, by the physical line it starts on. `item` goes to the bulk creator as it is; `key` is
 * the row's normalised content, the same for equal rows whatever the file format, for the import fingerprint.
 */
export type ParsedRow =
  | { line: number; item: unknown; key: string }
  | { line: number; failure: { code: string; message: string }; stop?: boolean };

/** The CSV or JSON-lines row failed before reaching the service (malformed JSON, broken CSV quoting). */
export const isFailure = (row: ParsedRow): row is Extract<ParsedRow, { failure: unknown }> => 'failure' in row;

const EXTENSIONS: Record<string, ImportFormat> = { '.csv': 'csv', '.jsonl': 'jsonl', '.ndjson': 'jsonl', '.json': 'jsonl' };

export function formatFromExtension(file: string): ImportFormat | null {
  return EXTENSIONS[path.extname(file).toLowerCase()] ?? null;
}

/** Content sniffing for files without a known extension: a first character `{` or `[` means JSON. */
export function sniffFormat(head: string): ImportFormat {
  const first = head.replace(/^\uFEFF/, '').trimStart()[0];
  return first === '{' || first === '[' ? 'jsonl' : 'csv';
}

/** Decoded text with the byte-order mark removed and CRLF turned into LF (also across chunk boundaries). */
export async function* normalisedText(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let carry = '';
  let first = true;
  for await (const chunk of chunks) {
    let text = carry + chunk;
    if (first) {
      text = text.replace(/^\uFEFF/, '');
      first = false;
    }
    carry = text.endsWith('\r') ? '\r' : '';
    if (carry) text = text.slice(0, -1);
    if (text) yield text.replace(/\r\n/g, '\n');
  }
  if (carry) yield carry;
}

/** Empty strings (after trimming) and null mean "absent"; strings are trimmed; anything else is kept as is. */
function cell(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'string') return value;
  const text = value.trim();
  return text === '' ? undefined : text;
}

const DECIMAL = /^[+-]?\d+(\.\d+)?$/;

/** The import fields of one record, absent ones left out. CSV has no types, so a numeric maxClicks becomes a number. */
function pickFields(record: Record<string, unknown>, fromCsv: boolean): { item: Record<string, unknown>; key: string } {
  const item: Record<string, unknown> = {};
  for (const field of IMPORT_FIELDS) {
    let value = cell(record[field]);
    if (fromCsv && field === 'maxClicks' && typeof value === 'string' && DECIMAL.test(value)) value = Number(value);
    if (value !== undefined) item[field] = value;
  }
  return { item, key: JSON.stringify(IMPORT_FIELDS.map((field) => item[field] ?? null)) };
}

/** Matches header names to import fields case-insensitively; other columns are dropped (false). */
function headerColumns(header: string[]): (ImportField | false)[] {
  const known = new Map(IMPORT_FIELDS.map((field) => [field.toLowerCase(), field] as const));
  const seen = new Set<ImportField>();
  return header.map((name) => {
    const field = known.get(String(name).trim().toLowerCase());
    if (!field || seen.has(field)) return false; // the first of two equal columns wins
    seen.add(field);
    return field;
  });
}

/** Longest CSV record read before giving up on the rest (an unclosed quote would otherwise swallow the file). */
const MAX_RECORD_CHARS = 1_000_000;

export class ImportFileError extends Error {}

/**
 * CSV rows with the physical line each starts on (the header is line 1; quoted fields may span lines). Rows
 * whose cells are all empty and blank lines are skipped. Broken quoting ends the read: the rows before it are
 * kept and one failure with `stop` reports where reading stopped.
 */
export async function* csvRows(text: AsyncIterable<string>): AsyncGenerator<ParsedRow> {
  const state = {
    columns: null as (ImportField | false)[] | null,
    lastEnd: 0, // the line the previous record (or the header) ended on
    emptyAtLastEnd: 0,
    failed: undefined as CsvError | undefined,
  };
  const ready: ParsedRow[] = [];
  const parser = parse({
    columns: (header: string[]) => {
      state.columns = headerColumns(header);
      state.lastEnd = parser.info.lines;
      state.emptyAtLastEnd = parser.info.empty_lines;
      return state.columns;
    },
    raw: true,
    record_delimiter: '\n',
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    max_record_size: MAX_RECORD_CHARS,
    on_record: ({ record }: { record: Record<string, string> }, context) => {
      // `raw` holds the blank lines skipped before the record and its own line breaks: the record starts on its
      // end line minus the breaks inside it.
      const body = (context.raw ?? '').replace(/^\n+/, '').replace(/\n$/, '');
      state.lastEnd = context.lines;
      state.emptyAtLastEnd = context.empty_lines;
      ready.push({ line: context.lines - (body.match(/\n/g)?.length ?? 0), ...pickFields(record, true) });
      return null;
    },
  });
  parser.on('error', (error: CsvError) => (state.failed ??= error));
  parser.resume();
  const write = (chunk: string) =>
    new Promise<void>((resolve) =>
      parser.write(chunk, (error) => {
        if (error) state.failed ??= error as CsvError;
        resolve();
      }),
    );
  const end = () => new Promise<void>((resolve) => parser.once('error', () => resolve()).end(() => resolve()));
  const checkHeader = () => {
    if (state.columns && !state.columns.includes('url')) {
      throw new ImportFileError('The CSV header row has no url column (expected: url, customSlug, expiresAt, maxClicks, activeFrom)');
    }
  };

  for await (const chunk of text) {
    await write(chunk);
    checkHeader();
    yield* ready.splice(0);
    if (state.failed) break;
  }
  if (!state.failed) await end();
  checkHeader();
  yield* ready.splice(0);
  if (state.failed) {
    const line = state.lastEnd + 1 + Math.max(0, parser.info.empty_lines - state.emptyAtLastEnd);
    yield {
      line,
      failure: { code: 'INVALID_CSV', message: `${state.failed.message}; the file was not read past this row` },
      stop: true,
    };
  }
}

/** JSON lines: one object per line, blank lines skipped; a line that is not JSON fails on its own. */
export async function* jsonlRows(text: AsyncIterable<string>): AsyncGenerator<ParsedRow> {
  let lineNo = 0;
  let partial = '';
  const row = (source: string): ParsedRow | null => {
    lineNo += 1;
    if (source.trim() === '') return null;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      return { line: lineNo, failure: { code: 'INVALID_JSON', message: `Not valid JSON: ${(error as Error).message}` } };
    }
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return { line: lineNo, ...pickFields(value as Record<string, unknown>, false) };
    }
    // Not an object: the bulk creator refuses it as an item, with its own code.
    return { line: lineNo, item: value, key: JSON.stringify({ value }) };
  };
  for await (const chunk of text) {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const source of lines) {
      const parsed = row(source);
      if (parsed) yield parsed;
    }
  }
  const last = row(partial);
  if (last) yield last;
}

export function parseRows(text: AsyncIterable<string>, format: ImportFormat): AsyncGenerator<ParsedRow> {
  return format === 'csv' ? csvRows(text) : jsonlRows(text);
}
