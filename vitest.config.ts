import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';

// Node's on-disk code cache (https://nodejs.org/api/module.html#module-compile-cache) for every process of a run: the
// test workers, and through their environment each CLI process, server and worker the suites spawn (a few hundred
// of them, each loading some 900 modules of dist/ and node_modules). Compiling those modules again in every process
// was a large part of what the process suites spend. A cache entry is keyed by the module's contents, so a rebuilt
// dist/ is compiled afresh; the program run is unchanged. An operator's own NODE_COMPILE_CACHE is kept.
process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), 'snip-test-compile-cache');

/**
 * The options of the suites that start the app, its databases or the shipped server (medium and e2e). A project does
 * not inherit the root's test options, and the unit tier wants none of these (no build, no modules kept between
 * files), so they are written once here and given to the two tiers that need them.
 */
const appSuites = {
  globalSetup: ['test/global-setup.ts'],
  testTimeout: 120_000, // a safety net for a hang, not a speed target: a process test on a loaded 2-core CI machine can take a minute
  hookTimeout: 120_000,
  pool: 'forks' as const,
  // A worker keeps the modules it loaded from one test file to the next: every file builds its own apps and
  // databases, and loading the app's module graph afresh for each of 64 files took over two minutes of the run.
  isolate: false,
};

/**
 * On PostgreSQL (SNIP_TEST_DATABASE_URL, CI's second pass) the medium tier leaves out the files that cannot reach it:
 * those that name none of the helpers that honour it nor a DATABASE_URL of their own (the CLI, crash-recovery and
 * worker suites that start the shipped server on SQLite). They ran in the first pass, and a second run would repeat
 * the same SQLite work (a few minutes of CI). Decided by what each file uses, so a new suite is sorted by being
 * written; a file that starts using a database helper joins the PostgreSQL pass by itself.
 */
const REACHES_POSTGRES = /useTestApp|startApp|sharedDatabase|dialectName|testDatabaseUrl|DATABASE_URL/;
function sqliteOnly(): string[] {
  if (!process.env.SNIP_TEST_DATABASE_URL) return [];
  const files = fs.readdirSync('test', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts') && !/^(unit|e2e)\//.test(f));
  return files.filter((f) => !REACHES_POSTGRES.test(fs.readFileSync(`test/${f}`, 'utf8'))).map((f) => `test/${f}`);
}

/**
 * Three tiers, chosen by where a file lives (`--project <name>`; a file named on the command line runs in the tier
 * that includes it):
 * - unit: pure rules (test/unit), no database, no app, no build; default isolation, so they cannot lean on each other.
 * - medium: everything else but the browser tests, through real HTTP and a real database (SQLite, or PostgreSQL with
 *   SNIP_TEST_DATABASE_URL); CI runs this whole tier again on PostgreSQL, so a new storage-facing file is covered there
 *   without being listed anywhere.
 * - e2e: the dashboard in a real browser against the shipped server (test/e2e).
 */
export default defineConfig({
  test: {
    // At least two files at once, even on two CPUs: the slowest suites (CLI, start-up, crash recovery) mostly wait
    // for the processes they spawn, so a second file runs in that time. A run-wide setting: projects cannot set it.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // Reuse a worker process from one test file to the next. Run-wide, like maxWorkers: the pool reads only the root's
    // poolOptions, so the tiers' own `isolate: false` alone still started a fresh process for every file (its whole
    // module graph loaded and its schemas compiled again: about a second of CPU a file). Each tier's `isolate` still
    // decides whether a file gets fresh modules in that process: the unit tier's do; the app tiers' keep theirs.
    // On PostgreSQL this hands a worker's emptied schemas from file to file (test/helpers/app-schemas.ts), which now
    // refuses to hand on one a test has dropped a table from.
    poolOptions: { forks: { isolate: false } },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'medium',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/unit/**', 'test/e2e/**', ...sqliteOnly()],
          ...appSuites,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          ...appSuites,
          // A page that loads and asks the server takes seconds on a loaded 2-CPU CI machine: expect.poll's own default
          // (1 s) failed a statistics page there that passes alone. A poll that names its own timeout keeps it.
          expect: { poll: { timeout: 10_000, interval: 100 } },
        },
      },
    ],
  },
});
