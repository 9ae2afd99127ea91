import type { FastifyBaseLogger } from 'fastify';
import { AccountsRepository } from './accounts/repository.js';
import { AccountsService } from './accounts/service.js';
import path from 'node:path';
import { GeoIp } from './clicks/geoip.js';
import { ClickJournal } from './clicks/journal.js';
import { ClickRecorder, newSecret } from './clicks/recorder.js';
import { ClicksRepository } from './clicks/repository.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { EventBus } from './events/bus.js';
import { LinkPresenter } from './links/presenters.js';
import { LinksRepository } from './links/repository.js';
import { LinksService } from './links/service.js';
import { ExpirySweeper } from './links/expiry-sweeper.js';
import { RedirectService } from './redirects/service.js';
import { AnalyticsRepository } from './analytics/repository.js';
import { AnalyticsService } from './analytics/service.js';
import { MemoryCounterStore, type CounterStore } from './usage/counters.js';
import { RedisCounterStore } from './usage/redis-counter-store.js';
import { DatabaseCounterStore } from './usage/repository.js';
import { UsageService } from './usage/service.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import { WebhooksRepository } from './webhooks/repository.js';
import { WebhookSender } from './webhooks/sender.js';
import { createDns } from './net/dns.js';
import { WebhookService } from './webhooks/service.js';

export interface CoreOptions {
  clock?: Clock;
  /** PostgreSQL schema to work in; tests use one per run. */
  pgSchema?: string;
}

/** The services every surface shares, wired once: the HTTP app, the CLI and (later) MCP adapt these. */
export interface Core {
  config: Config;
  database: DatabaseHandle;
  bus: EventBus;
  accounts: AccountsService;
  links: LinksService;
  redirects: RedirectService;
  clicks: ClickRecorder;
  usage: UsageService;
  analytics: AnalyticsService;
  webhooks: WebhookService;
  expiry: ExpirySweeper;
  present: LinkPresenter;
  close(): Promise<void>;
}

export async function createCore(config: Config, log: FastifyBaseLogger, options: CoreOptions = {}): Promise<Core> {
  const clock = options.clock ?? systemClock;
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, pgSchema: options.pgSchema });
  const bus = new EventBus();
  const linksRepo = new LinksRepository(database.db);
  const ownHostnames = new Set([new URL(config.baseUrl).hostname.toLowerCase()]);
  const now = () => clock.now().getTime();
  const redis = config.redisUrl ? new RedisCounterStore(config.redisUrl) : null;
  const fastCounters: CounterStore = redis ?? new MemoryCounterStore(now);
  const durableCounters = new DatabaseCounterStore(database.db, now);
  await durableCounters.sweep();
  const usage = new UsageService(config.plans, fastCounters, durableCounters, clock, log);
  const clicksRepo = new ClicksRepository(database.db, database.dialect);
  const journalRoot = path.join(config.dataDir, 'journal');
  const geo = GeoIp.open(config.geoipDb);
  const clicks = new ClickRecorder(
    ClickJournal.create(journalRoot),
    clicksRepo,
    geo,
    config.plans,
    bus,
    clock,
    log,
    await clicksRepo.secret('visitor-hash-secret', newSecret),
  );
  const present = new LinkPresenter(config.baseUrl);
  const webhooksRepo = new WebhooksRepository(database.db, database.dialect);
  const sender = new WebhookSender(createDns(config.dnsResolver), config.webhookAllowPrivate);
  const dispatcher = new WebhookDispatcher(webhooksRepo, sender, clock, config.webhookRetryDelaysMs, log);
  const webhooks = new WebhookService(webhooksRepo, linksRepo, config.plans, clock, sender, dispatcher, (l) => present.shortUrl(l), config.webhookAllowPrivate, log);
  // Listening before recovery, so the clicks a crash left behind are announced too.
  await webhooks.listen(bus);
  const recovered = await clicks.recoverOrphans(journalRoot);
  const expiry = new ExpirySweeper(linksRepo, bus, clock, log);
  expiry.start();
  dispatcher.start();
  if (recovered > 0) log.info({ recovered }, 'recovered clicks from an interrupted run');
  return {
    config,
    database,
    bus,
    accounts: new AccountsService(new AccountsRepository(database.db), clock, config.plans),
    links: new LinksService(linksRepo, bus, clock, ownHostnames, clicks, usage, config.plans),
    redirects: new RedirectService(linksRepo, clicks, bus, clock, geo),
    clicks,
    usage,
    expiry,
    analytics: new AnalyticsService(new AnalyticsRepository(database.db), linksRepo, config.plans, clock, clicks),
    webhooks,
    present,
    async close() {
      expiry.stop();
      await clicks.close();
      await webhooks.close();
      await dispatcher.stop();
      await redis?.close();
      await database.db.destroy();
    },
  };
}
