import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Plans } from '../plans.js';
import type { Clock } from '../clock.js';
import type { EventBus } from '../events/bus.js';
import type { EventOutbox } from '../events/outbox.js';
import type { GeoIp } from './geoip.js';
import { ClickJournal, lineOf, type JournalPosition } from './journal.js';
import { JournalWrite } from './journal-write.js';
import type { AccountClickState, ClickBatch, ClicksRepository } from './repository.js';
import type { CapturedVisit, Visit } from './visit.js';
import { RecurringFailure } from '../runtime/recurring-failure.js';
import { LRUCache } from 'lru-cache';
import { OpenBatch, type ClosedBatch, type KnownAllowance } from './open-batch.js';
import { VisitorHasher } from './visitor-hash.js';
import type { FoldedVisit } from './visit-profile.js';
import { VisitProfiles } from './visit-profiles.js';

/** How long visits gather before one transaction commits them. */
export const CLICK_FLUSH_MS = 100;

/**
 * Records clicks without slowing the redirect and without losing one: `record` writes the visit to the journal
 * (one synchronous append) before the redirect answers, and folds it into the open batch (src/clicks/open-batch.ts);
 * every CLICK_FLUSH_MS the batch is closed (its accounts' tracked-click allowances read and checked) and committed
 * in one transaction together with the journal checkpoint. After a crash, the next start replays the journal past
 * its checkpoint. The raw IP is used for the place and the visitor hash (src/clicks/visit-profiles.ts, which keeps it in
 * memory for at most the hour) and never reaches the journal or the database.
 */
export class ClickRecorder {
  /** Visits of this event-loop turn, waiting for their journal write. */
  private unjournaled: FoldedVisit[] = [];
  private journaled: JournalWrite | null = null;
  /** Journaled visits, folded into what their commit writes. */
  private open: OpenBatch;
  /** Batches closed to new visits and waiting for their commit, oldest first, each with its journal position. */
  private readonly queue: { open: OpenBatch; position: JournalPosition | null }[] = [];
  /** What the last commits read of accounts' allowances: the open batch folds their visits on it. */
  private readonly known = new LRUCache<string, KnownAllowance>({ max: 10_000, ttl: 10_000 });
  private lastPosition: JournalPosition | null = null;
  private scheduled = false;
  private flushing: Promise<void> = Promise.resolve();
  private sequence = 0;
  private readonly profiles: VisitProfiles;
  /** Whether the last commit failed (its visits wait for the next try). */
  private readonly commitFailures: RecurringFailure;

  constructor(
    private readonly journal: ClickJournal,
    private readonly repo: ClicksRepository,
    private readonly geo: GeoIp,
    private readonly plans: Plans,
    private readonly bus: EventBus,
    /** Which accounts want `link.click` (only theirs are written, in the batch's transaction). */
    private readonly outbox: Pick<EventOutbox, 'wants'>,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly secret: string,
  ) {
    this.commitFailures = new RecurringFailure(log, 'committing clicks');
    this.profiles = new VisitProfiles(new VisitorHasher(secret), geo);
    this.open = this.newBatch(true);
  }

  /** `known`: whether to fold visits on what earlier commits read (a recovered journal's visits are all judged). */
  private newBatch(known: boolean): OpenBatch {
    return new OpenBatch(known ? (key) => this.known.get(key) : () => undefined, (accountId) => this.outbox.wants('link.click', accountId), () => this.bus.listening('link.click'));
  }

  /** Visits taken but not yet committed to the database (the operator's status panel). */
  get backlog(): number {
    return this.unjournaled.length + this.open.size + this.queue.reduce((n, q) => n + q.open.size, 0);
  }

  /**
   * Resolves once the visit is in the journal; the redirect answers after that. Visits arriving in one turn of
   * the event loop share one journal write, made once the turn's I/O has been handled: a fraction of a write
   * per visit, and each answer waits less than one turn.
   */
  record(captured: CapturedVisit): JournalWrite {
    const atMs = this.clock.now().getTime();
    this.unjournaled.push({ profile: this.profiles.of(captured, atMs), atMs, counted: captured.counted });
    if (this.journaled === null) {
      this.journaled = new JournalWrite((error) => this.log.error({ err: error }, 'could not answer a redirect after its click was journaled'));
      setImmediate(this.writeJournal);
    }
    return this.journaled;
  }

