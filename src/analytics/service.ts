import type { Caller } from '../caller.js';
import { limitsOf, type Plans } from '../plans.js';
import type { ClickRow } from '../clicks/repository.js';
import type { Clock } from '../clock.js';
import { errors } from '../errors.js';
import { fullPathOf, toLink, type Link } from '../links/link.js';
import type { LinkKey } from '../links/link-key.js';
import type { LinksRepository } from '../links/repository.js';
import { parseShortPath } from '../links/rules.js';
import { cycleBounds, cycleOf, effectiveCapCents, GRACE_DAYS, overageChargeCents } from '../usage/tracked-clicks.js';
import type { AnalyticsRepository, DimensionSum, Scope, Visibility } from './repository.js';

export const PERIODS = ['7d', '30d', '90d', '365d'] as const;
export type Period = (typeof PERIODS)[number];
const DAY_MS = 86_400_000;
const LAST_CLICKS = 100;

export interface ClickView {
  timestamp: string;
  city: string | null;
  region: string | null;
  country: string | null;
  browser: string;
  os: string;
  device: 'desktop' | 'mobile' | 'tablet';
  referrer: string | null;
}

export interface Breakdowns {
  totalClicks: number;
  clicksByDay: { date: string; clicks: number }[];
  deviceBreakdown: { mobile: number; desktop: number; tablet: number };
  countryBreakdown: Record<string, number>;
  referrerBreakdown: Record<string, number>;
  browserBreakdown: Record<string, number>;
  osBreakdown: Record<string, number>;
  hourBreakdown: Record<string, number>;
  uniqueVisitors: number;
}

export interface Usage {
  cycle: { start: string; end: string };
  trackedClicks: number;
  includedClicks: number | null;
  overageClicks: number;
  overageChargeCents: number;
  overageLimitCents: number | null;
  capReached: boolean;
  grace: { active: boolean; startedAt: string | null; endsAt: string | null };
  recordingPaused: boolean;
}

/** A link as the public statistics show it: `url` null where the destination is withheld. */
export type PublicLink = Omit<Link, 'url'> & { url: string | null };

const toView = (row: ClickRow): ClickView => ({
  timestamp: row.at,
  city: row.city,
  region: row.region,
  country: row.country,
  browser: row.browser,
  os: row.os,
  device: row.device as ClickView['device'],
  referrer: row.referrer,
});

/** Statistics from the click records and their daily rollups, within each plan's history and visibility rules. */
export class AnalyticsService {
  constructor(
    private readonly repo: AnalyticsRepository,
    private readonly links: LinksRepository,
    private readonly plans: Plans,
    private readonly clock: Clock,
    /** Clicks still on their way to the database; statistics wait for them. */
    private readonly pendingClicks: { settle(): Promise<void> },
  ) {}

  /** A link the caller owns (404 unknown, 403 someone else's). */
  async ownedLink(caller: Caller, key: LinkKey | string): Promise<Link> {
    const link = await this.findLink(typeof key === 'string' ? parseShortPath(key) : key);
    if (link.accountId !== caller.accountId) throw errors.accessDenied();
    return link;
  }

  /**
   * A link as anyone may see its basic statistics: a link that is not active yet is not public (its redirect
   * answers 404), so only its owner sees it. A capped link's destination (`url`) is null for anyone but its owner:
   * reading statistics counts no click, so it must not give away a one-time link, used up or not.
   */
  async publicLink(key: LinkKey, callerAccountId: string | null): Promise<PublicLink> {
    const link = await this.findLink(key);
    const owner = link.accountId === callerAccountId;
    const scheduled = link.activeFrom !== null && Date.parse(link.activeFrom) > this.clock.now().getTime();
    // A scheduled link is not public until it goes live; a link the operator disabled shows nobody else anything.
    if ((scheduled || link.disabledAt !== null) && !owner) throw errors.linkNotFound();
    return link.maxClicks !== null && !owner ? { ...link, url: null } : link;
  }

  async findLink(key: LinkKey): Promise<Link> {
    const row = await this.links.find(key);
    if (!row) throw errors.linkNotFound();
    return toLink(row);
  }

  /** The last 100 clicks with their details, the total, and the clicks per destination reached. */
  async recentClicks(link: Pick<Link, 'id' | 'accountId'> & { url: string | null }): Promise<{ totalClicks: number; clicks: ClickView[]; byDestination: DestinationClicks[] }> {
    await this.pendingClicks.settle();
    const visibility = await this.visibility(link.accountId);
    const [rows, sums] = await Promise.all([
      this.repo.lastClicks(link.id, LAST_CLICKS, visibility),
      this.repo.sums({ linkId: link.id }, null, visibility),
    ]);
    return { totalClicks: total(sums), clicks: rows.map(toView), byDestination: byDestination(sums, link.url) };
  }

