import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { errors } from '../errors.js';
import type { EventBus } from '../events/bus.js';
import { toLink, type Link } from '../links/link.js';
import type { LinkKey } from '../links/link-key.js';
import type { LinksRepository } from '../links/repository.js';
import { parseShortPath } from '../links/rules.js';
import type { ScanRow, ScanTarget, TrustRepository } from './repository.js';
import { errorMessage, type Scanner } from './scanner.js';
import type { TrustStatus, Verdict } from './verdict.js';
import { breathe } from '../runtime/breathe.js';
import { RecurringFailure } from '../runtime/recurring-failure.js';

/** Spec 2.10's trust score of a link. */
export interface TrustScore {
  short: string;
  /** Null for a link with a click cap (`maxClicks`): a public answer must not give away a one-time link. */
  destination: string | null;
  trustScore: number | null;
  trustStatus: TrustStatus | null;
  threats: string[];
  scannedAt: string | null;
  source: string | null;
  createdAt: number;
}

const CONCURRENCY = 4;
/** Verdicts saved in one transaction at most: the write lock is held for a few milliseconds, not for a whole import's. */
const SAVE_AT_ONCE = 100;
/** How often a running server looks for links changed elsewhere, and how far back it looks. */
const SWEEP_MS = 5_000;
const RECENT_MS = 3_600_000;

/**
 * A verdict for an earlier destination says nothing about the current one: shown as not scanned yet. The score is
 * public and counts no click, so a capped link's destination is withheld (its owner sees it in the link details).
 */
export const scoreOf = (link: Link, found: ScanRow | undefined): TrustScore => {
  const scan = found?.url === link.url ? found : undefined;
  return {
  short: link.code,
  destination: link.maxClicks === null ? link.url : null,
  trustScore: scan?.score == null ? null : Number(scan.score),
  trustStatus: (scan?.status as TrustStatus | null | undefined) ?? null,
  threats: scan?.threats ? scan.threats.split(',') : [],
  scannedAt: scan?.scanned_at ?? null,
  source: scan?.source ?? null,
  createdAt: Date.parse(link.createdAt),
  };
};

/**
 * Scans every new or re-pointed link after it is saved, off the request path, a few at a time. The work owed
 * is whatever the database says is unscanned, so links a crash left unscanned are picked up at the next start.
 */
export class TrustService {
  private readonly queue: ScanTarget[] = [];
  private readonly queued = new Set<string>();
  private active = 0;
  private idle: (() => void)[] = [];
  private closed = false;
  private sweeper: NodeJS.Timeout | null = null;
  /** Verdicts waiting for their save, and the save under way. */
  private unsaved: { link: ScanTarget; verdict: Verdict }[] = [];
  private saving: Promise<void> | null = null;
  /**
   * `id url` of scans that threw and are left owed: the sweep retries them every SWEEP_MS, and the log says so
   * once per link and destination, not once per retry.
   */
  private readonly failing = new Set<string>();
  private readonly sweepFailures: RecurringFailure;

