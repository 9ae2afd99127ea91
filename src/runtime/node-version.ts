/** The oldest Node.js major Snip runs on: its SQLite driver (better-sqlite3 13, Node-API) needs 22. */
export const MIN_NODE_MAJOR = 22;

/** Why `version` (such as "20.20.2") cannot run Snip, as the one line to print; null when it can. */
export function nodeVersionProblem(version: string, execPath: string): string | null {
  if (Number(version.split('.')[0]) >= MIN_NODE_MAJOR) return null;
  return (
    `Snip needs Node.js ${MIN_NODE_MAJOR} or newer, but this is Node.js ${version} (${execPath}). ` +
    '`npm start` and `npm run cli` use the Node.js 24 that `npm ci` installs with Snip; to run dist/main.js directly, install Node.js 24 LTS.'
  );
}

/**
 * Stops with one line when the running Node.js is too old, before anything native is loaded: on Node 20 the
 * SQLite driver would crash at the first query instead. Runs first in every entry point (server, CLI).
 */
export function requireSupportedNode(): void {
  const problem = nodeVersionProblem(process.versions.node, process.execPath);
  if (problem === null) return;
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
