import { hash, randomBytes } from 'node:crypto';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { isTier, type Plans } from '../accounts/plans.js';
import type { Clock } from '../clock.js';
import type { DomainEvents, EventBus } from '../events/bus.js';
import type { EventOutbox } from '../events/outbox.js';
import { cycleOf, decide, type Decision } from '../usage/tracked-clicks.js';
import type { GeoIp } from './geoip.js';
import { ClickJournal, type JournalPosition } from './journal.js';
import { KEPT_CLICKS_PER_LINK, type ClickBatch, type ClicksRepository, type RollupRow } from './repository.js';
import { referrerHost, software, type Software } from './user-agent.js';
import type { Visit } from './visit.js';
import { RecurringFailure } from '../runtime/recurring-failure.js';

/** What the redirect hands over for a counted visit. */
export interface CapturedVisit {
  linkId: string;
  accountId: string;
  ip: string;
  userAgent: string;
  referer: string | undefined;
  counted: boolean;
}

/** How long visits gather before one transaction commits them. */
export const CLICK_FLUSH_MS = 20;

let lastDay = { index: -1, text: '' };
/** `YYYY-MM-DD` in UTC; remembered, since a batch's visits nearly always share one day. */
function dayOf(ms: number): string {
  const index = Math.floor(ms / 86_400_000);
  if (index !== lastDay.index) lastDay = { index, text: new Date(ms).toISOString().slice(0, 10) };
  return lastDay.text;
}

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
  private salt: { day: string; value: string } = { day: '', value: '' };
  private sequence = 0;
  /** Today's visitor hashes of recent visitors (the hash runs on the redirect path). */
  private readonly visitors = new Map<string, string>();
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
  }

  /**
   * Resolves once the visit is in the journal; the redirect answers after that. Visits arriving in one turn of
   * the event loop share one journal write, made once the turn's I/O has been handled: a fraction of a write
   * per visit, and each answer waits less than one turn.
   */
  record(captured: CapturedVisit): Promise<void> {
    const atMs = this.clock.now().getTime();
    const place = this.geo.lookup(captured.ip);
    this.unjournaled.push({
      linkId: captured.linkId,
      accountId: captured.accountId,
      atMs,
      visitor: this.visitorHash(captured.ip, captured.userAgent, atMs),
      country: place?.country ?? null,
      region: place?.region ?? null,
      city: place?.city ?? null,
      userAgent: captured.userAgent,
      referrer: referrerHost(captured.referer),
      counted: captured.counted,
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
    this.bus.emit('link.click', clickEvent(v));
  }

  private async batch(visits: Visit[], checkpoint: ClickBatch['checkpoint']): Promise<ClickBatch> {
    const events = visits.filter((v) => this.outbox.wants('link.click', v.accountId)).map(clickEvent);
    const batch: ClickBatch = { clicks: [], visitors: [], rollups: [], linkClicks: new Map(), usage: [], checkpoint, events };
    const decisions = await this.decisions(visits, batch);
    // Visits that agree on every rolled-up dimension are counted as one group, so the rollups cost one
    // update per group, not seven per visit.
    const groups = new Map<string, { v: Visit; sw: Software; day: string; grace: string; n: number }>();
    const visitors = new Map<string, ClickBatch['visitors'][number]>();
    const graces: string[] = new Array(visits.length);
    for (let i = 0; i < visits.length; i++) {
      const v = visits[i]!;
      if (!v.counted) batch.linkClicks.set(v.linkId, (batch.linkClicks.get(v.linkId) ?? 0) + 1);
      const decision = decisions[i]!;
      if (decision === 'pause') continue;
      const grace = decision === 'grace' ? cycleOf(v.atMs) : '';
      graces[i] = grace;
      const day = dayOf(v.atMs);
      const sw = software(v.userAgent);
      const hour = new Date(v.atMs).getUTCHours();
      const key = `${v.linkId}|${day}|${grace}|${hour}|${v.country}|${sw.device}|${sw.browser}|${sw.os}|${v.referrer}`;
      const group = groups.get(key);
      if (group) group.n += 1;
      else groups.set(key, { v, sw, day, grace, n: 1 });
      const visitorKey = `${v.linkId}|${day}|${v.visitor}`;
      if (!visitors.has(visitorKey)) visitors.set(visitorKey, { link_id: v.linkId, account_id: v.accountId, day, visitor: v.visitor, grace_cycle: grace });
    }
    batch.visitors = [...visitors.values()];

    const rollups = new Map<string, RollupRow>();
    for (const { v, sw, day, grace, n } of groups.values()) {
      const add = (dimension: string, value: string) => {
        const key = `${v.linkId}|${day}|${dimension}|${value}|${grace}`;
        const row = rollups.get(key);
        if (row) row.clicks += n;
        else rollups.set(key, { link_id: v.linkId, account_id: v.accountId, day, dimension, value, grace_cycle: grace, clicks: n });
      };
      add('total', '');
      add('country', v.country ?? '');
      add('device', sw.device);
      add('browser', sw.browser);
      add('os', sw.os);
      add('referrer', v.referrer ?? '');
      add('hour', String(new Date(v.atMs).getUTCHours()));
    }
    batch.rollups = [...rollups.values()];

    // Only the newest click records of each link are kept (see KEPT_CLICKS_PER_LINK), so only those are built.
    const perLink = new Map<string, number>();
    const kept: number[] = [];
    for (let i = visits.length - 1; i >= 0; i--) {
      if (decisions[i] === 'pause') continue;
      const kind = `${graces[i] ? 'g' : 'v'}${visits[i]!.linkId}`; // visible and hidden records are kept apart
      const n = perLink.get(kind) ?? 0;
      if (n >= KEPT_CLICKS_PER_LINK) continue;
      perLink.set(kind, n + 1);
      kept.push(i);
    }
    for (const i of kept.reverse()) {
      const v = visits[i]!;
      const sw = software(v.userAgent);
      batch.clicks.push({
        // The journal id is unique per process run, so a counter after it is a unique id at no random cost.
        id: `clk_${this.journal.id}_${(this.sequence++).toString(36).padStart(8, '0')}`,
        link_id: v.linkId,
        account_id: v.accountId,
        at: new Date(v.atMs).toISOString(),
        country: v.country,
        region: v.region,
        city: v.city,
        browser: sw.browser,
        os: sw.os,
        device: sw.device,
        referrer: v.referrer,
        visitor: v.visitor,
        grace_cycle: graces[i] || null,
      });
    }
    return batch;
  }

  /** Judges each visit against its account's allowance, in order, and notes the usage to add. */
  private async decisions(visits: Visit[], batch: ClickBatch): Promise<Decision[]> {
    const cycles = new Map<string, Set<string>>();
    for (const v of visits) {
      const cycle = cycleOf(v.atMs);
      if (!cycles.has(cycle)) cycles.set(cycle, new Set());
      cycles.get(cycle)!.add(v.accountId);
    }
    type Running = { tracked: number; added: number; graceStartedAtMs: number | null; graceStartedNow: boolean; tier: string; cap: number | null };
    const running = new Map<string, Running>();
    for (const [cycle, accounts] of cycles) {
      for (const s of await this.repo.accountStates([...accounts], cycle)) {
        running.set(`${s.account_id}|${cycle}`, {
          tracked: s.tracked_clicks,
          added: 0,
          graceStartedAtMs: s.grace_started_at ? Date.parse(s.grace_started_at) : null,
          graceStartedNow: false,
          tier: s.tier,
          cap: s.overage_limit_cents,
        });
      }
    }
    const decisions = visits.map((v) => {
      const state = running.get(`${v.accountId}|${cycleOf(v.atMs)}`);
      if (!state) return 'pause' as const; // the account is gone
      const plan = this.plans[isTier(state.tier) ? state.tier : 'free'];
      const included = plan.trackedClicksPerMonth;
      const decision =
        included === null || state.tracked < included
          ? 'track'
          : decide({ plan, accountCapCents: state.cap, tracked: state.tracked, graceStartedAtMs: state.graceStartedAtMs }, v.atMs);
      if (decision === 'pause') return decision;
      state.tracked += 1;
      state.added += 1;
      if (decision === 'grace' && state.graceStartedAtMs === null) {
        state.graceStartedAtMs = v.atMs;
        state.graceStartedNow = true;
      }
      return decision;
    });
    for (const [key, s] of running) {
      if (s.added === 0 && !s.graceStartedNow) continue;
      const [accountId, cycle] = key.split('|') as [string, string];
      batch.usage.push({
        account_id: accountId,
        cycle,
        tracked: s.added,
        grace_started_at: s.graceStartedNow && s.graceStartedAtMs !== null ? new Date(s.graceStartedAtMs).toISOString() : null,
      });
    }
    return decisions;
  }

  /** sha256 over a salt that changes every UTC day, the IP and the user agent: counts visitors, stores no IP. */
  private visitorHash(ip: string, userAgent: string, atMs: number): string {
    const day = dayOf(atMs);
    if (this.salt.day !== day) {
      this.salt = { day, value: hash('sha256', `${this.secret}:${day}`) };
      this.visitors.clear();
    }
    const key = `${ip}|${userAgent}`;
    let visitor = this.visitors.get(key);
    if (visitor === undefined) {
      if (this.visitors.size >= 10_000) this.visitors.clear();
      visitor = hash('sha256', `${this.salt.value}|${key}`).slice(0, 32);
      this.visitors.set(key, visitor);
    }
    return visitor;
  }
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
