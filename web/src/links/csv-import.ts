import Papa from 'papaparse';
import type { Answer, Body } from '../api';
import { hasDestinationColumn, importColumnOf, importItem } from '../../../src/links/import-columns';

type BulkItem = Body<'/api/bulk', 'post'>['urls'][number];
type BulkResult = Answer<'/api/bulk', 'post'>['results'][number];

/** One row of an import: a bulk item, read by Snip's one import dialect (src/links/import-columns.ts, as the CLI reads it). */
export type ImportRow = BulkItem;

/** One item's outcome, by its row in the file (the header is row 1). */
export type ImportResult = { row: number } & Pick<BulkResult, 'url' | 'shortUrl' | 'error' | 'code'>;

/**
 * Reads a CSV with a header row naming at least a url (or destination) column; the other columns an import knows
 * (customSlug or fullPath, expiresAt, maxClicks, activeFrom, blockedCountries) are passed on as they are, for the
 * server to check each row as it checks a link: nothing is dropped or guessed here.
 */
export async function readImportCsv(file: File): Promise<ImportRow[]> {
  const text = await file.text();
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: 'greedy', transformHeader: (h) => importColumnOf(h) ?? `ignored:${h}` });
  if (!hasDestinationColumn(parsed.meta.fields ?? [])) throw new Error('The first row must name the columns, one of them url');
  return parsed.data.map((record) => importItem(record, true) as ImportRow);
}

export const SAMPLE_CSV =
  'url,customSlug,expiresAt,maxClicks,activeFrom,blockedCountries\nhttps://example.com/first-page,,,,,\nhttps://example.com/second-page,,2030-01-01T00:00:00Z,100,,"DE,FR"\n';
