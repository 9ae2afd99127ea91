import type { FastifyBaseLogger } from 'fastify';
import { AccountsRepository } from './accounts/repository.js';
import { AccountsService } from './accounts/service.js';
import path from 'node:path';
import { GeoIp } from './clicks/geoip.js';
import { ClickJournal } from './clicks/journal.js';
import { ClickRecorder, newSecret } from './clicks/recorder.js';
import { LinkPasses } from './redirects/link-passes.js';
import { ClicksRepository } from './clicks/repository.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { EventBus } from './events/bus.js';
import { LinkPresenter } from './links/presenters.js';
import { LinksRepository } from './links/repository.js';
import { LinksService } from './links/service.js';
import { LinkWriter } from './links/link-writer.js';
import { ImportService } from './imports/service.js';
import { ExpirySweeper } from './links/expiry-sweeper.js';
import { FoldersRepository } from './folders/repository.js';
import { FoldersService } from './folders/service.js';
import { RedirectService } from './redirects/service.js';
import { AnalyticsRepository } from './analytics/repository.js';
import { AnalyticsService } from './analytics/service.js';
import { AttemptLimits } from './sessions/attempt-limits.js';
import { SessionsRepository } from './sessions/repository.js';
import { SessionsService } from './sessions/service.js';
import { MemoryCounterStore, type CounterStore } from './usage/counters.js';
import type { RedisCounterStore } from './usage/redis-counter-store.js';
import { DatabaseCounterStore } from './usage/repository.js';
import { UsageService } from './usage/service.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import { WebhookOutbox } from './webhooks/outbox.js';
import { OutboxRelay } from './webhooks/relay.js';
import { WebhooksRepository } from './webhooks/repository.js';
import { WebhookSender } from './webhooks/sender.js';
import { createDns } from './net/dns.js';
import { LocalThreatList } from './trust/local-list.js';
import { TrustRepository } from './trust/repository.js';
import { SafeBrowsingClient } from './trust/safe-browsing.js';
import { Scanner } from './trust/scanner.js';
import { TrustService } from './trust/service.js';
import { DomainsRepository } from './domains/repository.js';
import { DomainsService } from './domains/service.js';
import { WebhookService } from './webhooks/service.js';
import { QrSettingsRepository } from './qr/repository.js';
import { QrService } from './qr/service.js';
import { TagsRepository } from './tags/repository.js';
import { TagsService } from './tags/service.js';
import { UtmTemplatesRepository } from './utm/repository.js';
import { UtmTemplatesService } from './utm/service.js';
import { SavedViewsRepository } from './views/repository.js';
import { SavedViewsService } from './views/service.js';
import { ExportsRepository } from './exports/repository.js';
import { ExportsService } from './exports/service.js';
import { Lifecycle } from './runtime/lifecycle.js';
import { RecurringFailure } from './runtime/recurring-failure.js';
import { normalHostname } from './net/hostname.js';
import { AddressLimits } from './access/address-limits.js';
import { ClickIds } from './affiliate/click-ids.js';
import { AffiliateRepository } from './affiliate/repository.js';
import { AffiliateService } from './affiliate/service.js';
import { AgentLinksRepository } from './agentlinks/repository.js';
import { AgentLinksService } from './agentlinks/service.js';
import { Web2appRepository } from './web2app/repository.js';
import { Web2appService } from './web2app/service.js';
import type Provider from 'oidc-provider';
import { OAuthRepository } from './oauth/repository.js';
import { OAuthService } from './oauth/service.js';
import { registrationBudget } from './oauth/registration-limits.js';
import type { CacheSync } from './runtime/cache-sync.js';
import { announceInvalidations } from './redirects/invalidations.js';
import { sql } from 'kysely';
import { AdminRepository } from './admin/repository.js';
import { AdminService, type ProcessState } from './admin/service.js';
import { SignUps } from './admin/sign-ups.js';
import { packageVersion } from './runtime/package-root.js';

export interface Readiness {
  ready: boolean;
  database: boolean;
  /** null without REDIS_URL. */
  redis: boolean | null;
}

export interface CoreOptions {
  clock?: Clock;
  /** PostgreSQL schema to work in; tests use one per run. */
  pgSchema?: string;
  /** False for one-shot processes (the CLI): no scans, sweeps or webhook deliveries in this process. */
  background?: boolean;
  /**
   * False where nothing is served over HTTP (the CLI): no OAuth authorization server, whose library alone took a third
   * of every CLI command's start; `oauth` and `oauthProvider` then refuse to be used.
   */
  authorizationServer?: boolean;
  /** Told when an operation answers an error code it does not declare (the tests fail on it); unset, it is logged. */
  onUndeclaredCode?: (where: string, code: string) => void;
}

