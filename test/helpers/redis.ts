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
