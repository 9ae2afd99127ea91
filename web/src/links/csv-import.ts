import Papa from 'papaparse';
import type { Answer, Body } from '../api';
import { hasDestinationColumn, importColumnOf, importItem, importProblems, sniffImportFormat } from '../../../src/links/import-columns';

type BulkItem = Body<'/api/bulk', 'post'>['urls'][number];
type BulkResult = Answer<'/api/bulk', 'post'>['results'][number];

/** Why a row will not be sent: a value the file shows is wrong, or a line that is no link at all. */
export interface RowProblem {
  code: string;
  message: string;
}

/**
 * One row of the file as the preview shows it: where it is (the header is row 1; for a JSON document the link's
 * position in its list), the bulk item it becomes by Snip's one import dialect (src/links/import-columns.ts, as the
 * CLI reads it), and the problems that keep it from being sent.
 */
export interface PreviewRow {
  row: number;
  item: BulkItem;
  problems: RowProblem[];
}

export interface ImportPreview {
  rows: PreviewRow[];
  /** What a row's number counts, for the table's header. */
  rowName: 'Row' | 'Line' | 'Item';
  /** CSV columns an import does not read (a typo in a header shows here, not as a silently missing value). */
  ignoredColumns: string[];
}

/** One sent row's outcome, by its row in the file. */
export type ImportResult = { row: number } & Pick<BulkResult, 'url' | 'shortUrl' | 'error' | 'code'>;

const previewRow = (row: number, record: Record<string, unknown>, fromCsv: boolean): PreviewRow => {
  const item = importItem(record, fromCsv);
  return { row, item: item as BulkItem, problems: importProblems(item) };
};

/** A JSON value as a row: a link object, or a problem for anything else. */
function jsonRow(row: number, value: unknown): PreviewRow {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return previewRow(row, value as Record<string, unknown>, false);
  return { row, item: { url: '' }, problems: [{ code: 'INVALID_ITEM', message: 'This is not a link: each row is an object with a url' }] };
}

/**
 * A CSV with a header row naming at least a url (or destination) column, each row numbered by the line it starts on
 * as the CLI numbers it (quoted cells may span lines; blank lines are skipped but counted).
 */
function readCsv(text: string): ImportPreview {
  const rows: PreviewRow[] = [];
  let fields: string[] = [];
  let lines = 0; // line breaks before `seen`
  let seen = 0;
  Papa.parse<Record<string, string>>(text, {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (h) => importColumnOf(h) ?? `ignored:${h}`,
    step: (result) => {
      fields = result.meta.fields ?? fields;
      const end = result.meta.cursor;
      for (let i = seen; i < end; i++) if (text.charCodeAt(i) === 10) lines += 1;
      seen = end;
      const endLine = text.charCodeAt(end - 1) === 10 ? lines : lines + 1;
      const inner = Object.values(result.data).reduce((n, cell) => n + (String(cell).match(/\n/g)?.length ?? 0), 0);
      rows.push(previewRow(endLine - inner, result.data, true));
    },
  });
  if (!hasDestinationColumn(fields)) throw new Error('The first row must name the columns, one of them url (or destination)');
  return { rows, rowName: 'Row', ignoredColumns: fields.filter((f) => f.startsWith('ignored:')).map((f) => f.slice('ignored:'.length)) };
}

/** JSON lines: one link object per line; a line that is not JSON is a row with a problem. */
function readJsonLines(text: string): ImportPreview {
  const rows: PreviewRow[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      rows.push(jsonRow(i + 1, JSON.parse(line)));
    } catch (error) {
      rows.push({ row: i + 1, item: { url: '' }, problems: [{ code: 'INVALID_JSON', message: `Not valid JSON: ${(error as Error).message}` }] });
    }
  });
  return { rows, rowName: 'Line', ignoredColumns: [] };
}

/** One JSON document: `{"links": [...]}` as Snip's exports write it, or an array of links. */
function readJsonDocument(text: string): ImportPreview {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`This is not a valid JSON document: ${(error as Error).message}`, { cause: error });
  }
  const links = Array.isArray(value) ? value : (value as { links?: unknown } | null)?.links;
  if (!Array.isArray(links)) throw new Error('A JSON file is {"links": [...]} as Snip exports it, a list of links, or one link per line');
  return { rows: links.map((link, i) => jsonRow(i + 1, link)), rowName: 'Item', ignoredColumns: [] };
}

/**
 * Reads an import file (CSV, a JSON document or JSON lines, told apart as the CLI tells them) into the rows of its
 * preview: nothing is sent, dropped or guessed here. A value the file shows is wrong is a problem of its row; the
 * server judges the rest of each row when it is sent.
 */
export async function readImportFile(file: File): Promise<ImportPreview> {
  const text = (await file.text()).replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const format = sniffImportFormat(file.name, text.slice(0, 4096));
  return format === 'csv' ? readCsv(text) : format === 'jsonl' ? readJsonLines(text) : readJsonDocument(text);
}

export const SAMPLE_CSV =
  'url,customSlug,expiresAt,maxClicks,activeFrom,blockedCountries\nhttps://example.com/first-page,,,,,\nhttps://example.com/second-page,,2030-01-01T00:00:00Z,100,,"DE,FR"\n';
