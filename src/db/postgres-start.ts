import { StartupError } from '../runtime/startup-error.js';

/** `postgres://user@host:port/db` without the password, for logs and messages. */
export function describePostgresUrl(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed) return 'postgres (DATABASE_URL)';
  parsed.password = '';
  parsed.search = '';
  return parsed.toString();
}

/** Errors of a server that is not there yet (or restarting); anything else will not fix itself by waiting. */
const TRANSIENT = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', '57P03']);
const REASONS: Record<string, string> = {
  '28P01': 'the password was refused',
  '28000': 'the user may not connect',
  '3D000': 'the database does not exist',
  '42501': 'the user lacks a privilege Snip needs',
};

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

const reasonOf = (error: unknown): string => REASONS[codeOf(error)] ?? (error instanceof Error ? error.message : String(error));

export interface WaitOptions {
  timeoutMs: number;
  /** Told once, when the first attempt fails and start-up begins to wait. */
  onWaiting?: (message: string) => void;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Connects once to prove PostgreSQL is there before migrations run: a database that is still starting (a
 * container started alongside Snip) is waited for up to `timeoutMs`; a refused password or a missing database
 * stops start-up at once. Either way the operator gets one sentence naming DATABASE_URL, not a driver's stack.
 */
export async function waitForPostgres(url: string, options: WaitOptions): Promise<void> {
  const where = describePostgresUrl(url);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = Date.now() + options.timeoutMs;
  const { default: pg } = await import('pg');
  let told = false;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    // A failed connection may still emit 'error' after connect() rejects; it is handled by the rejection.
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      const transient = TRANSIENT.has(codeOf(error)) || /timeout/i.test(String((error as Error).message));
      if (!transient) throw new StartupError(`cannot use PostgreSQL at ${where} (DATABASE_URL): ${reasonOf(error)}`);
      if (Date.now() >= deadline) {
        throw new StartupError(`PostgreSQL at ${where} (DATABASE_URL) is not reachable: ${reasonOf(error)}; gave up after ${Math.round(options.timeoutMs / 1000)} s (DATABASE_START_TIMEOUT)`);
      }
      if (!told) options.onWaiting?.(`PostgreSQL at ${where} (DATABASE_URL) is not reachable yet (${reasonOf(error)}); retrying for up to ${Math.round(options.timeoutMs / 1000)} s`);
      told = true;
      await sleep(Math.min(1_000, Math.max(0, deadline - Date.now())));
    }
  }
}
