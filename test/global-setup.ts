import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The process tests (CLI, server start-up and signals) run the product as shipped, from dist/: build it first when
 * src/ changed since the last build (a file walk otherwise), exactly as `npm start` does.
 */
export default function setup(): void {
  // For a quick run of suites that start no process while src/ is being edited: `SNIP_TEST_NO_BUILD=1 npx vitest run test/x.test.ts`.
  if (process.env.SNIP_TEST_NO_BUILD === '1') return;
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--if-stale'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`building dist/ for the process tests failed (exit ${result.status ?? result.signal})`);
}
