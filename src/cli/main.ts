import { parseArgs } from 'node:util';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { ConfigError, loadConfig } from '../config.js';
import { createCore, type Core } from '../core.js';
import { AppError } from '../errors.js';
import { exportLinks } from './links-export.js';
import { importLinks } from './links-import.js';

/**
 * Operator CLI. Every command prints exactly one JSON line on stdout; failures print one on stderr. The one
 * exception is `links export` without `--output`: its data is the output, so no summary line follows.
 */
const USAGE = `Usage:
  cli users create --email E [--tier free|pro|builder|enterprise]
  cli users set-tier --email E --tier T
  cli users show --email E
  cli keys create --email E
  cli keys revoke --key snip_...   (or --id key_...)
  cli links import --email E [--format csv|jsonl] FILE
  cli links export --email E [--format csv|jsonl] [--output FILE]`;

type Options = { email?: string; tier?: string; key?: string; id?: string; format?: string; output?: string; file?: string };
/** Resolves to what the command prints as its JSON line; undefined when it wrote its own output. */
type Command = (core: Core, options: Options) => Promise<unknown>;

function need(options: Options, name: keyof Options): string {
  const value = options[name];
  if (!value) throw new AppError(400, 'MISSING_ARGUMENT', `--${name} is required`);
  return value;
}

const COMMANDS: Record<string, Command> = {
  'users create': (core, o) => core.accounts.createAccount({ email: need(o, 'email'), tier: o.tier ?? 'free' }),
  'users set-tier': (core, o) => core.accounts.setTier(need(o, 'email'), need(o, 'tier')),
  'users show': async (core, o) => core.accounts.profile((await core.accounts.requireByEmail(need(o, 'email'))).id),
  'keys create': async (core, o) => {
    const account = await core.accounts.requireByEmail(need(o, 'email'));
    return { email: account.email, ...(await core.accounts.createKey(account.id)) };
  },
  'keys revoke': async (core, o) => ({ revoked: true, ...(await core.accounts.revokeKeyAsOperator(o.key ?? need(o, 'id'))) }),
  'links import': (core, o) => {
    if (!o.file) throw new AppError(400, 'MISSING_ARGUMENT', 'FILE is required: links import --email E FILE');
    const progressTo = process.stderr.isTTY ? process.stderr : null;
    return importLinks(core, { email: need(o, 'email'), file: o.file, format: o.format, progressTo });
  },
  'links export': (core, o) => exportLinks(core, { email: need(o, 'email'), format: o.format, output: o.output, stdout: process.stdout }),
};

const writeOut = (text: string) =>
  new Promise<void>((resolve, reject) => process.stdout.write(text, (error) => (error ? reject(error) : resolve())));

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' }, tier: { type: 'string' }, key: { type: 'string' }, id: { type: 'string' },
      format: { type: 'string' }, output: { type: 'string' }, help: { type: 'boolean' },
    },
  });
  const command = COMMANDS[positionals.slice(0, 2).join(' ')];
  if (values.help || !command) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  const log = pino({ level: 'warn' }, pino.destination(2)) as FastifyBaseLogger;
  const core = await createCore(config, log, { background: false });
  try {
    const result = await command(core, { ...values, file: positionals[2] });
    // Wait until the line is flushed: a pipe takes 64 KiB at once, and process.exit would drop the rest.
    if (result !== undefined) await writeOut(`${JSON.stringify(result)}\n`);
    return 0;
  } finally {
    await core.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const body =
      error instanceof AppError
        ? { error: true, code: error.code, message: error.message }
        : error instanceof ConfigError || (error instanceof TypeError && 'code' in error)
          ? { error: true, code: 'INVALID_ARGUMENT', message: error.message }
          : { error: true, code: 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error) };
    process.stderr.write(`${JSON.stringify(body)}\n`);
    process.exit(1);
  },
);