  /** One of the caller's links' statistics (REST A's and MCP's get_recent_clicks): total, last clicks, destinations. */
  async linkStats(caller: Caller, shortPath: string) {
    const link = await this.ownedLink(caller, shortPath);
    return { shortCode: link.code, fullPath: fullPathOf(link), ...(await this.recentClicks(link)) };
  }

  /** Aggregates over a period; 403 when the period reaches back further than the caller's plan keeps. */
  async aggregate(caller: Caller, scope: Scope, period: Period): Promise<Breakdowns & { tierLimit: number }> {
    const days = Number(period.slice(0, -1));
    const tierLimit = limitsOf(this.plans, caller).historyDays;
    if (days > tierLimit) {
      throw errors.periodExceedsPlan(tierLimit, period);
    }
    await this.pendingClicks.settle();
    const today = Date.UTC(...ymd(this.clock.now()));
    const dates = Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
    const sums = await this.repo.sums(scope, dates[0]!, await this.visibility(caller.accountId));
    return { ...breakdowns(sums, dates), tierLimit };
  }

  /** The last 24 hours of a link, hour by hour (the hour now under way included), from the hourly rollups. */
  async lastDay(link: Link): Promise<{ totalClicks: number; clicksByHour: { hour: string; clicks: number }[] }> {
    await this.pendingClicks.settle();
    const now = this.clock.now();
    const thisHour = Math.floor(now.getTime() / 3_600_000) * 3_600_000;
    const hours = Array.from({ length: 24 }, (_, i) => thisHour - (23 - i) * 3_600_000);
    const since = new Date(hours[0]!).toISOString().slice(0, 10);
    const counts = new Map<number, number>();
    for (const r of await this.repo.hourly(link.id, since, await this.visibility(link.accountId))) {
      counts.set(Date.parse(`${r.day}T00:00:00Z`) + r.hour * 3_600_000, r.clicks);
    }
    const clicksByHour = hours.map((h) => ({ hour: new Date(h).toISOString(), clicks: counts.get(h) ?? 0 }));
    return { totalClicks: clicksByHour.reduce((sum, h) => sum + h.clicks, 0), clicksByHour };
  }

