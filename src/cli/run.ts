import fs from 'node:fs';
import { parseArgs } from 'node:util';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { ConfigError, loadConfig, operatorEnvironment } from '../config.js';
import { createCore, type Core } from '../core.js';
import { AppError, errors } from '../errors.js';
import { exportLinks } from './links-export.js';
import { ADMIN_COMMANDS, type AdminOptions } from './admin-commands.js';
import { CLI_ACTOR } from '../admin/audit.js';
import { importLinks } from './links-import.js';
import { progressBar } from './progress.js';
import { importFromSource, type SourceImportOptions } from './source-import.js';
import { userPath } from './user-path.js';

/**
 * Operator CLI. Every command prints exactly one JSON line on stdout; failures print one on stderr. The one
 * exception is `links export` without `--output`: its data is the output, so no summary line follows.
 */
const USAGE = `Usage: npm run --silent cli -- <command> [options]

Commands:
  users create --email E [--tier free|pro|builder|enterprise]
  users set-tier --email E --tier T
  users show --email E
  users list
  users delete --email E --yes        the account and everything it owns, for good
  users set-password --email E        the dashboard password, read from stdin; signs the account out everywhere
  keys create --email E [--name N] [--admin]   --admin: an operator's key that may call /api/admin (the Admin area's API)
  keys list --email E                 ids, prefixes and dates; never the secret
  keys revoke --key snip_...          (or --id key_...)
  links import --email E [--format csv|json|jsonl] FILE
  links import --email E --from shlink|kutt|yourls|bitly|dub --source URL --source-key KEY
               [--domain HOST] [--with-clicks] [--dry-run]
                                      every link of another shortener; old short URLs keep working where their
                                      domain moves to Snip (docs/migrating.md); safe to run again
  links export --email E [--format csv|json|jsonl] [--output FILE]
  operators add --email E | operators remove --email E | operators list
                                      operators run the server: no plan limits, the dashboard's Admin area
  users disable --email E [--reason R] | users enable --email E
                                      a disabled account's keys, sessions and OAuth grants stop; its links still redirect
  users reset-password --email E      a one-time link (24 hours) to pass on, to set a new password
  sign-ups show | sign-ups set --mode open|invite|closed [--tier T]
  invites create [--tier T]           a one-time sign-up link (7 days), also while sign-ups are invite only
  links disable --url SHORT_URL --reason R | links enable --url SHORT_URL
                                      visitors of a disabled link get a page saying so; its owner cannot re-enable it
  audit list [--before ID]            the operator actions, newest first, 50 at a time
  db backup FILE                      SQLite: a consistent copy of the live database (the server may keep running)
  help                                this text (also --help, -h)

Each command prints one JSON line on stdout; an error prints {"error":true,"code","message"} on stderr and exits
1 (2 for a command line that is not understood). Relative FILE and --output paths are taken from the directory
you run the command in.

Settings (environment variables, read as the server reads them; give the CLI the server's values):
  DATA_DIR      where the SQLite database lives (default ./data; relative to the package root under npm)
  DATABASE_URL  postgres://... to use PostgreSQL instead of SQLite (then DATA_DIR holds only local files)
  BASE_URL      the public address of short URLs in exports (default http://localhost:$PORT)
  PORT          the server's port, which makes BASE_URL's default (default 3000)
  PLANS_FILE    the plan limits (tiers' features and quotas) shown by users show and applied by links import`;

interface Options extends AdminOptions, SourceImportOptions {
  name?: string;
  admin?: boolean;
  tier?: string;
  key?: string;
  id?: string;
  format?: string;
  output?: string;
  yes?: boolean;
  /** The positional argument after the command words (`links import ... FILE`). */
  file?: string;
}

interface Command {
  /** Resolves to what the command prints as its JSON line; undefined when it wrote its own output. */
  run(core: Core, options: Options): Promise<unknown>;
  /** Takes a FILE after the command words. */
  takesFile?: true;
}

/** A command line the CLI does not understand: exit 2, with the usage after the error line. */
class UsageError extends AppError {
  constructor(code: 'UNKNOWN_COMMAND' | 'INVALID_ARGUMENT', message: string) {
    super(code, message);
  }
}

