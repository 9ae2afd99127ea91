import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { describeRedisUrl, firstContact, RECONNECTING } from './redis.js';

/**
 * What one instance tells the others to drop: link cache keys (or every link), a custom domain (or every domain),
 * the accounts that want the redirect's webhook events.
 */
export interface Invalidation {
  links?: string[] | 'all';
  domain?: string | 'all';
  webhooks?: true;
}

/** The caches an instance keeps of shared facts, as the invalidations reach them. */
export interface SharedCaches {
  forgetLinks(keys: string[] | 'all'): void;
  forgetDomain(hostname: string | 'all'): void;
  reloadSubscribers(): Promise<void>;
}

const CHANNEL = 'snip:invalidate';

/**
 * Keeps the caches of every instance on one Redis honest (docs/architecture.md, "Many instances"): each change an
 * instance makes to a cached fact is published on one pub/sub channel, and every other instance drops what it
 * cached of it, within milliseconds. A lost connection is reconnected by itself; since messages sent meanwhile are
 * lost, an instance that gets its connection back drops every cache at once. Without Redis there is nothing to do:
 * one instance invalidates its own caches as it changes things.
 */
export class CacheSync {
  private readonly origin = randomBytes(8).toString('hex');
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly where: string;
  private down = false;
  private subscribed = false;

  constructor(
    url: string,
    private readonly caches: SharedCaches,
    private readonly log: FastifyBaseLogger,
  ) {
    this.where = describeRedisUrl(url);
    const options = { enableOfflineQueue: false, maxRetriesPerRequest: 0, ...RECONNECTING };
    this.publisher = new Redis(url, { ...options, commandTimeout: 500 });
    // The subscriber keeps its SUBSCRIBE queued until a connection takes it (a Redis that starts after Snip), and
    // ioredis subscribes again after every reconnect.
    this.subscriber = new Redis(url, { ...RECONNECTING, enableOfflineQueue: true, maxRetriesPerRequest: null });
    // Its failures show on the subscriber too; an error event without a listener would be printed by ioredis.
    this.publisher.on('error', () => undefined);
    this.subscriber.on('message', (_channel: string, text: string) => this.receive(text));
    this.subscriber.on('error', (error: Error) => this.lost(error));
    this.subscriber.on('end', () => this.lost(new Error('connection closed')));
    this.subscriber.on('ready', () => this.back());
  }

  /**
   * Subscribes. What this instance changes is published by whoever knows the changes (src/redirects/invalidations.ts
   * turns the bus's events into `publish` calls), so this plumbing knows no feature.
   */
  async start(): Promise<void> {
    this.subscribe();
    // A short-lived process (the CLI) changes something right away: its announcement must not find no connection.
    await firstContact(this.publisher);
  }

  /** Not awaited: with Redis away it completes once Redis is there, and start-up does not wait for that. */
  private subscribe(): void {
    this.subscriber.subscribe(CHANNEL).then(
      () => (this.subscribed = true),
      (error: unknown) => this.lost(error),
    );
  }

  publish(invalidation: Invalidation): void {
    if (this.publisher.status !== 'ready') return;
    this.publisher.publish(CHANNEL, JSON.stringify({ from: this.origin, ...invalidation })).catch((error: unknown) => this.lost(error));
  }

  private receive(text: string): void {
    let message: Invalidation & { from?: string };
    try {
      message = JSON.parse(text) as Invalidation & { from?: string };
    } catch {
      return;
    }
    // Anything else on the channel (another program's message, `null`) is not Snip's: ignored, never thrown.
    if (typeof message !== 'object' || message === null || message.from === this.origin) return;
    if (message.links === 'all' || Array.isArray(message.links)) this.caches.forgetLinks(message.links === 'all' ? 'all' : message.links.filter((k) => typeof k === 'string'));
    if (typeof message.domain === 'string') this.caches.forgetDomain(message.domain);
    if (message.webhooks === true) this.caches.reloadSubscribers().catch((error: unknown) => this.log.warn({ err: error }, 'could not reload the webhook subscribers'));
  }

  /** The counters' connection logs Redis going away and coming back, once each; this one only acts on it. */
  private lost(error: unknown): void {
    if (this.down) return;
    this.down = true;
    this.log.debug({ redis: this.where, err: error }, 'cache invalidations paused: Redis is not reachable');
  }

  private back(): void {
    if (!this.down) return;
    this.down = false;
    // Whatever other instances changed meanwhile was announced to nobody here.
    this.caches.forgetLinks('all');
    this.caches.forgetDomain('all');
    void this.caches.reloadSubscribers().catch(() => undefined);
    if (!this.subscribed) this.subscribe();
    this.log.debug({ redis: this.where }, 'cache invalidations resumed; caches dropped');
  }

  /** Whether invalidations flow (for /readyz). */
  get connected(): boolean {
    return this.subscribed && this.subscriber.status === 'ready';
  }

  async close(): Promise<void> {
    for (const connection of [this.subscriber, this.publisher]) {
      if (connection.status === 'ready') await connection.quit().catch(() => connection.disconnect());
      else connection.disconnect();
    }
  }
}