  private readonly writeJournal = (): void => {
    const visits = this.unjournaled;
    const journaled = this.journaled!;
    this.unjournaled = [];
    this.journaled = null;
    try {
      let lines = '';
      for (const v of visits) lines += lineOf(v);
      this.lastPosition = this.journal.append(lines);
    } catch (error) {
      // The redirects still answer: a visitor is never refused over analytics. These clicks are committed
      // with the next batch as usual but would not survive a crash.
      this.log.error({ err: error, visits: visits.length }, 'could not write the click journal');
    }
    // The redirects answer first: folding their visits into the batch is not theirs to wait for. Whoever awaits the
    // write resumes in a microtask, after the fold.
    journaled.done();
    for (const v of visits) this.open.fold(v);
    if (!this.scheduled) {
      this.scheduled = true;
      setTimeout(() => {
        this.flushing = this.flushing.then(() => this.flush());
      }, CLICK_FLUSH_MS).unref();
    }
  };

  /** Resolves once every click recorded so far is committed (readers of counts and statistics wait for it). */
  async settle(): Promise<void> {
    if (this.journaled) await this.journaled;
    await this.flushing;
    if (this.open.size > 0 || this.queue.length > 0) {
      this.flushing = this.flushing.then(() => this.flush());
      await this.flushing;
    }
  }

  /** On a clean shutdown: commit everything, then the journal has nothing left to guard. */
  async close(): Promise<void> {
    await this.settle();
    this.journal.discard();
    await this.repo.dropCheckpoint(this.journal.id);
  }

  /**
   * Commits what crashed or killed processes left in their journals under `root` (at start, before serving), and
   * logs one line per journal that held clicks to recover. Answers how many clicks were recovered.
   */
  async recoverOrphans(root: string): Promise<number> {
    let recovered = 0;
    for (const orphan of ClickJournal.adoptOrphans(root)) {
      const { visits, end, segments } = ClickJournal.read(orphan.dir, await this.repo.checkpoint(orphan.id));
      await this.replay(visits, orphan.id, end);
      ClickJournal.remove(orphan.dir, orphan.id);
      await this.repo.dropCheckpoint(orphan.id);
      recovered += visits.length;
      // A journal whose clicks were all committed before its process died had nothing to recover: no line.
      if (visits.length > 0) {
        this.log.info({ journal: orphan.id, directory: path.join(root, orphan.id), segments, clicks: visits.length }, 'click journal recovered');
      }
    }
    return recovered;
  }

  /** Commits a batch of visits read back from an orphaned journal, with that journal's checkpoint. */
  private async replay(visits: Visit[], journalId: string, position: JournalPosition): Promise<void> {
    const open = this.newBatch(false);
    for (const v of visits) open.add(v);
    if (open.size > 0) await this.repo.commit((await this.closeBatch(open, { journalId, position })).batch);
    for (const event of open.heard) this.bus.emit('link.click', event);
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    if (this.open.size > 0) {
      this.queue.push({ open: this.open, position: this.lastPosition });
      this.open = this.newBatch(true);
    }
    // In order: a batch's checkpoint covers the visits of every batch before it.
    while (this.queue.length > 0) {
      const { open, position } = this.queue[0]!;
      let closed: ClosedBatch;
      try {
        closed = await this.closeBatch(open, position && { journalId: this.journal.id, position });
        await this.repo.commit(closed.batch);
      } catch (error) {
        // Still in the journal: the next start replays them. Kept queued meanwhile, and closed again against fresh
        // rows when retried; the retries come every second, so only the first failure of a run of them is an error.
        this.commitFailures.failed(error, { visits: this.backlog });
        if (!this.scheduled) {
          this.scheduled = true;
          setTimeout(() => {
            this.flushing = this.flushing.then(() => this.flush());
          }, 1_000).unref();
        }
        return;
      }
      this.queue.shift();
      this.commitFailures.succeeded({ visits: open.size });
      for (const [key, allowance] of closed.allowances) this.known.set(key, allowance);
      // Committed: from here on nothing may put these visits back in the queue.
      if (position) {
        try {
          this.journal.compact(position);
        } catch (error) {
          this.log.error({ err: error }, 'could not tidy the click journal');
        }
      }
      // For in-process listeners, after the commit; webhooks get theirs from the outbox, written in the commit.
      for (const event of open.heard) this.bus.emit('link.click', event);
    }
  }

  /** Reads the batch's accounts as they are now and closes the batch against them. */
  private async closeBatch(open: OpenBatch, checkpoint: ClickBatch['checkpoint']): Promise<ClosedBatch> {
    const states = new Map<string, AccountClickState[]>();
    for (const [cycle, accounts] of open.accountsByCycle()) states.set(cycle, await this.repo.accountStates(accounts, cycle));
    // The journal id is unique per process run, so a counter after it is a unique id at no random cost.
    const closed = await open.close(states, this.plans, () => `clk_${this.journal.id}_${(this.sequence++).toString(36).padStart(8, '0')}`);
    closed.batch.checkpoint = checkpoint;
    return closed;
  }
}

export const newSecret = (): string => randomBytes(32).toString('hex');
