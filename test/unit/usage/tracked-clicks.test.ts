import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS, type PlanLimits } from '../../../src/plans.js';
import { cycleBounds, cycleOf, decide, effectiveCapCents, GRACE_DAYS, overageChargeCents, trackableAhead, type TrackedState } from '../../../src/usage/tracked-clicks.js';

const DAY_MS = 86_400_000;
const now = Date.parse('2026-05-20T12:00:00Z');

describe('billing cycles', () => {
  it('is the calendar month in UTC, whatever the local time zone would say', () => {
    expect(cycleOf(Date.parse('2026-05-31T23:59:59.999Z'))).toBe('2026-05');
    expect(cycleOf(Date.parse('2026-06-01T00:00:00.000Z'))).toBe('2026-06');
    // 01:00 on 1 June in Berlin is still May in UTC.
    expect(cycleOf(Date.parse('2026-06-01T01:00:00+02:00'))).toBe('2026-05');
  });

  it('answers correctly when asked out of order (the remembered month is not trusted across months)', () => {
    expect(cycleOf(Date.parse('2026-12-31T23:00:00Z'))).toBe('2026-12');
    expect(cycleOf(Date.parse('2026-01-15T00:00:00Z'))).toBe('2026-01');
    expect(cycleOf(Date.parse('2027-01-01T00:00:00Z'))).toBe('2027-01');
    expect(cycleOf(Date.parse('2026-12-01T00:00:00Z'))).toBe('2026-12');
  });

  it('bounds a cycle by the first instants of its month and the next, across a year end', () => {
    expect(cycleBounds('2026-02')).toEqual({ start: '2026-02-01T00:00:00.000Z', end: '2026-03-01T00:00:00.000Z' });
    expect(cycleBounds('2026-12')).toEqual({ start: '2026-12-01T00:00:00.000Z', end: '2027-01-01T00:00:00.000Z' });
  });
});

describe('overage', () => {
  const pro = DEFAULT_PLANS.pro; // 50,000 included, 15 cents per 1,000 beyond, 1,000 cents cap

  it('charges only the clicks beyond the included ones, in fractional cents', () => {
    expect(overageChargeCents(pro, 50_000)).toBe(0);
    expect(overageChargeCents(pro, 49_000)).toBe(0);
    expect(overageChargeCents(pro, 50_001)).toBe(0.015);
    expect(overageChargeCents(pro, 60_000)).toBe(150);
    expect(overageChargeCents(DEFAULT_PLANS.free, 5_000)).toBe(0); // no paid overage
    expect(overageChargeCents(DEFAULT_PLANS.enterprise, 10_000_000)).toBe(0); // unlimited
  });

  it('takes the account\'s own cap over the plan\'s, and 0 as no cap at all', () => {
    expect(effectiveCapCents(pro, null)).toBe(1_000);
    expect(effectiveCapCents(pro, 250)).toBe(250);
    expect(effectiveCapCents(pro, 0)).toBeNull();
    expect(effectiveCapCents(DEFAULT_PLANS.builder, null)).toBeNull();
  });
});

describe('decide', () => {
  const state = (plan: PlanLimits, tracked: number, extra: { accountCapCents?: number | null; graceStartedAtMs?: number | null } = {}) => ({
    plan,
    tracked,
    accountCapCents: extra.accountCapCents ?? null,
    graceStartedAtMs: extra.graceStartedAtMs ?? null,
  });

  it('tracks every click within the included ones, and every click of an unlimited plan', () => {
    expect(decide(state(DEFAULT_PLANS.free, 999), now)).toBe('track');
    expect(decide(state(DEFAULT_PLANS.enterprise, 10_000_000), now)).toBe('track');
  });

  it('on a paid plan, tracks past the included clicks until the next click would pass the cap', () => {
    // 1,000 cents at 15 per 1,000 is 66,666 clicks beyond 50,000; the 66,667th would cost 1,000.005.
    expect(decide(state(DEFAULT_PLANS.pro, 50_000 + 66_665), now)).toBe('track');
    expect(decide(state(DEFAULT_PLANS.pro, 50_000 + 66_666), now)).toBe('pause');
    expect(decide(state(DEFAULT_PLANS.pro, 50_000 + 66_666, { accountCapCents: 0 }), now)).toBe('track');
    expect(decide(state(DEFAULT_PLANS.pro, 50_000, { accountCapCents: 1 }), now)).toBe('track');
    expect(decide(state(DEFAULT_PLANS.pro, 50_066, { accountCapCents: 1 }), now)).toBe('pause');
  });

  it('on Free, keeps hidden clicks for the grace days from the first one beyond, then pauses', () => {
    const free = DEFAULT_PLANS.free;
    expect(GRACE_DAYS).toBe(7);
    expect(decide(state(free, 1_000), now)).toBe('grace'); // the grace starts with this click
    expect(decide(state(free, 1_500, { graceStartedAtMs: now - 7 * DAY_MS + 1 }), now)).toBe('grace');
    expect(decide(state(free, 1_500, { graceStartedAtMs: now - 7 * DAY_MS }), now)).toBe('pause');
  });
});

describe('trackableAhead', () => {
  const at = (plan: PlanLimits, tracked: number, accountCapCents: number | null = null): TrackedState => ({ plan, accountCapCents, tracked, graceStartedAtMs: null });
  /** The first click from `state` on that decide does not track, counting up one by one. */
  const boundary = (state: TrackedState, upTo: number) => {
    for (let k = 0; k < upTo; k++) if (decide({ ...state, tracked: state.tracked + k }, now) !== 'track') return k;
    return Infinity;
  };

  it("agrees with decide, click by click, on every plan's limit and cap", () => {
    const cases: TrackedState[] = [
      at(DEFAULT_PLANS.free, 0),
      at(DEFAULT_PLANS.free, 999),
      at(DEFAULT_PLANS.free, 1_000),
      at(DEFAULT_PLANS.free, 5_000),
      at(DEFAULT_PLANS.pro, 116_000), // 50,000 included, then 15 cents per 1,000 up to the 1,000-cent cap
      at(DEFAULT_PLANS.pro, 116_666),
      at(DEFAULT_PLANS.pro, 116_667),
      at(DEFAULT_PLANS.pro, 49_990, 1), // an account's own cap of one cent: 66 clicks beyond the included
      at(DEFAULT_PLANS.pro, 50_066, 1),
      at({ ...DEFAULT_PLANS.pro, overageCentsPer1000: 7 }, 50_000, 3), // 3,000 / 7 is no whole number
    ];
    for (const state of cases) expect(trackableAhead(state), JSON.stringify(state)).toBe(boundary(state, 100_000));
  });

  it('is unlimited without a limit or without a cap', () => {
    expect(trackableAhead(at(DEFAULT_PLANS.enterprise, 10_000_000))).toBe(Infinity);
    expect(trackableAhead(at(DEFAULT_PLANS.builder, 10_000_000))).toBe(Infinity);
    expect(trackableAhead(at(DEFAULT_PLANS.pro, 10_000_000, 0))).toBe(Infinity); // 0: the account removed its cap
  });
});
