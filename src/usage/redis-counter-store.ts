import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { MemoryCounterStore, type Charge, type ChargeResult, type CounterStore } from './counters.js';
import { describeRedisUrl, firstContact, RECONNECTING } from '../runtime/redis.js';

/**
 * Checks every counter and, only if all have room, increments them all: one script, so Redis runs it
 * atomically and instances sharing the Redis can never admit more than the limit together.
 * KEYS: counter keys. ARGV: per key limit, amount, reset time (ms) in triples.
 */
const CHARGE = `
local counts = {}
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[(i - 1) * 3 + 1])
  local amount = tonumber(ARGV[(i - 1) * 3 + 2])
  local count = tonumber(redis.call('GET', key) or '0')
  counts[i] = count
  if count + amount > limit then
    return {0, unpack(counts)}
  end
end
for i, key in ipairs(KEYS) do
  local amount = tonumber(ARGV[(i - 1) * 3 + 2])
  counts[i] = redis.call('INCRBY', key, amount)
  redis.call('PEXPIREAT', key, ARGV[(i - 1) * 3 + 3])
end
return {1, unpack(counts)}
`;

/** A command waits at most this long for Redis: an API request never hangs on a Redis that went away. */
const COMMAND_TIMEOUT_MS = 500;

/**
 * Rate-limit counters shared through Redis. While Redis is unreachable, counting goes on per instance in
 * memory (each instance enforces every limit on its own traffic) and requests are answered at once rather
 * than queued for a reconnect; the log says so once when Redis goes away and once when it is back.
 */
export class RedisCounterStore implements CounterStore {
  private readonly redis: Redis;
  private readonly where: string;
  private down = false;

  constructor(
    url: string,
    private readonly fallback: MemoryCounterStore,
    private readonly log: FastifyBaseLogger,
  ) {
    this.where = describeRedisUrl(url);
    this.redis = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      ...RECONNECTING,
    });
    this.redis.on('error', (error: Error) => this.lost(error));
    this.redis.on('ready', () => {
      if (!this.down) return;
      this.down = false;
      this.log.info({ redis: this.where }, 'Redis is reachable again (REDIS_URL): rate limits are shared across instances again, and caches kept in step');
    });
  }

  private lost(error: unknown): void {
    if (this.down) return;
    this.down = true;
    const reason = (error as { code?: string } | null)?.code ?? (error instanceof Error ? error.message : String(error));
    this.log.warn({ redis: this.where, reason }, 'Redis is not reachable (REDIS_URL): until it is back, rate limits are counted per instance and changes made on other instances reach this one as its caches expire (10 s)');
  }

  /** Runs `command` on Redis, or `local` on the in-memory counters while Redis is away. */
  private async either<T>(command: () => Promise<T>, local: () => Promise<T>): Promise<T> {
    if (this.redis.status !== 'ready') {
      if (this.redis.status !== 'connecting' && this.redis.status !== 'connect') this.lost(new Error(this.redis.status));
      return local();
    }
    try {
      return await command();
    } catch (error) {
      this.lost(error);
      return local();
    }
  }

  async charge(charges: Charge[]): Promise<ChargeResult> {
    if (charges.length === 0) return { allowed: true, counts: [] };
    return this.either(async () => {
      const args = charges.flatMap((c) => [String(c.limit), String(c.amount), String(c.resetAtMs)]);
      const reply = (await this.redis.eval(CHARGE, charges.length, ...charges.map((c) => c.key), ...args)) as number[];
      const [allowed, ...counts] = reply;
      return { allowed: allowed === 1, counts: counts.map(Number) };
    }, () => this.fallback.charge(charges));
  }

  async refund(charges: Charge[]): Promise<void> {
    if (charges.length === 0) return;
    await this.either(async () => {
      const pipeline = this.redis.multi();
      for (const c of charges) pipeline.decrby(c.key, c.amount);
      await pipeline.exec();
    }, () => this.fallback.refund(charges));
  }

  async read(keys: string[]): Promise<number[]> {
    if (keys.length === 0) return [];
    return this.either(async () => (await this.redis.mget(...keys)).map((v) => Number(v ?? 0)), () => this.fallback.read(keys));
  }

  /**
   * Resolves once the first connection attempt has succeeded or failed (at most a few seconds), so a server
   * starts counting where its peers count rather than in memory for its first requests.
   */
  firstContact(): Promise<void> {
    return this.down ? Promise.resolve() : firstContact(this.redis);
  }

  /** Whether Redis answers right now (GET /readyz). */
  async ping(): Promise<boolean> {
    if (this.redis.status !== 'ready') return false;
    return this.redis.ping().then(
      () => true,
      () => false,
    );
  }

  async close(): Promise<void> {
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => this.redis.disconnect());
    else this.redis.disconnect();
  }
}
