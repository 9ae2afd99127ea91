import fs from 'node:fs';
import path from 'node:path';

/**
 * The folder holding Snip's package.json, found by walking up from this file: the same answer whether the code
 * runs from src/ (tsx, vitest) or from dist/ (npm start), so files read at run time live in one place.
 */
function findPackageRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${start}`);
    dir = parent;
  }
}

export const packageRoot = findPackageRoot(import.meta.dirname);

/** A file shipped in the package's `assets/` folder (never compiled, never copied into dist/). */
export const assetPath = (name: string): string => path.join(packageRoot, 'assets', name);

/** The version in package.json, for the start-up line and /healthz. */
export const packageVersion: string = (JSON.parse(fs.readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
