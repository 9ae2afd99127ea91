import { Redis } from 'ioredis';
import type { Charge, ChargeResult, CounterStore } from './counters.js';

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

export class RedisCounterStore implements CounterStore {
  private readonly redis: Redis;

  constructor(url: string) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
  }

  async charge(charges: Charge[]): Promise<ChargeResult> {
    if (charges.length === 0) return { allowed: true, counts: [] };
    const args = charges.flatMap((c) => [String(c.limit), String(c.amount), String(c.resetAtMs)]);
    const reply = (await this.redis.eval(CHARGE, charges.length, ...charges.map((c) => c.key), ...args)) as number[];
    const [allowed, ...counts] = reply;
    return { allowed: allowed === 1, counts: counts.map(Number) };
  }

  async refund(charges: Charge[]): Promise<void> {
    if (charges.length === 0) return;
    const pipeline = this.redis.multi();
    for (const c of charges) pipeline.decrby(c.key, c.amount);
    await pipeline.exec();
  }

  async read(keys: string[]): Promise<number[]> {
    if (keys.length === 0) return [];
    const values = await this.redis.mget(...keys);
    return values.map((v) => Number(v ?? 0));
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}