function need(options: Options, name: 'email' | 'tier'): string {
  const value = options[name];
  if (!value) throw errors.missingArgument(`--${name}`);
  return value;
}

const COMMANDS: Record<string, Command> = {
  ...ADMIN_COMMANDS,
  'users create': { run: (core, o) => core.accounts.createAccount({ email: need(o, 'email'), tier: o.tier ?? 'free' }) },
  'users set-tier': { run: async (core, o) => core.admin.setPlan(CLI_ACTOR, await core.admin.accountIdOf(need(o, 'email')), need(o, 'tier')) },
  'users show': { run: async (core, o) => core.accounts.profile((await core.accounts.requireByEmail(need(o, 'email'))).id) },
  'users set-password': {
    run: async (core, o) => {
      const result = await core.sessions.setPasswordAsOperator(need(o, 'email'), await readPassword());
      await core.admin.record(CLI_ACTOR, 'account.password-set', result.email, { sessionsEnded: result.sessionsEnded });
      return result;
    },
  },
  'users list': { run: async (core) => ({ users: await core.accounts.listAccounts() }) },
  'users delete': {
    run: async (core, o) => {
      const email = need(o, 'email');
      if (!o.yes) {
        const account = await core.accounts.requireByEmail(email); // a mistyped email says so first
        throw errors.confirmationRequired(
          `users delete removes ${account.email} with its API keys, links, clicks, webhooks, folders and domains, and cannot be undone`,
        );
      }
      const account = await core.admin.account(await core.admin.accountIdOf(email));
      return { ...account, ...(await core.admin.deleteAccount(CLI_ACTOR, account.id)) };
    },
  },
  'keys create': {
    run: async (core, o) => {
      const account = await core.accounts.requireByEmail(need(o, 'email'));
      if (o.admin && account.role !== 'operator') throw errors.invalidArgument(`--admin makes a key for the admin operations, which only operators may call: ${account.email} is not one (operators add)`);
      const key = await core.accounts.createKey(account.id, { name: o.name, scopes: o.admin ? ['admin'] : [] });
      // A key that may run the admin operations is an operator action of its own.
      if (o.admin) await core.admin.record(CLI_ACTOR, 'key.create', account.email, { scopes: ['admin'], prefix: key.prefix });
      return { email: account.email, ...key };
    },
  },
  'keys list': { run: (core, o) => core.accounts.keysOf(need(o, 'email')) },
  'keys revoke': {
    run: async (core, o) => {
      if (o.key && o.id) throw errors.invalidArgument('Give --key or --id, not both');
      const keyOrId = o.key || o.id;
      if (!keyOrId) throw errors.missingArgument('--key or --id');
      return { revoked: true, ...(await core.accounts.revokeKeyAsOperator(keyOrId)) };
    },
  },
  'links import': {
    takesFile: true,
    run: async (core, o) => {
      if (o.from !== undefined) {
        if (o.file) throw errors.invalidArgument('links import takes FILE or --from, not both');
        return importFromSource(core, o);
      }
      if (!o.file) throw errors.missingArgument('FILE', 'is required: links import --email E FILE (or --from, to import from another shortener)');
      const bar = process.stderr.isTTY ? progressBar(process.stderr) : null;
      try {
        return await importLinks(core, { email: need(o, 'email'), file: userPath(o.file), format: o.format, onProgress: bar?.update });
      } finally {
        bar?.stop();
      }
    },
  },
  'db backup': {
    takesFile: true,
    run: async (core, o) => {
      if (!o.file) throw errors.missingArgument('FILE', 'is required: db backup FILE');
      const { backup } = core.database;
      if (!backup) throw errors.invalidArgument('db backup copies the SQLite database; on PostgreSQL use pg_dump (docs/deployment.md)');
      const file = userPath(o.file);
      if (fs.existsSync(file)) throw errors.invalidArgument(`${o.file} exists; give a new file name`);
      return { backup: file, bytes: await backup(file) };
    },
  },
  'links export': {
    run: (core, o) =>
      exportLinks(core, {
        email: need(o, 'email'),
        format: o.format,
        output: o.output ? userPath(o.output) : o.output,
        stdout: process.stdout,
      }),
  },
};

