import Papa from 'papaparse';

/** One row of an import: what the bulk API takes per item. */
export interface ImportRow {
  url: string;
  customSlug?: string;
  expiresAt?: string;
  maxClicks?: number;
}

export interface ImportResult {
  row: number;
  url: string;
  shortUrl?: string;
  error?: string;
  code?: string;
}

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
