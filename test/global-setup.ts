import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

/**
 * The process tests (CLI, server start-up and signals) run the product as shipped, from dist/: build it first when
 * src/ changed since the last build (a file walk otherwise), exactly as `npm start` does.
 *
 * On PostgreSQL (SNIP_TEST_DATABASE_URL) test apps reuse their schemas within a worker (test/helpers/app-schemas.ts):
 * the run's schemas share a prefix given here, and the teardown drops them, leaving other runs' alone.
 */
export default function setup(project: TestProject): () => Promise<void> {
  const prefix = `t${randomBytes(4).toString('hex')}`;
  project.provide('appSchemaPrefix', prefix);
  const teardown = async () => {
    const url = process.env.SNIP_TEST_DATABASE_URL;
    if (!url) return;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(`select nspname as name from pg_namespace where nspname like $1`, [`${prefix}\\_%`]);
      for (const { name } of rows) await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
    } finally {
      await client.end();
    }
  };

  // For a quick run of suites that start no process while src/ is being edited: `SNIP_TEST_NO_BUILD=1 npx vitest run test/x.test.ts`.
  if (process.env.SNIP_TEST_NO_BUILD === '1') return teardown;
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--if-stale'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`building dist/ for the process tests failed (exit ${result.status ?? result.signal})`);
  return teardown;
}
