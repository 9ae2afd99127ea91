import cliProgress from 'cli-progress';

/** A progress bar for long CLI commands; drawn only where the caller passes a terminal. */
export interface Progress {
  update(bytesRead: number, counts: { total: number; failed: number }): void;
  stop(): void;
}

/** Progress through a file of `totalBytes`, with the rows read and failed so far. */
export function startProgress(stream: NodeJS.WriteStream, totalBytes: number): Progress {
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
  bar.start(Math.max(totalBytes, 1), 0, { rows: 0, failed: 0 });
  return {
    update(bytesRead, counts) {
      bar.update(Math.min(bytesRead, Math.max(totalBytes, 1)), { rows: counts.total, failed: counts.failed });
    },
    stop() {
      bar.stop();
    },
  };
}
