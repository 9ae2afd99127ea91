import path from 'node:path';
import type { Config } from '../config.js';
import { describePostgresUrl } from '../db/postgres-start.js';
import { describeRedisUrl } from './redis.js';
import { packageVersion } from './package-root.js';

/** What the start-up line tells an operator: which Snip, on which storage, at which address; never a password. */
export function describeRuntime(config: Config, listeningOn: string) {
  return {
    version: packageVersion,
    node: process.versions.node,
    listening: listeningOn,
    baseUrl: config.baseUrl,
    database: config.databaseUrl ? `postgres ${describePostgresUrl(config.databaseUrl)}` : `sqlite ${path.join(config.dataDir, 'snip.db')}`,
    dataDir: config.dataDir,
    redis: config.redisUrl ? describeRedisUrl(config.redisUrl) : 'none (counters kept in this process)',
  };
}
