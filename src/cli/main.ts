import { parseArgs } from 'node:util';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { ConfigError, loadConfig } from '../config.js';
import { createCore, type Core } from '../core.js';
import { AppError } from '../errors.js';

/** Operator CLI. Every command prints exactly one JSON line on stdout; failures print one on stderr. */
const USAGE = `Usage:
  cli users create --email E [--tier free|pro|builder|enterprise]
  cli users set-tier --email E --tier T
  cli users show --email E
  cli keys create --email E
  cli keys revoke --key snip_...   (or --id key_...)`;

type Options = { email?: string; tier?: string; key?: string; id?: string };
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
};

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { email: { type: 'string' }, tier: { type: 'string' }, key: { type: 'string' }, id: { type: 'string' }, help: { type: 'boolean' } },
  });
  const command = COMMANDS[positionals.slice(0, 2).join(' ')];
  if (values.help || !command) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  const log = pino({ level: 'warn' }, pino.destination(2)) as FastifyBaseLogger;
  const core = await createCore(config, log);
  try {
    process.stdout.write(`${JSON.stringify(await command(core, values))}\n`);
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
