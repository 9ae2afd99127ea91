/** The oldest Node.js major Snip runs on: its SQLite driver (better-sqlite3 13, Node-API) needs 22. */
export const MIN_NODE_MAJOR = 22;

/**
 * Stops with one line when the running Node.js is too old, before anything native is loaded: on Node 20 the
 * SQLite driver would crash at the first query instead. Runs first in every entry point (server, CLI).
 */
export function requireSupportedNode(): void {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= MIN_NODE_MAJOR) return;
  process.stderr.write(
    `Snip needs Node.js ${MIN_NODE_MAJOR} or newer, but this is Node.js ${process.versions.node} (${process.execPath}). ` +
      '`npm start` and `npm run cli` use the Node.js 24 that `npm ci` installs with Snip; to run dist/main.js directly, install Node.js 24 LTS.\n',
  );
  process.exit(1);
}
