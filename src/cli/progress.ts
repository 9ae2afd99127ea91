import cliProgress from 'cli-progress';
import type { ImportProgress } from './links-import.js';

/** A progress bar for `links import`, drawn where the caller passes a terminal. */
export interface ProgressBar {
  update(progress: ImportProgress): void;
  stop(): void;
}

/**
 * Draws the import's progress: the share of the file whose rows the links service has answered, with the rows
 * and failures so far. The bar starts at the first update, which carries the file's size.
 */
export function progressBar(stream: NodeJS.WriteStream): ProgressBar {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: 'Importing |{bar}| {percentage}% | {rows} rows | {failed} failed | {duration_formatted}',
      hideCursor: true,
      clearOnComplete: false,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update({ done, total, rows, failed }) {
      // An empty file is done at once: 1 of 1, so the bar shows 100% rather than 0 of 0.
      const size = Math.max(total, 1);
      const position = total === 0 ? 1 : done;
      if (!started) bar.start(size, position, { rows, failed });
      else bar.update(position, { rows, failed });
      started = true;
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

/** A running count for an import whose size is not known up front (a source's listing): links so far and failures. */
export function counterBar(stream: NodeJS.WriteStream, label: string): { update(progress: { rows: number; failed: number }): void; stop(): void } {
  const bar = new cliProgress.SingleBar({ stream, format: `${label} | {rows} links | {failed} failed | {duration_formatted}`, hideCursor: true, fps: 10 });
  let started = false;
  return {
    update({ rows, failed }) {
      if (!started) bar.start(0, 0, { rows, failed });
      else bar.update(0, { rows, failed });
      started = true;
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