/**
 * The password from stdin (`printf '%s' "$PW" | ... users set-password`), never from the command line, where it
 * would be in the shell's history and every `ps`. One trailing newline (from `echo` or Enter) is not part of it.
 */
async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Type the new password, then Enter and Ctrl-D:\n');
  let text = '';
  for await (const chunk of process.stdin.setEncoding('utf8')) {
    text += chunk;
    if (text.length > 4096) throw errors.invalidArgument('The password on stdin is too long');
  }
  const password = text.replace(/\r?\n$/, '');
  if (!password) throw errors.missingArgument('The password', 'is required on stdin');
  return password;
}

const write = (stream: NodeJS.WriteStream, text: string) =>
  new Promise<void>((resolve, reject) => stream.write(text, (error) => (error ? reject(error) : resolve())));

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        email: { type: 'string' }, tier: { type: 'string' }, key: { type: 'string' }, id: { type: 'string' },
        format: { type: 'string' }, output: { type: 'string' }, yes: { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
        name: { type: 'string' }, admin: { type: 'boolean' }, reason: { type: 'string' }, url: { type: 'string' }, mode: { type: 'string' }, before: { type: 'string' },
        from: { type: 'string' }, source: { type: 'string' }, 'source-key': { type: 'string' }, domain: { type: 'string' },
        'with-clicks': { type: 'boolean' }, 'dry-run': { type: 'boolean' },
      },
    });
  } catch (error) {
    // node:util's messages name the option ("Unknown option '--emial'", "Option '--email <value>' argument missing").
    throw new UsageError('INVALID_ARGUMENT', error instanceof Error ? error.message : String(error));
  }
}

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv);
  if (values.help || positionals.length === 0 || positionals[0] === 'help') {
    await write(process.stdout, `${USAGE}\n`);
    return 0;
  }
  const name = positionals.slice(0, 2).join(' ');
  const command = COMMANDS[name];
  if (!command) throw new UsageError('UNKNOWN_COMMAND', `Unknown command "${name}"; the commands are listed below`);
  const extra = positionals.slice(command.takesFile ? 3 : 2);
  if (extra.length > 0) throw new UsageError('INVALID_ARGUMENT', `Unexpected argument "${extra[0]}" after ${name}`);

  const config = loadConfig(operatorEnvironment());
  const log = pino({ level: 'warn' }, pino.destination(2)) as FastifyBaseLogger;
  const core = await createCore(config, log, { background: false, authorizationServer: false });
  try {
    const result = await command.run(core, { ...values, file: positionals[2] });
    // Wait until the line is flushed: a pipe takes 64 KiB at once, and process.exit would drop the rest.
    if (result !== undefined) await write(process.stdout, `${JSON.stringify(result)}\n`);
    // A command that printed its summary may still have failed (an import whose source stopped answering).
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } finally {
    await closeWithin(core, log, CLOSE_DEADLINE_MS);
  }
}

/** How long a finished command waits for the database and journal to close before it exits anyway. */
const CLOSE_DEADLINE_MS = 10_000;

/**
 * Closes the core, but never lets a command whose work is done and answered hang on the way out: a close that has
 * not finished by the deadline is logged (what was open, for a bug report) and the process exits all the same.
 */
async function closeWithin(core: Core, log: FastifyBaseLogger, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  const outcome = await Promise.race([core.close().then(() => 'closed' as const), late]);
  clearTimeout(timer);
  if (outcome === 'late') {
    const open = process.getActiveResourcesInfo();
    log.warn({ open }, `closing the database took longer than ${ms / 1000} s; exiting anyway (nothing is lost: the command had finished)`);
  }
}

function errorBody(error: unknown): { error: true; code: string; message: string } {
  if (error instanceof AppError) return { error: true, code: error.code, message: error.message };
  if (error instanceof ConfigError) return { error: true, code: 'INVALID_SETTING', message: error.message };
  return { error: true, code: 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error) };
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (error: unknown) => {
    const usage = error instanceof UsageError ? `${USAGE}\n` : '';
    await write(process.stderr, `${JSON.stringify(errorBody(error))}\n${usage}`).catch(() => undefined);
    process.exit(usage ? 2 : 1);
  },
);