/** The services every surface shares, wired once: the HTTP app, the CLI and (later) MCP adapt these. */
export interface Core {
  config: Config;
  database: DatabaseHandle;
  bus: EventBus;
  accounts: AccountsService;
  /** The dashboard's sign-up, sign-in and sessions. */
  sessions: SessionsService;
  /** The operator's Admin area: accounts, sign-ups, abuse, status, audit log. */
  admin: AdminService;
  links: LinksService;
  redirects: RedirectService;
  clicks: ClickRecorder;
  usage: UsageService;
  analytics: AnalyticsService;
  webhooks: WebhookService;
  /** Writes webhook events in their change's transaction (outbox_events). */
  outbox: WebhookOutbox;
  /** Turns committed events into deliveries. */
  relay: OutboxRelay;
  qr: QrService;
  folders: FoldersService;
  trust: TrustService;
  domains: DomainsService;
  /** BASE_URL's host, normalised: the host short links are on unless a custom domain is asked for. */
  ownHostnames: ReadonlySet<string>;
  /** The per-address budget of what needs no key (src/access/address-limits.ts). */
  addressLimits: AddressLimits;
  tags: TagsService;
  utmTemplates: UtmTemplatesService;
  savedViews: SavedViewsService;
  exports: ExportsService;
  expiry: ExpirySweeper;
  present: LinkPresenter;
  affiliate: AffiliateService;
  agentLinks: AgentLinksService;
  web2app: Web2appService;
  /** Imports from other shorteners (Shlink, Kutt, YOURLS, Bitly, Dub). */
  imports: ImportService;
  /** Whether the database and, when REDIS_URL is set, Redis answer (GET /readyz). */
  readiness(): Promise<Readiness>;
  /** OAuth 2.1 for the MCP endpoint: tokens, connected applications, consent. */
  oauth: OAuthService;
  /** The authorization server itself (src/oauth/provider.ts), mounted under /oauth. */
  oauthProvider: Provider;
  close(): Promise<void>;
}

