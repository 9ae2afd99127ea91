import type { Redis } from 'ioredis';

/** `redis://host:port/db` without user or password, for logs. */
export function describeRedisUrl(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed) return 'redis (REDIS_URL)';
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

/** Every Redis connection of Snip: a short connect timeout, and reconnecting for as long as the process runs (at most every 2 s). */
export const RECONNECTING = {
  connectTimeout: 2_000,
  retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000),
};

/** Resolves once a connection is ready or has failed once (at most 3 s): a process starts in step with its peers. */
export function firstContact(connection: Redis): Promise<void> {
  if (connection.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      connection.off('ready', done);
      connection.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, 3_000);
    connection.once('ready', done);
    connection.once('error', done);
  });
}
