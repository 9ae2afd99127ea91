import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000, // a safety net for a hang, not a speed target: a process test on a loaded 2-core CI machine can take a minute
    hookTimeout: 120_000,
    pool: 'forks',
    // A worker keeps the modules it loaded from one test file to the next: every file builds its own apps and
    // databases, and loading the app's module graph afresh for each of 64 files took over two minutes of the run.
    isolate: false,
    // At least two files at once, even on two CPUs: the slowest suites (CLI, start-up, crash recovery) mostly wait
    // for the processes they spawn, so a second file runs in that time.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
  },
});
