import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Plans } from '../plans.js';
import type { Clock } from '../clock.js';
import type { DomainEvents, EventBus } from '../events/bus.js';
import type { EventOutbox } from '../events/outbox.js';
import type { GeoIp } from './geoip.js';
import { ClickJournal, type JournalPosition } from './journal.js';
import type { AccountClickState, ClickBatch, ClicksRepository } from './repository.js';
import { referrerHost, software } from './user-agent.js';
import type { Visit } from './visit.js';
import { RecurringFailure } from '../runtime/recurring-failure.js';
import { accountsByCycle, judgeAllowance } from './allowance.js';
import { buildClickBatch } from './click-batch.js';
import { VisitorHasher } from './visitor-hash.js';
import { dayOf } from './day.js';

/** What the redirect hands over for a counted visit. */
export interface CapturedVisit {
  linkId: string;
  accountId: string;
  ip: string;
  userAgent: string;
  referer: string | undefined;
  counted: boolean;
  /** The AI agent that followed the link; null (or absent) for a person. */
  agent?: string | null;
  /** Where the link's rules or A/B split sent the visitor; absent for a link without routing. */
  destination?: string;
}

/** How long visits gather before one transaction commits them. */
export const CLICK_FLUSH_MS = 100;

/**
 * Records clicks without slowing the redirect and without losing one: `record` writes the visit to the journal
 * (one synchronous append) before the redirect answers; every CLICK_FLUSH_MS the gathered visits are enriched
 * (browser, OS, device), judged against the account's tracked-click allowance, and committed in one
 * transaction together with the journal checkpoint. After a crash, the next start replays the journal past
 * its checkpoint. The raw IP is used for the place and the visitor hash here and never leaves this function.
 */