  constructor(
    private readonly repo: TrustRepository,
    private readonly links: LinksRepository,
    private readonly scanner: Scanner,
    private readonly bus: EventBus,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {
    this.sweepFailures = new RecurringFailure(log, 'looking for unscanned links');
  }

  listen(): void {
    this.bus.on('link.created', ({ link }) => this.enqueue(link));
    this.bus.on('link.updated', ({ link, previous }) => {
      if (link.url !== previous.url) this.enqueue(link);
    });
    this.bus.on('link.deleted', ({ link }) => void this.repo.delete(link.id).catch((err: unknown) => this.log.error({ err }, 'could not drop a trust score')));
  }

  /**
   * Scans what is owed now (everything a crash left), then every SWEEP_MS among links changed in the last hour:
   * links made by another process (the CLI's imports) or another instance that has not got to them.
   */
  async start(): Promise<void> {
    await this.sweep(null);
    const recent = () => new Date(this.clock.now().getTime() - RECENT_MS).toISOString();
    this.sweeper = setInterval(() => void this.sweepAgain(recent()), SWEEP_MS);
    this.sweeper.unref();
  }

  private async sweep(since: string | null): Promise<void> {
    for (const link of await this.repo.owed(1_000, since)) this.enqueue(link);
  }

  private async sweepAgain(since: string): Promise<void> {
    try {
      await this.sweep(since);
      this.sweepFailures.succeeded();
    } catch (err) {
      this.sweepFailures.failed(err);
    }
  }

  async score(shortCode: string): Promise<TrustScore> {
    return (await this.preview(parseShortPath(shortCode))).score;
  }

  /** The link and its trust score, for the `+` preview page. */
  async preview(key: LinkKey): Promise<{ link: Link; score: TrustScore }> {
    const row = await this.links.find(key);
    if (!row) throw errors.linkNotFound();
    const link = toLink(row);
    // Like its statistics, a scheduled link's destination is not public until it goes live.
    if (link.activeFrom !== null && Date.parse(link.activeFrom) > this.clock.now().getTime()) throw errors.linkNotFound();
    // A link the operator disabled shows its destination to nobody: no preview page, no public score.
    if (link.disabledAt !== null) throw errors.linkNotFound();
    return { link, score: scoreOf(link, await this.repo.find(row.id)) };
  }

  /** The threats of a destination scanned unsafe, for the redirect's warning page; null when it may redirect. */
  async unsafeThreats(linkId: string, url: string): Promise<string[] | null> {
    const scan = await this.repo.find(linkId);
    if (scan?.status !== 'unsafe' || scan.url !== url) return null;
    return scan.threats ? scan.threats.split(',') : [];
  }

  /** Resolves once every queued scan has finished (tests, shutdown). */
  settle(): Promise<void> {
    const done = new Promise<void>((resolve) => this.idle.push(resolve));
    this.checkIdle();
    return done;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    this.queue.length = 0;
    await this.settle();
  }

  private enqueue(link: ScanTarget): void {
    const key = `${link.id} ${link.url}`;
    if (this.closed || this.queued.has(key)) return;
    this.queued.add(key);
    this.queue.push({ id: link.id, url: link.url, code: link.code, namespace: link.namespace, slug: link.slug, legacyPath: link.legacyPath });
    this.pump();
  }

  private pump(): void {
    while (this.active < CONCURRENCY && this.queue.length > 0) {
      const next = this.queue.shift()!;
      this.active += 1;
      void this.scanOne(next).catch(() => false).then((waitsForSave) => {
        this.active -= 1;
        // A verdict waiting to be saved keeps its link queued: the sweep would otherwise scan it again meanwhile.
        if (!waitsForSave) this.queued.delete(`${next.id} ${next.url}`);
        this.pump();
        this.checkIdle();
      });
    }
  }

  private checkIdle(): void {
    if (this.active === 0 && this.queue.length === 0 && this.unsaved.length === 0 && !this.saving) {
      for (const resolve of this.idle.splice(0)) resolve();
    }
  }

  /** Scans one link; answers whether its verdict now waits in `unsaved`. */
  private async scanOne(link: ScanTarget): Promise<boolean> {
    const key = `${link.id} ${link.url}`;
    try {
      // A bulk create or an import queues thousands of scans whose local checks answer at once: without a breath
      // they would run back to back in one turn of the loop, ahead of every redirect.
      await breathe();
      const { verdict, failures } = await this.scanner.scan(link.url);
      this.failing.delete(key);
      if (failures.length > 0) {
        // Scored from the sources that answered (`partial`); the failed ones are only named in the log.
        const source = failures.map((f) => f.source).join(',');
        const error = failures.map((f) => f.error).join('; ');
        this.log.warn({ linkId: link.id, code: link.code, source, error, partial: true }, 'link scan failed');
      }
      this.unsaved.push({ link, verdict });
      if (!this.saving) this.saving = new Promise((resolve) => setImmediate(resolve)).then(() => this.saveScanned());
      return true;
    } catch (err) {
      // Left unscanned in the database: the sweep tries again, and only the first failure is worth a warning.
      const fields = { linkId: link.id, code: link.code, source: 'scanner', error: errorMessage(err), partial: false };
      if (this.failing.has(key)) {
        this.log.debug(fields, 'link scan failed again');
      } else {
        if (this.failing.size >= 10_000) this.failing.clear();
        this.failing.add(key);
        this.log.warn(fields, 'link scan failed');
      }
      return false;
    }
  }

  /**
   * The verdicts of one event-loop turn are saved together, up to SAVE_AT_ONCE a transaction with a breath between
   * transactions: a bulk creation's scans cost a few writes rather than two queries per link.
   */
  private async saveScanned(): Promise<void> {
    const results = this.unsaved.splice(0, SAVE_AT_ONCE);
    try {
      const saved = await this.repo.saveMany(
        results.map((r) => ({ linkId: r.link.id, url: r.link.url, verdict: r.verdict })),
        this.clock.now().toISOString(),
      );
      for (const { link, verdict } of results) {
        if (saved.has(link.id)) this.bus.emit('link.scanned', { link: { id: link.id, code: link.code, namespace: link.namespace, slug: link.slug, legacyPath: link.legacyPath }, status: verdict.status });
      }
    } catch (error) {
      this.log.error({ err: error, links: results.length }, 'could not save trust scores');
    } finally {
      for (const { link } of results) this.queued.delete(`${link.id} ${link.url}`);
      this.saving = null;
      if (this.unsaved.length > 0) this.saving = Promise.resolve(breathe()).then(() => this.saveScanned());
      this.checkIdle();
    }
  }
}
