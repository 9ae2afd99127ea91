import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import type { Caller } from '../caller.js';
import type { Core } from '../core.js';
import { errors } from '../errors.js';
import {
  importFormatOf, ImportFileError, isFailure, jsonDocumentRows, MAX_JSON_DOCUMENT_BYTES, normalisedText, parseImportFormat, parseRows,
  type ParsedRow,
} from './import-rows.js';

/** Rows sent to the links service per call; also the call's `maxItems`. */
export const IMPORT_CHUNK = 500;
/** Failures listed in the summary; the counts stay exact beyond it. */
export const MAX_LISTED_FAILURES = 1000;

export interface ImportFailure {
  line: number;
  code: string;
  message: string;
}

export interface ImportSummary {
  imported: number;
  existing: number;
  failed: number;
  total: number;
  failures: ImportFailure[];
  failuresTruncated?: true;
  /** Broken CSV quoting stopped the read; the rows after it were not read (the last failure says where). */
  incomplete?: true;
}

/**
 * How far an import has got: `done` of `total` bytes of the file are rows the links service has answered (a JSON
 * document counts each link as its share of the file); `rows` and `failed` count those rows. `done` never goes
 * back, and reaches `total` only once every row is answered.
 */
export interface ImportProgress {
  done: number;
  total: number;
  rows: number;
  failed: number;
}

export interface ImportRequest {
  email: string;
  /** The file to read, as given (the CLI passes it resolved against the user's directory). */
  file: string;
  /** Overrides the extension and content sniffing. */
  format?: string;
  /** Told at the start, after each chunk of rows and at the end. */
  onProgress?: (progress: ImportProgress) => void;
}

const unreadable = (file: string, error: unknown) =>
  errors.fileUnreadable(file, error instanceof Error ? error.message : String(error));

/**
 * Import fingerprints: one per row, from the account, the row's normalised fields and how many identical rows
 * came before it in the file. Re-running a file finds every row's link again; two identical rows stay two links.
 */
class Fingerprints {
  private readonly seen = new Map<string, number>();

  constructor(private readonly accountId: string) {}

  next(key: string): string {
    const row = createHash('sha256').update(`${this.accountId}\n${key}`).digest('base64url');
    const occurrence = (this.seen.get(row) ?? 0) + 1;
    this.seen.set(row, occurrence);
    return createHash('sha256').update(`${row}\n${occurrence}`).digest('hex');
  }
}

/** `links import --email E FILE`: creates the file's links for the account, row by row, safe to re-run. */
export async function importLinks(core: Core, request: ImportRequest): Promise<ImportSummary> {
  const forced = parseImportFormat(request.format);
  const caller = await core.accounts.callerFor(request.email);
  const handle = await fs.open(request.file, 'r').catch((error: unknown) => {
    throw unreadable(request.file, error);
  });
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw unreadable(request.file, new Error('not a regular file'));
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    const format = importFormatOf(request.file, buffer.subarray(0, bytesRead).toString('utf8'), forced);
    const run = new ImportRun(core, caller, stat.size, request.onProgress);
    let rows: AsyncIterable<ParsedRow> | Iterable<ParsedRow>;
    if (format === 'json') {
      if (stat.size > MAX_JSON_DOCUMENT_BYTES) {
        const limit = `${MAX_JSON_DOCUMENT_BYTES / 1024 / 1024} MiB`;
        throw errors.fileTooLarge(limit);
      }
      rows = jsonDocumentRows(await handle.readFile({ encoding: 'utf8' }), stat.size);
    } else {
      rows = parseRows(normalisedText(handle.createReadStream({ encoding: 'utf8', start: 0, autoClose: false })), format);
    }
    run.report();
    try {
      for await (const row of rows) {
        if (isFailure(row)) {
          await run.fail(row);
          if (row.stop) run.summary.incomplete = true;
        } else {
          await run.add(row);
        }
      }
    } catch (error) {
      if (error instanceof ImportFileError) throw errors.invalidFile(error.message);
      if (error instanceof Error && 'syscall' in error) throw unreadable(request.file, error); // EISDIR, EIO, ... while reading
      throw error;
    }
    await run.flush();
    run.finish();
    return run.summary;
  } finally {
    await handle.close();
  }
}

type Pending = { line: number; end: number; item: unknown; key: string } | { line: number; end: number; failure: ImportFailure };

/**
 * The rows read so far and what became of them. Rows go to the links service a chunk at a time; rows that
 * failed to parse wait in the chunk too, so failures are listed in line order.
 */
class ImportRun {
  readonly summary: ImportSummary = { imported: 0, existing: 0, failed: 0, total: 0, failures: [] };
  private readonly fingerprints: Fingerprints;
  private pending: Pending[] = [];
  private items = 0;
  /** How far into the file the rows answered so far reach. */
  private done = 0;

  constructor(
    private readonly core: Core,
    private readonly caller: Caller,
    private readonly totalBytes: number,
    private readonly onProgress: ((progress: ImportProgress) => void) | undefined,
  ) {
    this.fingerprints = new Fingerprints(caller.accountId);
  }

  async fail(row: { line: number; end: number; failure: { code: string; message: string } }): Promise<void> {
    this.pending.push({ line: row.line, end: row.end, failure: { line: row.line, ...row.failure } });
    if (this.pending.length >= 4 * IMPORT_CHUNK) await this.flush(); // a file of mostly bad lines stays in bounds
  }

  async add(row: { line: number; end: number; item: unknown; key: string }): Promise<void> {
    this.pending.push({ line: row.line, end: row.end, item: row.item, key: this.fingerprints.next(row.key) });
    this.items += 1;
    if (this.items >= IMPORT_CHUNK) await this.flush();
  }

  /** Tells the progress listener where the import is. Below the total until `finish`: the end is only known there. */
  report(done = Math.min(this.done, this.totalBytes - 1)): void {
    this.onProgress?.({ done: Math.max(0, done), total: this.totalBytes, rows: this.summary.total, failed: this.summary.failed });
  }

  /** Every row is answered: the whole file is done. */
  finish(): void {
    this.report(this.totalBytes);
  }

  async flush(): Promise<void> {
    const rows = this.pending;
    this.pending = [];
    this.items = 0;
    const sent = rows.filter((r): r is Extract<Pending, { item: unknown }> => 'item' in r);
    const outcomes =
      sent.length === 0
        ? []
        : await this.core.links.createMany(
            this.caller,
            sent.map((r) => r.item),
            { maxItems: IMPORT_CHUNK, chargeQuota: false, importKeys: sent.map((r) => r.key) },
          );
    const outcomeOf = new Map(outcomes.map((o) => [sent[o.index]!, o]));
    for (const row of rows) {
      this.summary.total += 1;
      const outcome = 'failure' in row ? null : outcomeOf.get(row);
      if (outcome && 'link' in outcome) {
        if (outcome.existing) this.summary.existing += 1;
        else this.summary.imported += 1;
        continue;
      }
      this.summary.failed += 1;
      const failure: ImportFailure =
        'failure' in row
          ? row.failure
          : outcome
            ? { line: row.line, code: outcome.error.code, message: outcome.error.message }
            : { line: row.line, code: 'INTERNAL_ERROR', message: 'The links service gave no outcome for this row' };
      if (this.summary.failures.length < MAX_LISTED_FAILURES) this.summary.failures.push(failure);
      else this.summary.failuresTruncated = true;
    }
    const last = rows.at(-1);
    if (last) {
      this.done = Math.max(this.done, last.end);
      this.report();
    }
  }
}
