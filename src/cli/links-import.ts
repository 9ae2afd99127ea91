import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import type { Caller } from '../accounts/service.js';
import type { Core } from '../core.js';
import { AppError } from '../errors.js';
import {
  formatFromExtension, ImportFileError, isFailure, normalisedText, parseRows, sniffFormat, type ImportFormat,
} from './import-rows.js';
import { startProgress, type Progress } from './progress.js';

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

export interface ImportRequest {
  email: string;
  file: string;
  /** Overrides the extension and content sniffing. */
  format?: string;
  /** Where to draw a progress bar; none when omitted. */
  progressTo?: NodeJS.WriteStream | null;
}

export function parseImportFormat(raw: string | undefined): ImportFormat | null {
  if (raw === undefined) return null;
  if (raw === 'csv' || raw === 'jsonl') return raw;
  throw new AppError(400, 'INVALID_FORMAT', '--format must be csv or jsonl');
}

const unreadable = (file: string, error: unknown) =>
  new AppError(400, 'FILE_UNREADABLE', `Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);

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
  let progress: Progress | null = null;
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw unreadable(request.file, new Error('not a regular file'));
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    const head = buffer.subarray(0, bytesRead).toString('utf8');
    const format = forced ?? formatFromExtension(request.file) ?? sniffFormat(head);
    if (format === 'jsonl' && head.replace(/^\uFEFF/, '').trimStart().startsWith('[')) {
      throw new AppError(400, 'UNSUPPORTED_FILE', 'A JSON array is not supported: write one object per line (JSON lines)');
    }
    const stream = handle.createReadStream({ encoding: 'utf8', start: 0, autoClose: false });
    if (request.progressTo) progress = startProgress(request.progressTo, stat.size);
    const run = new ImportRun(core, caller, progress, () => stream.bytesRead);
    try {
      for await (const row of parseRows(normalisedText(stream), format)) {
        if (isFailure(row)) {
          await run.fail(row.line, row.failure.code, row.failure.message);
          if (row.stop) run.summary.incomplete = true;
        } else {
          await run.add(row.line, row.item, row.key);
        }
      }
    } catch (error) {
      if (error instanceof ImportFileError) throw new AppError(400, 'INVALID_FILE', error.message);
      if (error instanceof Error && 'syscall' in error) throw unreadable(request.file, error); // EISDIR, EIO, ... while reading
      throw error;
    }
    await run.flush();
    return run.summary;
  } finally {
    progress?.stop();
    await handle.close();
  }
}

type Pending = { line: number; item: unknown; key: string } | { line: number; failure: ImportFailure };

/**
 * The rows read so far and what became of them. Rows go to the links service a chunk at a time; rows that
 * failed to parse wait in the chunk too, so failures are listed in line order.
 */
class ImportRun {
  readonly summary: ImportSummary = { imported: 0, existing: 0, failed: 0, total: 0, failures: [] };
  private readonly fingerprints: Fingerprints;
  private pending: Pending[] = [];
  private items = 0;

  constructor(
    private readonly core: Core,
    private readonly caller: Caller,
    private readonly progress: Progress | null,
    private readonly bytesRead: () => number,
  ) {
    this.fingerprints = new Fingerprints(caller.accountId);
  }

  async fail(line: number, code: string, message: string): Promise<void> {
    this.pending.push({ line, failure: { line, code, message } });
    if (this.pending.length >= 4 * IMPORT_CHUNK) await this.flush(); // a file of mostly bad lines stays in bounds
  }

  async add(line: number, item: unknown, key: string): Promise<void> {
    this.pending.push({ line, item, key: this.fingerprints.next(key) });
    this.items += 1;
    if (this.items >= IMPORT_CHUNK) await this.flush();
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
    this.progress?.update(this.bytesRead(), this.summary);
  }
}
