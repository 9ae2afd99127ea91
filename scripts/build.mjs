// Compiles src/ into dist/ with tsc. With --if-stale (used by `npm ci` and `npm start`) it does nothing when
// dist/ was built after the last change to the sources, so a start costs a file walk, not a compile.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const stamp = path.join(dist, '.build-stamp');
const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

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
process.stdout.write('snip: compiling TypeScript into dist/ (once after an install or a change to src/) ...\n');
// Start from an empty dist/ so files of deleted sources cannot linger in the build.
fs.rmSync(dist, { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
if (result.status !== 0) {
  fs.rmSync(stamp, { force: true });
  process.stderr.write('snip: the TypeScript build failed (errors above)\n');
  process.exit(result.status ?? 1);
}
fs.writeFileSync(stamp, `${new Date().toISOString()}\n`);
process.stdout.write(`snip: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