  /**
   * Clicks per day over the last 7 days (oldest first, today last) of some of the caller's links, for the links list:
   * one query for a page of links. Ids that are not the caller's links answer nothing.
   */
  async trends(caller: Caller, linkIds: readonly string[]): Promise<{ id: string; days: number[] }[]> {
    await this.pendingClicks.settle();
    const today = Date.UTC(...ymd(this.clock.now()));
    const days = Array.from({ length: TREND_DAYS }, (_, i) => new Date(today - (TREND_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10));
    const rows = await this.repo.dailyTotals(caller.accountId, linkIds, days[0]!, await this.visibility(caller.accountId));
    const byLink = new Map<string, number[]>();
    for (const row of rows) {
      const series = byLink.get(row.linkId) ?? Array<number>(TREND_DAYS).fill(0);
      const at = days.indexOf(row.day);
      if (at >= 0) series[at] = (series[at] ?? 0) + row.clicks;
      byLink.set(row.linkId, series);
    }
    return [...new Set(linkIds)].map((id) => ({ id, days: byLink.get(id) ?? Array<number>(TREND_DAYS).fill(0) }));
  }

  async topLinks(caller: Caller, period: Period, limit = 10): Promise<{ link: Link; clicks: number }[]> {
    const days = Number(period.slice(0, -1));
    const since = new Date(Date.UTC(...ymd(this.clock.now())) - (days - 1) * DAY_MS).toISOString().slice(0, 10);
    const top = await this.repo.topLinks(caller.accountId, since, await this.visibility(caller.accountId), limit);
    const links = await Promise.all(top.map((t) => this.links.findById(t.linkId)));
    return top.flatMap((t, i) => (links[i] ? [{ link: toLink(links[i]!), clicks: t.clicks }] : []));
  }

  async usage(caller: Caller): Promise<Usage> {
    await this.pendingClicks.settle();
    const now = this.clock.now().getTime();
    const cycle = cycleOf(now);
    const plan = limitsOf(this.plans, caller);
    const [{ tracked, graceStartedAt }, accountCap] = await Promise.all([
      this.repo.usage(caller.accountId, cycle),
      this.repo.overageLimit(caller.accountId),
    ]);
    const included = plan.trackedClicksPerMonth;
    const charge = overageChargeCents(plan, tracked);
    const cap = plan.overageCentsPer1000 === null ? null : effectiveCapCents(plan, accountCap);
    const capReached = cap !== null && charge + (plan.overageCentsPer1000 ?? 0) / 1000 > cap;
    // Grace belongs to plans with a limit and no paid overage; an account that upgraded is out of it.
    const graceApplies = included !== null && plan.overageCentsPer1000 === null && graceStartedAt !== null;
    const graceEnds = graceApplies ? new Date(Date.parse(graceStartedAt!) + GRACE_DAYS * DAY_MS).toISOString() : null;
    const graceActive = graceEnds !== null && now < Date.parse(graceEnds);
    return {
      cycle: cycleBounds(cycle),
      trackedClicks: tracked,
      includedClicks: included,
      overageClicks: included === null || plan.overageCentsPer1000 === null ? 0 : Math.max(0, tracked - included),
      overageChargeCents: Math.round(charge * 100) / 100,
      overageLimitCents: cap,
      capReached,
      grace: { active: graceActive, startedAt: graceApplies ? graceStartedAt : null, endsAt: graceEnds },
      recordingPaused: capReached || (graceApplies && !graceActive),
    };
  }

  /**
   * Spec 4.1: a plan that pays for overage (Pro and Builder by default) sets its monthly overage cap; 0 means no cap.
   * Which plans pay is the plans' own word (`overageCentsPer1000`, PLANS_FILE), not a list of tier names.
   */
  async setOverageLimit(caller: Caller, limitCents: number): Promise<number> {
    if (!Number.isInteger(limitCents) || limitCents < 0) {
      throw errors.invalidLimitCents();
    }
    if (limitsOf(this.plans, caller).overageCentsPer1000 === null) {
      throw errors.planNotEligible();
    }
    await this.repo.setOverageLimit(caller.accountId, limitCents);
    return limitCents;
  }

  private async visibility(accountId: string): Promise<Visibility> {
    const currentCycle = cycleOf(this.clock.now().getTime());
    const plan = limitsOf(this.plans, (await this.repo.accountPlan(accountId)) ?? { tier: 'free' });
    return { showGrace: plan.overageCentsPer1000 !== null || plan.trackedClicksPerMonth === null, currentCycle };
  }
}

const TREND_DAYS = 7;

const ymd = (d: Date): [number, number, number] => [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];

export interface DestinationClicks {
  url: string;
  clicks: number;
}

/**
 * Counted clicks per destination reached, most first. Links with rules or variants record where each click went
 * (src/clicks/click-batch.ts); clicks without a record (before the link had routing, or a link without it) went to
 * its destination, counted as its current one.
 */
function byDestination(sums: DimensionSum[], url: string | null): DestinationClicks[] {
  const counts = new Map<string, number>();
  for (const s of sums) if (s.dimension === 'destination') counts.set(s.value, (counts.get(s.value) ?? 0) + s.clicks);
  const unattributed = total(sums) - [...counts.values()].reduce((n, c) => n + c, 0);
  if (unattributed > 0 && url !== null) counts.set(url, (counts.get(url) ?? 0) + unattributed);
  return [...counts].map(([destination, clicks]) => ({ url: destination, clicks })).sort((a, b) => b.clicks - a.clicks || a.url.localeCompare(b.url));
}

const total = (sums: DimensionSum[]) => sums.filter((s) => s.dimension === 'total').reduce((n, s) => n + s.clicks, 0);

function breakdowns(sums: DimensionSum[], dates: string[]): Breakdowns {
  const byDay = new Map(dates.map((d) => [d, 0]));
  const out: Breakdowns = {
    totalClicks: 0,
    clicksByDay: [],
    deviceBreakdown: { mobile: 0, desktop: 0, tablet: 0 },
    countryBreakdown: {},
    referrerBreakdown: {},
    browserBreakdown: {},
    osBreakdown: {},
    hourBreakdown: Object.fromEntries(Array.from({ length: 24 }, (_, h) => [String(h), 0])),
    uniqueVisitors: 0,
  };
  const add = (map: Record<string, number>, key: string, n: number) => {
    map[key] = (map[key] ?? 0) + n;
  };
  for (const s of sums) {
    if (s.dimension === 'total') {
      out.totalClicks += s.clicks;
      if (byDay.has(s.day)) byDay.set(s.day, byDay.get(s.day)! + s.clicks);
    } else if (s.dimension === 'device' && (s.value === 'mobile' || s.value === 'desktop' || s.value === 'tablet')) {
      out.deviceBreakdown[s.value] += s.clicks;
    } else if (s.dimension === 'country') add(out.countryBreakdown, s.value || 'unknown', s.clicks);
    else if (s.dimension === 'referrer') add(out.referrerBreakdown, s.value || 'direct', s.clicks);
    else if (s.dimension === 'browser') add(out.browserBreakdown, s.value, s.clicks);
    else if (s.dimension === 'os') add(out.osBreakdown, s.value, s.clicks);
    else if (s.dimension === 'hour') add(out.hourBreakdown, s.value, s.clicks);
    else if (s.dimension === 'unique') out.uniqueVisitors += s.clicks;
  }
  out.clicksByDay = [...byDay].map(([date, clicks]) => ({ date, clicks }));
  return out;
}