export async function createCore(config: Config, log: FastifyBaseLogger, options: CoreOptions = {}): Promise<Core> {
  const clock = options.clock ?? systemClock;
  const database = await openDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    pgSchema: options.pgSchema,
    startTimeoutMs: config.databaseStartTimeoutMs,
    onWaiting: (message) => log.warn(message),
  });
  const bus = new EventBus();
  const present = new LinkPresenter(config.baseUrl);
  const webhooksRepo = new WebhooksRepository(database.db, database.dialect);
  const outbox = new WebhookOutbox(webhooksRepo, clock, (l) => present.shortUrl(l), log);
  // Subscribers known before recovery, so the clicks a crash left behind are announced too.
  await outbox.start();
  const linksRepo = new LinksRepository(database.db, outbox);
  const ownHostnames = new Set([normalHostname(new URL(config.baseUrl).hostname)]);
  const now = () => clock.now().getTime();
  const memoryCounters = new MemoryCounterStore(now);
  // Redis's client is loaded only where REDIS_URL asks for it.
  const redis: RedisCounterStore | null = config.redisUrl ? new (await import('./usage/redis-counter-store.js')).RedisCounterStore(config.redisUrl, memoryCounters, log) : null;
  await redis?.firstContact();
  const fastCounters: CounterStore = redis ?? memoryCounters;
  const durableCounters = new DatabaseCounterStore(database.db, now);
  await durableCounters.sweep();
  const usage = new UsageService(config.plans, fastCounters, durableCounters, clock, log);
  const clicksRepo = new ClicksRepository(database.db, database.dialect, outbox);
  const affiliateRepo = new AffiliateRepository(database.db);
  // The clicks a CPC program pays for are recorded with the click batches, in their transaction (replays included).
  clicksRepo.alsoWrite((trx, batch) => affiliateRepo.recordPaidClicks(trx, batch.addresses));
  const journalRoot = path.join(config.dataDir, 'journal');
  const geo = GeoIp.open(config.geoipDb, options.background !== false);
  const clicks = new ClickRecorder(
    ClickJournal.create(journalRoot),
    clicksRepo,
    geo,
    config.plans,
    bus,
    outbox,
    clock,
    log,
    await clicksRepo.secret('visitor-hash-secret', newSecret),
  );
  const dns = createDns(config.dnsResolver);
  const domains = new DomainsService(new DomainsRepository(database.db, database.dialect), config.plans, dns, clock, bus, new Set([...ownHostnames, config.cnameTarget]), config.cnameTarget);
  const sender = new WebhookSender(dns, config.webhookAllowPrivate);
  const dispatcher = new WebhookDispatcher(webhooksRepo, sender, clock, config.webhookRetryDelaysMs, log);
  const relay = new OutboxRelay(webhooksRepo, clock, dispatcher, log);
  outbox.whenCommitted(() => relay.nudge());
  // A webhook changed here: this instance reloads who wants the redirect's events, and tells the others to.
  const subscribers = { refresh: async () => (await outbox.refresh(), bus.emit('webhooks.changed', {})) };
  const webhooks = new WebhookService(webhooksRepo, config.plans, clock, sender, subscribers, config.webhookAllowPrivate);
  const safeBrowsing = config.safeBrowsingApiKey ? new SafeBrowsingClient(config.safeBrowsingApiKey, config.safeBrowsingUrl ?? undefined) : null;
  const scanner = new Scanner(new LocalThreatList(config.threatListFile), safeBrowsing);
  const trust = new TrustService(new TrustRepository(database.db, database.dialect), linksRepo, scanner, bus, clock, log);
  await clicks.recoverOrphans(journalRoot);
  const expiry = new ExpirySweeper(linksRepo, bus, clock, log);
  const addressLimits = new AddressLimits(fastCounters, clock, config.publicRequestsPerMinute, log);
  const web2app = new Web2appService(new Web2appRepository(database.db), clock, addressLimits);
  const accounts = new AccountsService(new AccountsRepository(database.db), clock, config.plans, bus);
  const authorization = options.authorizationServer === false ? null : await startAuthorization(config, database, accounts, clicksRepo, fastCounters, clock, log);
  // The background work belongs to the server: a short-lived CLI process leaves it to the server, which picks
  // up what the CLI did (outbox rows, links owed a scan) from the database.
  let checkpoints: { stop(): Promise<void> } | undefined;
  const background = new Lifecycle([
    { name: 'WAL checkpoints', start: () => void (checkpoints = database.checkpointsOffTheLoop?.(log)), stop: async () => checkpoints?.stop() },
    { name: 'trust scans', start: async () => (trust.listen(), await trust.start()), stop: () => trust.close() },
    { name: 'expiry sweeps', start: () => expiry.start(), stop: () => expiry.stop() },
    { name: 'outbox relay', start: () => relay.start(), stop: () => relay.stop() },
    { name: 'webhook deliveries', start: () => dispatcher.start(), stop: () => dispatcher.stop() },
    { name: 'web2app session sweeps', start: () => web2app.start(new RecurringFailure(log, 'the web2app session sweep')), stop: () => web2app.stop() },
    ...(authorization === null
      ? []
      : [{ name: 'OAuth record sweeps', start: () => authorization.oauth.start(new RecurringFailure(log, 'the OAuth record sweep')), stop: () => authorization.oauth.stop() }]),
  ]);
  if (options.background !== false) await background.start();
  const tags = new TagsService(new TagsRepository(database.db, database.dialect), linksRepo, clock);
  const utmTemplates = new UtmTemplatesService(new UtmTemplatesRepository(database.db), clock);
  const savedViews = new SavedViewsService(new SavedViewsRepository(database.db), linksRepo, clock);
  const analytics = new AnalyticsService(new AnalyticsRepository(database.db), linksRepo, config.plans, clock, clicks);
  const attemptLimits = new AttemptLimits(fastCounters, clock, config.authAttemptsPerAddress, log);
  const links = new LinksService(linksRepo, bus, clock, ownHostnames, clicks, usage, config.plans, domains, { tags, views: savedViews, utmTemplates });
  const clickIds = new ClickIds(await clicksRepo.secret('affiliate-click-secret', newSecret));
  const affiliate = new AffiliateService(
    affiliateRepo,
    { createPartnerLink: (caller, url, id) => links.createPartnerLink(caller, url, id), shortUrl: (link) => present.shortUrl(link) },
    clickIds,
    ownHostnames,
    clicks,
    bus,
    clock,
  );
  const targets = {
    needsClickId: (partnershipId: string) => affiliate.needsClickId(partnershipId),
    issueClickId: (partnershipId: string) => affiliate.issueClickId(partnershipId),
    openAppSession: web2app.open.bind(web2app),
  };
  const redirects = new RedirectService(linksRepo, clicks, bus, clock, geo, trust, targets, log, new LinkPasses(await clicksRepo.secret('link-pass-secret', newSecret)));
  // With Redis, every instance drops what it cached of a change made on any other (src/runtime/cache-sync.ts).
  const cacheSync: CacheSync | null = config.redisUrl
    ? new (await import('./runtime/cache-sync.js')).CacheSync(
        config.redisUrl,
        { forgetLinks: (keys) => redirects.forget(keys), forgetDomain: (host) => domains.dropCached(host), reloadSubscribers: () => outbox.refresh() },
        log,
      )
    : null;
  if (cacheSync) {
    announceInvalidations(bus, (invalidation) => cacheSync.publish(invalidation));
    await cacheSync.start();
  }
  const adminRepo = new AdminRepository(database.db);
  const signUps = new SignUps(adminRepo, clock, { mode: config.signupMode, tier: 'free' }, config.baseUrl);
  const processState: ProcessState = {
    version: packageVersion,
    database: database.dialect,
    redis: async () => (config.redisUrl ? (await redis?.ping()) === true && cacheSync?.connected === true : null),
    journalLag: () => clicks.backlog,
  };
  const admin = new AdminService(adminRepo, accounts, linksRepo, present, signUps, processState, clock, bus);
  const imports = new ImportService({
    links,
    repo: linksRepo,
    writer: new LinkWriter(linksRepo),
    domains,
    tags,
    clicks: clicksRepo,
    usage,
    bus,
    clock,
    present,
    ownHostnames,
    allowPrivate: config.importAllowPrivate,
  });
  return {
    config,
    database,
    bus,
    accounts,
    imports,
    sessions: new SessionsService(new SessionsRepository(database.db), accounts, attemptLimits, clock, signUps),
    admin,
    links,
    redirects,
    affiliate,
    agentLinks: new AgentLinksService(new AgentLinksRepository(database.db), links, clicks),
    web2app,
    get oauth() {
      return servedOnly(authorization).oauth;
    },
    get oauthProvider() {
      return servedOnly(authorization).oauthProvider;
    },
    clicks,
    usage,
    expiry,
    analytics,
    exports: new ExportsService(new ExportsRepository(database.db), analytics, present, clicks, clock),
    folders: new FoldersService(new FoldersRepository(database.db, database.dialect), linksRepo, config.plans, clock),
    webhooks,
    outbox,
    relay,
    trust,
    domains,
    ownHostnames,
    addressLimits,
    tags,
    utmTemplates,
    savedViews,
    qr: new QrService(new QrSettingsRepository(database.db), linksRepo, present, clock),
    present,
    async readiness() {
      const databaseUp = await sql`select 1`.execute(database.db).then(
        () => true,
        () => false,
      );
      if (!config.redisUrl) return { ready: databaseUp, database: databaseUp, redis: null };
      const shared = (await redis?.ping()) === true && cacheSync?.connected === true;
      return { ready: databaseUp && shared, database: databaseUp, redis: shared };
    },
    async close() {
      // Events committed but not yet relayed stay in outbox_events for the next start or another instance.
      await background.stop();
      await clicks.close();
      outbox.stop();
      await redis?.close();
      await cacheSync?.close();
      await database.db.destroy();
    },
  };
}

