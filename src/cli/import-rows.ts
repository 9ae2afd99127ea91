import path from 'node:path';
import { parse, type CsvError } from 'csv-parse';
import { errors } from '../errors.js';
import { hasDestinationColumn, importColumnOf, importItem, IMPORT_FIELDS, sniffImportFormat, type ImportFormat } from '../links/import-columns.js';

/**
 * Turns an import file (CSV, a JSON document or JSON lines) into rows for `links import`. Only the file format is
 * handled here: every link rule (URL, slug, dates, maxClicks) stays in the links service, which judges each row, so a
 * bad value fails its row with the code and sentence every other surface gives it (test/parity/link-fields.test.ts).
 * The dashboard's preview flags the same rows before sending (`importProblems` in src/links/import-columns.ts).
 */

export type { ImportFormat };
export const IMPORT_FORMATS: readonly ImportFormat[] = ['csv', 'json', 'jsonl'];

/**
 * One row of the file, by the line it starts on (for a JSON document: the link's position in its list). `item`
 * goes to the bulk creator as it is; `key` is the row's normalised content, the same for equal rows whatever the
 * file format, for the import fingerprint. `end` is how far into the file the row ends (bytes of the decoded text,
 * or for a JSON document its share of the file), for the progress of an import.
 */
export type ParsedRow =
  | { line: number; end: number; item: unknown; key: string }
  | { line: number; end: number; failure: { code: string; message: string }; stop?: boolean };

/** The CSV or JSON row failed before reaching the service (malformed JSON, broken CSV quoting). */
export const isFailure = (row: ParsedRow): row is Extract<ParsedRow, { failure: unknown }> => 'failure' in row;

export function parseImportFormat(raw: string | undefined): ImportFormat | null {
  if (raw === undefined) return null;
  if ((IMPORT_FORMATS as readonly string[]).includes(raw)) return raw as ImportFormat;
  throw errors.invalidFormat(IMPORT_FORMATS, '--format');
}

/** The format of an import file: `--format`, else by its name and first characters, as the dashboard tells it. */
export function importFormatOf(file: string, head: string, forced: ImportFormat | null): ImportFormat {
  return forced ?? sniffImportFormat(path.basename(file), head);
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

/** The import fields of one record, absent ones left out, and the row's fingerprint key. */
function pickFields(record: Record<string, unknown>, fromCsv: boolean): { item: Record<string, unknown>; key: string } {
  const item = importItem(record, fromCsv);
  // The key of a row without blocked countries is what it was before they were imported, so re-running an old
  // import file still finds its links.
  const key = IMPORT_FIELDS.slice(0, 5).map((field) => item[field] ?? null);
  if (Array.isArray(item.blockedCountries)) {
    key.push([...new Set(item.blockedCountries.map((c) => String(c).toUpperCase()))].sort());
  } else if (item.blockedCountries !== undefined) {
    key.push(item.blockedCountries);
  }
  return { item, key: JSON.stringify(key) };
}

/** Matches header names to the columns an import reads, case-insensitively; other columns are dropped (false). */
function headerColumns(header: string[]): (string | false)[] {
  const seen = new Set<string>();
  return header.map((name) => {
    const column = importColumnOf(String(name));
    if (!column || seen.has(column)) return false; // the first of two equal columns wins
    seen.add(column);
    return column;
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
    columns: null as (string | false)[] | null,
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
      ready.push({ line: context.lines - (body.match(/\n/g)?.length ?? 0), end: context.bytes, ...pickFields(record, true) });
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
    if (state.columns && !hasDestinationColumn(state.columns)) {
      throw new ImportFileError(
        'The CSV header row has no url (or destination) column; an import reads url, customSlug, expiresAt, maxClicks, activeFrom and blockedCountries, or the columns of a Snip export',
      );
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
      end: parser.info.bytes,
      failure: { code: 'INVALID_CSV', message: `${state.failed.message}; the file was not read past this row` },
      stop: true,
    };
  }
}

/** A decoded JSON value as a row: an object's import fields, or anything else for the bulk creator to refuse. */
function jsonRow(line: number, end: number, value: unknown): ParsedRow {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return { line, end, ...pickFields(value as Record<string, unknown>, false) };
  }
  // Not an object: the bulk creator refuses it as an item, with its own code.
  return { line, end, item: value, key: JSON.stringify({ value }) };
}

/** JSON lines: one object per line, blank lines skipped; a line that is not JSON fails on its own. */
export async function* jsonlRows(text: AsyncIterable<string>): AsyncGenerator<ParsedRow> {
  let lineNo = 0;
  let bytes = 0;
  let partial = '';
  const row = (source: string, ending: number): ParsedRow | null => {
    lineNo += 1;
    bytes += Buffer.byteLength(source) + ending;
    if (source.trim() === '') return null;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      return { line: lineNo, end: bytes, failure: { code: 'INVALID_JSON', message: `Not valid JSON: ${(error as Error).message}` } };
    }
    return jsonRow(lineNo, bytes, value);
  };
  for await (const chunk of text) {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const source of lines) {
      const parsed = row(source, 1);
      if (parsed) yield parsed;
    }
  }
  const last = row(partial, 0);
  if (last) yield last;
}

/** The largest JSON document an import reads (it is parsed whole); larger files go as CSV or JSON lines. */
export const MAX_JSON_DOCUMENT_BYTES = 256 * 1024 * 1024;

/**
 * One JSON document: `{"links": [...]}` (the exports' JSON) or an array of links, each element a row numbered by
 * its position in the list. A file that is not such a document fails whole.
 */
export function* jsonDocumentRows(text: string, totalBytes: number): Generator<ParsedRow> {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ImportFileError(`Not a valid JSON document: ${(error as Error).message} (JSON lines go in a .jsonl file, or use --format jsonl)`);
  }
  const links = Array.isArray(value) ? value : (value as { links?: unknown } | null)?.links;
  if (!Array.isArray(links)) {
    throw new ImportFileError('A JSON import file is {"links": [...]} as the exports write it, an array of links, or JSON lines');
  }
  for (const [index, link] of links.entries()) {
    yield jsonRow(index + 1, Math.floor((totalBytes * (index + 1)) / links.length), link);
  }
}

/** The rows of a streamed file (CSV or JSON lines). */
export function parseRows(text: AsyncIterable<string>, format: Exclude<ImportFormat, 'json'>): AsyncGenerator<ParsedRow> {
  return format === 'csv' ? csvRows(text) : jsonlRows(text);
}
