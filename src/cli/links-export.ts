import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Caller } from '../caller.js';
import type { Core } from '../core.js';
import { errors } from '../errors.js';
import { LINK_FILE_FORMATS, parseLinkFileFormat, type LinkFileFormat } from '../exports/service.js';

/**
 * `links export`: the links file of the exports service (src/exports/service.ts), the same file GET
 * /api/v1/export/links answers, with the same short URLs (the service's presenter, built from BASE_URL). Only where
 * it goes is decided here: stdout, or a file written whole.
 */

export interface ExportRequest {
  email: string;
  format?: string;
  /** A file to write (an absolute path: the CLI resolves it); without it the data goes to `stdout`. */
  output?: string;
  stdout: NodeJS.WritableStream;
}

export interface ExportSummary {
  exported: number;
  format: LinkFileFormat;
  output: string;
}

const OUTPUT_EXTENSIONS: Record<string, LinkFileFormat> = { '.csv': 'csv', '.json': 'json', '.jsonl': 'jsonl', '.ndjson': 'jsonl' };

/**
 * `--format`, else the output file's extension, else CSV (stdout, or a file name without an extension). An
 * extension that names no format Snip writes (`.xlsx`, `.txt`) is refused rather than filled with CSV.
 */
export function exportFormat(format: string | undefined, output: string | undefined): LinkFileFormat {
  if (format !== undefined) {
    try {
      return parseLinkFileFormat(format);
    } catch {
      throw errors.invalidFormat(LINK_FILE_FORMATS, '--format');
    }
  }
  const extension = output === undefined ? '' : path.extname(output).toLowerCase();
  if (extension === '') return 'csv';
  const known = OUTPUT_EXTENSIONS[extension];
  if (!known) {
    throw errors.unsupportedFormat(
      `Snip does not write ${extension} files: name the output .csv, .json or .jsonl, or give --format ${LINK_FILE_FORMATS.join('|')}`,
    );
  }
  return known;
}

const unwritable = (file: string, error: unknown) =>
  errors.fileUnwritable(file, error instanceof Error ? error.message : String(error));

/** Where the text goes: a stream (awaiting each write, so nothing is lost at exit) or a file handle. */
type Write = (text: string) => Promise<void>;

const streamWrite =
  (stream: NodeJS.WritableStream): Write =>
  (text) =>
    new Promise((resolve, reject) => stream.write(text, (error) => (error ? reject(error) : resolve())));

/** Writes the account's links file part by part; returns how many links it holds. */
async function writeLinks(core: Core, caller: Caller, format: LinkFileFormat, write: Write): Promise<number> {
  let exported = 0;
  for await (const chunk of core.exports.linkFile(caller, format)) {
    if (chunk.text) await write(chunk.text);
    exported += chunk.links;
  }
  return exported;
}

/**
 * `links export --email E [--format csv|json|jsonl] [--output FILE]`. With `--output` the file is written whole
 * (through a temporary file renamed into place) and a summary is returned; without it the data goes to stdout and
 * the result is undefined, so the CLI prints no summary line after the data.
 */
export async function exportLinks(core: Core, request: ExportRequest): Promise<ExportSummary | undefined> {
  if (request.output === '') throw errors.missingArgument('--output', 'needs a file name');
  const format = exportFormat(request.format, request.output);
  const caller = await core.accounts.callerFor(request.email); // an unknown account fails before anything is written
  if (request.output === undefined) {
    await writeLinks(core, caller, format, streamWrite(request.stdout));
    return undefined;
  }
  const output = path.resolve(request.output);
  const temporary = path.join(path.dirname(output), `.${path.basename(output)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(temporary, 'wx').catch((error: unknown) => {
    throw unwritable(output, error);
  });
  let exported: number;
  try {
    exported = await writeLinks(core, caller, format, async (text) => void (await handle.write(text)));
    await handle.close();
    await fs.rename(temporary, output);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await fs.rm(temporary, { force: true });
    throw error instanceof Error && 'syscall' in error ? unwritable(output, error) : error;
  }
  return { exported, format, output };
}