/** The OAuth authorization server and its service, over the accounts (src/oauth/provider.ts loads its library). */
async function startAuthorization(
  config: Config,
  database: DatabaseHandle,
  accounts: AccountsService,
  secrets: Pick<ClicksRepository, 'secret'>,
  counters: CounterStore,
  clock: Clock,
  log: FastifyBaseLogger,
): Promise<{ oauth: OAuthService; oauthProvider: Provider }> {
  const { createOAuthProvider, newOAuthSecrets } = await import('./oauth/provider.js');
  const oauthRepo = new OAuthRepository(database.db);
  const fresh = newOAuthSecrets();
  const oauthProvider = createOAuthProvider({
    baseUrl: config.baseUrl,
    repo: oauthRepo,
    clock,
    secrets: { signingKey: await secrets.secret('oauth-signing-key', fresh.signingKey), cookieKey: await secrets.secret('oauth-cookie-key', fresh.cookieKey) },
    accountExists: async (id) => (await accounts.accountById(id))?.disabledAt === null,
  });
  const oauth = new OAuthService(oauthProvider, oauthRepo, accounts, clock, `${config.baseUrl}/mcp`, {
    counters,
    budget: registrationBudget(config.publicRequestsPerMinute !== null),
    log,
  });
  // The authorization server answers its own failures with a bare server_error; the operator gets the cause here.
  oauthProvider.on('server_error', (ctx: { path?: string }, err: unknown) => log.error({ err, path: ctx?.path }, 'OAuth request failed'));
  return { oauth, oauthProvider };
}

function servedOnly<T>(part: T | null): T {
  if (part === null) throw new Error('this process serves no HTTP (createCore with authorizationServer: false): it has no OAuth authorization server');
  return part;
}
