import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Caller } from '../accounts/service.js';
import type { Core } from '../core.js';
import { AppError } from '../errors.js';
import { toCsv } from '../exports/csv.js';
import { EXPORT_PAGE } from '../exports/service.js';
import type { Link } from '../links/link.js';
import { formatFromExtension, IMPORT_FIELDS, type ImportFormat } from './import-rows.js';
import { parseImportFormat } from './links-import.js';

/** The import columns first (so an export can be imported elsewhere), then what the link is now. */
export const EXPORT_COLUMNS = [...IMPORT_FIELDS, 'shortCode', 'shortUrl', 'fullPath', 'clicks', 'created'] as const;
type ExportRecord = Record<(typeof EXPORT_COLUMNS)[number], string | number | null>;

export interface ExportRequest {
  email: string;
  format?: string;
  /** A file to write; without it the data goes to `stdout`. */
  output?: string;
  stdout: NodeJS.WritableStream;
}

export interface ExportSummary {
  exported: number;
  format: ImportFormat;
  output: string;
}

function record(core: Core, link: Link, nowMs: number): ExportRecord {
  return {
    url: link.url,
    customSlug: link.slug,
    expiresAt: link.expiresAt,
    maxClicks: link.maxClicks,
    // A link already active imports as active: a past activeFrom would be refused by the create rules.
    activeFrom: link.activeFrom && Date.parse(link.activeFrom) > nowMs ? link.activeFrom : null,
    shortCode: link.code,
    shortUrl: core.present.shortUrl(link),
    fullPath: core.present.fullPath(link),
    clicks: link.clicks,
    created: link.createdAt,
  };
}

/**
 * Snip's CSV dialect (src/exports/csv.ts), without the formula guard of the API exports: this file is an import
 * file, whose values must read back unchanged (a slug may start with a hyphen).
 */
function render(records: ExportRecord[], format: ImportFormat, first: boolean): string {
  if (format === 'jsonl') return records.map((r) => `${JSON.stringify(r)}\n`).join('');
  return toCsv(records, EXPORT_COLUMNS, { header: first, protectFormulas: false });
}

const unwritable = (file: string, error: unknown) =>
  new AppError(400, 'FILE_UNWRITABLE', `Cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);

/** Where the text goes: a stream (awaiting each write, so nothing is lost at exit) or a file handle. */
interface Sink {
  write(text: string): Promise<void>;
}

const streamSink = (stream: NodeJS.WritableStream): Sink => ({
  write: (text) => new Promise((resolve, reject) => stream.write(text, (error) => (error ? reject(error) : resolve()))),
});

/**
 * Writes every page of the account's links, newest first (the list order of the API), read as the API exports
 * read them (keyset pages of the exports service). Returns how many.
 */
async function writeLinks(core: Core, caller: Caller, format: ImportFormat, sink: Sink): Promise<number> {
  let exported = 0;
  let first = true;
  for await (const page of core.exports.linkPages(caller, EXPORT_PAGE)) {
    const text = render(page.map((link) => record(core, link, Date.now())), format, first);
    first = false;
    if (text) await sink.write(text);
    exported += page.length;
  }
  return exported;
}

/**
 * `links export --email E [--format csv|jsonl] [--output FILE]`. With `--output` the file is written whole
 * (through a temporary file renamed into place) and a summary is returned; without it the data goes to stdout
 * and the result is undefined, so the CLI prints no summary line after the data.
 */
export async function exportLinks(core: Core, request: ExportRequest): Promise<ExportSummary | undefined> {
  const format = parseImportFormat(request.format) ?? (request.output ? formatFromExtension(request.output) : null) ?? 'csv';
  if (request.output === '') throw new AppError(400, 'MISSING_ARGUMENT', '--output needs a file name');
  const caller = await core.accounts.callerFor(request.email); // an unknown account fails before anything is written
  if (request.output === undefined) {
    await writeLinks(core, caller, format, streamSink(request.stdout));
    return undefined;
  }
  const output = path.resolve(request.output);
  const temporary = path.join(path.dirname(output), `.${path.basename(output)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(temporary, 'wx').catch((error: unknown) => {
    throw unwritable(output, error);
  });
  let exported: number;
  try {
    exported = await writeLinks(core, caller, format, { write: async (text) => void (await handle.write(text)) });
    await handle.close();
    await fs.rename(temporary, output);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.rm(temporary, { force: true });
    throw error instanceof Error && 'syscall' in error ? unwritable(output, error) : error;
  }
  return { exported, format, output };
}
