import Papa from 'papaparse';
import type { Answer, Body } from '../api';

type BulkItem = Body<'/api/bulk', 'post'>['urls'][number];
type BulkResult = Answer<'/api/bulk', 'post'>['results'][number];

/** One row of an import: the columns a CSV may carry, each what the bulk API takes per item. */
export type ImportRow = Pick<BulkItem, 'url' | 'customSlug' | 'expiresAt' | 'maxClicks'>;

/** One item's outcome, by its row in the file (the header is row 1). */
export type ImportResult = { row: number } & Pick<BulkResult, 'url' | 'shortUrl' | 'error' | 'code'>;

const COLUMNS: Record<string, keyof ImportRow> = { url: 'url', long: 'url', destination: 'url', customslug: 'customSlug', slug: 'customSlug', expiresat: 'expiresAt', maxclicks: 'maxClicks' };

/** Reads a CSV with a header row naming at least a `url` column; other known columns are passed on, the rest ignored. */
export async function readImportCsv(file: File): Promise<ImportRow[]> {
  const text = await file.text();
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: 'greedy', transformHeader: (h) => h.trim().toLowerCase().replace(/[\s_-]/g, '') });
  if (!parsed.meta.fields?.some((f) => COLUMNS[f] === 'url')) throw new Error('The first row must name the columns, one of them url');
  return parsed.data.map((record) => {
    const row: ImportRow = { url: '' };
    for (const [field, value] of Object.entries(record)) {
      const key = COLUMNS[field];
      const v = value?.trim();
      if (!key || !v) continue;
      if (key === 'maxClicks') row.maxClicks = Number(v);
      else row[key] = v;
    }
    return row;
  });
}

export const SAMPLE_CSV = 'url,customSlug,expiresAt,maxClicks\nhttps://example.com/first-page,,,\nhttps://example.com/second-page,,2030-01-01T00:00:00Z,100\n';