export class ClickRecorder {
  /** Visits of this event-loop turn, waiting for their journal write. */
  private unjournaled: Visit[] = [];
  private journaled: { promise: Promise<void>; resolve: () => void } | null = null;
  /** Journaled visits waiting for their database commit. */
  private pending: Visit[] = [];
  private lastPosition: JournalPosition | null = null;
  private scheduled = false;
  private flushing: Promise<void> = Promise.resolve();
  private sequence = 0;
  private readonly visitors: VisitorHasher;
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
    this.visitors = new VisitorHasher(secret);
  }

  /** Visits taken but not yet committed to the database (the operator's status panel). */
  get backlog(): number {
    return this.unjournaled.length + this.pending.length;
  }

  /**
   * Resolves once the visit is in the journal; the redirect answers after that. Visits arriving in one turn of
   * the event loop share one journal write, made once the turn's I/O has been handled: a fraction of a write
   * per visit, and each answer waits less than one turn.
   */
  record(captured: CapturedVisit): Promise<void> {
    const atMs = this.clock.now().getTime();
    const agent = captured.agent ?? null;
    // An agent's visit is only counted, by agent and day: no place, no visitor, no record of it.
    const place = agent === null ? this.geo.lookup(captured.ip) : null;
    this.unjournaled.push({
      linkId: captured.linkId,
      accountId: captured.accountId,
      atMs,
      visitor: agent === null ? this.visitors.of(captured.ip, captured.userAgent, atMs) : '',
      address: agent === null ? this.visitors.address(captured.ip, atMs) : '',
      destination: captured.destination ?? null,
      country: place?.country ?? null,
      region: place?.region ?? null,
      city: place?.city ?? null,
      userAgent: captured.userAgent,
      referrer: agent === null ? this.visitors.referrer(captured.ip, referrerHost(captured.referer), atMs) : null,
      counted: captured.counted,
      agent,
    });
    if (this.journaled === null) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.journaled = { promise, resolve };
      setImmediate(this.writeJournal);
    }
    return this.journaled.promise;
  }

  private readonly writeJournal = (): void => {
    const visits = this.unjournaled;
    const { resolve } = this.journaled!;
    this.unjournaled = [];
    this.journaled = null;
    try {
      this.lastPosition = this.journal.append(visits);
    } catch (error) {
      // The redirects still answer: a visitor is never refused over analytics. These clicks are committed
      // with the next batch as usual but would not survive a crash.
      this.log.error({ err: error, visits: visits.length }, 'could not write the click journal');
    }
    for (const v of visits) this.pending.push(v);
    resolve();
    if (!this.scheduled) {
      this.scheduled = true;
      setTimeout(() => {
        this.flushing = this.flushing.then(() => this.flush());
      }, CLICK_FLUSH_MS).unref();
    }
  };

  /** Resolves once every click recorded so far is committed (readers of counts and statistics wait for it). */
  async settle(): Promise<void> {
    if (this.journaled) await this.journaled.promise;
    await this.flushing;
    if (this.pending.length > 0) {
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
    if (visits.length > 0) await this.repo.commit(await this.batch(visits, { journalId, position }));
    if (this.bus.listening('link.click')) for (const v of visits) this.emitClick(v);
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const visits = this.pending;
    const position = this.lastPosition;
    this.pending = [];
    if (visits.length === 0 || !position) return;
    try {
      await this.repo.commit(await this.batch(visits, { journalId: this.journal.id, position }));
    } catch (error) {
      // Still in the journal: the next start replays them. Keep them queued to try again meanwhile; the retries
      // come every second, so only the first failure of a run of them is an error.
      this.commitFailures.failed(error, { visits: visits.length });
      this.pending = [...visits, ...this.pending];
      if (!this.scheduled) {
        this.scheduled = true;
        setTimeout(() => {
          this.flushing = this.flushing.then(() => this.flush());
        }, 1_000).unref();
      }
      return;
    }
    this.commitFailures.succeeded({ visits: visits.length });
    // Committed: from here on nothing may put these visits back in the queue.
    try {
      this.journal.compact(position);
    } catch (error) {
      this.log.error({ err: error }, 'could not tidy the click journal');
    }
    if (this.bus.listening('link.click')) for (const v of visits) this.emitClick(v);
  }

  /** For in-process listeners, after the commit; webhooks get theirs from the outbox, written in the commit. */
  private emitClick(v: Visit): void {
    if (v.agent === null) this.bus.emit('link.click', clickEvent(v));
  }

  private async batch(all: Visit[], checkpoint: ClickBatch['checkpoint']): Promise<ClickBatch> {
    const visits = all.filter((v) => v.agent === null);
    const agentClicks = countAgentClicks(all);
    const events = visits.filter((v) => this.outbox.wants('link.click', v.accountId)).map(clickEvent);
    const states = new Map<string, AccountClickState[]>();
    for (const [cycle, accounts] of accountsByCycle(visits)) states.set(cycle, await this.repo.accountStates([...accounts], cycle));
    const { decisions, usage } = judgeAllowance(visits, states, this.plans);
    const batch: ClickBatch = { clicks: [], visitors: [], rollups: [], linkClicks: new Map(), usage, checkpoint, events, agentClicks, addresses: [] };
    // The journal id is unique per process run, so a counter after it is a unique id at no random cost.
    return await buildClickBatch(visits, decisions, batch, () => `clk_${this.journal.id}_${(this.sequence++).toString(36).padStart(8, '0')}`);
  }


}

/** Agents' visits summed per link, day and agent: all that is kept of them. */
function countAgentClicks(visits: readonly Visit[]): ClickBatch['agentClicks'] {
  const rows = new Map<string, ClickBatch['agentClicks'][number]>();
  for (const v of visits) {
    if (v.agent === null) continue;
    const day = dayOf(v.atMs);
    const key = `${v.linkId}|${day}|${v.agent}`;
    const row = rows.get(key);
    if (row) row.clicks += 1;
    else rows.set(key, { link_id: v.linkId, account_id: v.accountId, day, agent: v.agent, clicks: 1 });
  }
  return [...rows.values()];
}

const clickEvent = (v: Visit): DomainEvents['link.click'] => ({
  linkId: v.linkId,
  accountId: v.accountId,
  at: new Date(v.atMs).toISOString(),
  country: v.country,
  device: software(v.userAgent).device,
  referrer: v.referrer,
  userAgent: v.userAgent,
});

export const newSecret = (): string => randomBytes(32).toString('hex');
