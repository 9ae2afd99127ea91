import path from 'node:path';

/**
 * A file the user named on the command line, as an absolute path. `npm run` starts the CLI in the package root, so
 * a relative path is taken from the directory the user typed the command in: npm's INIT_CWD, else the process's
 * own directory (the CLI started without npm).
 */
export function userPath(file: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.INIT_CWD || process.cwd(), file);
}
