// Compiles src/ into dist/ with tsc, and the dashboard (web/) into dist/app with Vite, its text files also as .br and
// .gz copies. With --if-stale (used by `npm ci`, `npm start`, `npm run cli` and the tests) it does only what changed
// since the last build: nothing (a file walk), the dashboard alone when only web/ changed, or both. `--server-only`
// (the CLI) ignores web/: an operator command needs no dashboard. Progress goes to stderr: a CLI command's stdout is
// its JSON line only.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const serverStamp = path.join(dist, '.build-stamp');
const appStamp = path.join(dist, 'app', '.build-stamp');
const serverInputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];
const appInputs = ['web', 'client', 'package.json']; // the dashboard bundles the typed client (client/)

function newestChange(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted or renamed file changes its folder
  for (const name of fs.readdirSync(entry)) newest = Math.max(newest, newestChange(path.join(entry, name)));
  return newest;
}

function isFresh(stamp, inputs) {
  const built = fs.statSync(stamp, { throwIfNoEntry: false });
  return built !== undefined && inputs.every((input) => newestChange(path.join(root, input)) <= built.mtimeMs);
}

function resolveOrNull(specifier) {
  try {
    return createRequire(import.meta.url).resolve(specifier);
  } catch {
    return null;
  }
}

/** Renames `next` over `target`, so a process starting meanwhile finds the previous or the new folder, whole. */
function swapIn(next, target) {
  const previous = `${target}.old-${process.pid}`;
  if (fs.existsSync(target)) fs.renameSync(target, previous);
  fs.renameSync(next, target);
  fs.rmSync(previous, { recursive: true, force: true });
}

// The dashboard's text files, compressed here once so the server never compresses them (src/http/dashboard.ts serves
// `<file>.br` or `<file>.gz` to a client that accepts it). Images and fonts come compressed already.
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|map|txt|xml|webmanifest)$/;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

function filesUnder(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(file) : [file];
  });
}

/** Writes `.br` (Brotli at its best, 11: it runs once) and `.gz` (level 9) beside each text file, where smaller. */
async function compressAssets(outDir) {
  await Promise.all(
    filesUnder(outDir)
      .filter((file) => COMPRESSIBLE.test(file))
      .map(async (file) => {
        const raw = fs.readFileSync(file);
        const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length };
        const [br, gz] = await Promise.all([brotli(raw, { params }), gzip(raw, { level: zlib.constants.Z_BEST_COMPRESSION })]);
        // A file too small to gain is served as it is (@fastify/static falls back to it).
        if (br.length < raw.length) fs.writeFileSync(`${file}.br`, br);
        if (gz.length < raw.length) fs.writeFileSync(`${file}.gz`, gz);
      }),
  );
}

async function buildApp(outDir) {
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'web', 'vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  await compressAssets(outDir);
  fs.writeFileSync(path.join(outDir, '.build-stamp'), `${new Date().toISOString()}\n`);
}

const fail = (message, dir) => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  process.stderr.write(`snip: ${message}\n`);
  process.exit(1);
};

const ifStale = process.argv.includes('--if-stale');
const serverOnly = process.argv.includes('--server-only');
const serverFresh = ifStale && isFresh(serverStamp, serverInputs);
const appFresh = serverOnly || (ifStale && isFresh(appStamp, appInputs));
if (serverFresh && appFresh) process.exit(0);

const tsc = resolveOrNull('typescript/bin/tsc');
if (tsc === null || resolveOrNull('vite') === null) {
  // An install without dev dependencies (npm ci --omit=dev) has no compiler: fine while dist/ is there.
  if (fs.existsSync(path.join(dist, 'main.js'))) {
    process.stderr.write('snip: sources changed since dist/ was built, but the build tools are not installed (npm ci without --omit=dev); starting the existing build\n');
    process.exit(0);
  }
  fail('dist/ is missing and the build tools are not installed: run `npm ci` (with dev dependencies) to build Snip');
}

const started = Date.now();
if (serverFresh) {
  // Only the dashboard changed: rebuild dist/app alone, beside it, and swap it in.
  process.stderr.write('snip: building the dashboard into dist/app ...\n');
  const next = path.join(dist, `app.next-${process.pid}`);
  try {
    await buildApp(next);
  } catch (error) {
    fail(`the dashboard build failed: ${error instanceof Error ? error.message : error}`, next);
  }
  swapIn(next, path.join(dist, 'app'));
} else {
  process.stderr.write('snip: compiling TypeScript into dist/ (once after an install or a change to src/) ...\n');
  // Compile into a fresh folder beside dist/ and swap it in when done: files of deleted sources cannot linger, and a
  // server or CLI starting meanwhile (or a second build) still finds the previous, complete dist/.
  const next = `${dist}.next-${process.pid}`;
  fs.rmSync(next, { recursive: true, force: true });
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', next], { stdio: 'inherit', cwd: root });
  if (result.status !== 0) fail('the TypeScript build failed (errors above)', next);
  process.stderr.write('snip: building the dashboard into dist/app ...\n');
  try {
    await buildApp(path.join(next, 'app'));
  } catch (error) {
    fail(`the dashboard build failed: ${error instanceof Error ? error.message : error}`, next);
  }
  fs.writeFileSync(path.join(next, '.build-stamp'), `${new Date().toISOString()}\n`);
  swapIn(next, dist);
}
process.stderr.write(`snip: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
