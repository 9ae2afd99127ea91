import type { Core } from '../core.js';
import { errors } from '../errors.js';
import { isSourceName, SOURCE_NAMES } from '../imports/source.js';
import type { SourceImportSummary } from '../imports/service.js';
import { counterBar } from './progress.js';

export interface SourceImportOptions {
  email?: string;
  from?: string;
  source?: string;
  'source-key'?: string;
  domain?: string;
  'with-clicks'?: boolean;
  'dry-run'?: boolean;
}

/**
 * `links import --email E --from shlink|kutt|yourls|bitly|dub --source URL --source-key KEY`: every link of another
 * shortener, for one account. The operator imports for anyone without plan limits and may reach a source on the
 * private network (the usual place of a self-hosted Shlink, Kutt or YOURLS). A source that fails part-way still
 * prints the summary, with its error, and exits 1; running the command again continues where it stopped.
 */
export async function importFromSource(core: Core, o: SourceImportOptions): Promise<SourceImportSummary> {
  if (!o.email) throw errors.missingArgument('--email');
  if (!isSourceName(o.from)) throw errors.invalidArgument(`--from must be one of ${SOURCE_NAMES.join(', ')}`);
  if (!o['source-key']) throw errors.missingArgument('--source-key', `is required: the ${o.from} API key or token`);
  const caller = await core.accounts.callerFor(o.email);
  const bar = process.stderr.isTTY ? counterBar(process.stderr, `Importing from ${o.from}`) : null;
  try {
    const summary = await core.imports.fromSource(
      caller,
      {
        from: o.from,
        ...(o.source === undefined ? {} : { source: o.source }),
        sourceKey: o['source-key'],
        ...(o.domain === undefined ? {} : { domain: o.domain }),
        withClicks: o['with-clicks'] === true,
        dryRun: o['dry-run'] === true,
        ...(bar ? { onProgress: bar.update } : {}),
      },
      'cli',
    );
    if (summary.error) process.exitCode = 1;
    return summary;
  } finally {
    bar?.stop();
  }
}
