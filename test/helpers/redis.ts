import net from 'node:net';
import { Redis } from 'ioredis';

/** The Redis the multi-instance suites use: the local one, or SNIP_TEST_REDIS_URL. */
export const TEST_REDIS_URL = process.env.SNIP_TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** Whether a Redis answers at `url` (within a second); suites that need one skip with a message when not. */
export async function redisReachable(url = TEST_REDIS_URL): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * A TCP relay in front of the test Redis that can be cut (every connection closed, new ones refused) and restored on
 * the same port: a Redis that goes away and comes back, for a server given `redis://127.0.0.1:<port>`.
 */
export async function redisRelay(url = TEST_REDIS_URL): Promise<{ port: number; cut(): Promise<void>; restore(): Promise<void> }> {
  const target = new URL(url);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) =>
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as net.AddressInfo).port;
        resolve();
      }),
    );
  await listen();
  return {
    get port() {
      return port;
    },
    async cut() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
    restore: listen,
  };
}
