// Compiles src/ into dist/ with tsc, and the dashboard (web/) into dist/app with Vite. With --if-stale (used by `npm ci`, `npm start`, `npm run cli` and the tests) it
// does nothing when dist/ was built after the last change to the sources, so a start costs a file walk, not a
// compile. Progress goes to stderr: a CLI command's stdout is its JSON line and nothing else.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const stamp = path.join(dist, '.build-stamp');
const inputs = ['src', 'web', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

function newestChange(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted or renamed file changes its folder
  for (const name of fs.readdirSync(entry)) newest = Math.max(newest, newestChange(path.join(entry, name)));
  return newest;
}

function isFresh() {
  const built = fs.statSync(stamp, { throwIfNoEntry: false });
  return built !== undefined && inputs.every((input) => newestChange(path.join(root, input)) <= built.mtimeMs);
}

function tscPath() {
  try {
    return createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return null;
  }
}

const ifStale = process.argv.includes('--if-stale');
if (ifStale && isFresh()) process.exit(0);

const tsc = tscPath();
if (tsc === null) {
  // An install without dev dependencies (npm ci --omit=dev) has no compiler: fine while dist/ is there.
  if (fs.existsSync(path.join(dist, 'main.js'))) {
    process.stderr.write('snip: sources changed since dist/ was built, but TypeScript is not installed (npm ci without --omit=dev); starting the existing build\n');
    process.exit(0);
  }
  process.stderr.write('snip: dist/ is missing and TypeScript is not installed: run `npm ci` (with dev dependencies) to build Snip\n');
  process.exit(1);
}

const started = Date.now();
process.stderr.write('snip: compiling TypeScript into dist/ (once after an install or a change to src/) ...\n');
// Compile into a fresh folder beside dist/ and swap it in when done: files of deleted sources cannot linger, and a
// server or CLI starting meanwhile (or a second build) still finds the previous, complete dist/.
const next = `${dist}.next-${process.pid}`;
fs.rmSync(next, { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', next], { stdio: 'inherit', cwd: root });
if (result.status !== 0) {
  fs.rmSync(next, { recursive: true, force: true });
  process.stderr.write('snip: the TypeScript build failed (errors above)\n');
  process.exit(result.status ?? 1);
}
process.stderr.write('snip: building the dashboard into dist/app ...\n');
try {
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'web', 'vite.config.ts'), logLevel: 'warn', build: { outDir: path.join(next, 'app'), emptyOutDir: true } });
} catch (error) {
  fs.rmSync(next, { recursive: true, force: true });
  process.stderr.write(`snip: the dashboard build failed: ${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
}
fs.writeFileSync(path.join(next, '.build-stamp'), `${new Date().toISOString()}\n`);
const previous = `${dist}.old-${process.pid}`;
if (fs.existsSync(dist)) fs.renameSync(dist, previous);
fs.renameSync(next, dist);
fs.rmSync(previous, { recursive: true, force: true });
process.stderr.write(`snip: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
