import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS } from '../../../src/plans.js';
import { judgeAllowance } from '../../../src/clicks/allowance.js';
import { account, visit } from './visits.js';

const DAY_MS = 86_400_000;
const may = Date.parse('2026-05-20T10:00:00Z');

describe('judgeAllowance', () => {
  it('tracks within the allowance and counts what it adds per account and cycle', () => {
    const visits = [visit({ accountId: 'a', atMs: may }), visit({ accountId: 'b', atMs: may + 1 }), visit({ accountId: 'a', atMs: may + 2 })];
    const states = new Map([['2026-05', [account('a', 'pro', 10), account('b', 'free', 0)]]]);
    expect(judgeAllowance(visits, states, DEFAULT_PLANS)).toEqual({
      decisions: ['track', 'track', 'track'],
      usage: [
        { account_id: 'a', cycle: '2026-05', tracked: 2, grace_started_at: null },
        { account_id: 'b', cycle: '2026-05', tracked: 1, grace_started_at: null },
      ],
    });
  });

  it('on Free, starts the grace with the first click beyond the allowance, within the same batch', () => {
    const visits = [0, 1, 2, 3].map((i) => visit({ atMs: may + i * 1000 }));
    const { decisions, usage } = judgeAllowance(visits, new Map([['2026-05', [account('acct-1', 'free', 998)]]]), DEFAULT_PLANS);
    expect(decisions).toEqual(['track', 'track', 'grace', 'grace']);
    expect(usage).toEqual([{ account_id: 'acct-1', cycle: '2026-05', tracked: 4, grace_started_at: new Date(may + 2000).toISOString() }]);
  });

  it('pauses once the grace has run out, and then adds no usage at all', () => {
    const started = new Date(may - 8 * DAY_MS).toISOString();
    const states = new Map([['2026-05', [account('acct-1', 'free', 1_200, { grace_started_at: started })]]]);
    expect(judgeAllowance([visit({ atMs: may })], states, DEFAULT_PLANS)).toEqual({ decisions: ['pause'], usage: [] });
  });

  it('does not restart a grace that had already started', () => {
    const started = new Date(may - DAY_MS).toISOString();
    const states = new Map([['2026-05', [account('acct-1', 'free', 1_200, { grace_started_at: started })]]]);
    expect(judgeAllowance([visit({ atMs: may })], states, DEFAULT_PLANS)).toEqual({
      decisions: ['grace'],
      usage: [{ account_id: 'acct-1', cycle: '2026-05', tracked: 1, grace_started_at: null }],
    });
  });

  it('holds a paid plan to the account\'s own overage cap, click by click', () => {
    // Pro: 50,000 included, then 15 cents per 1,000; a 1-cent cap allows 66 clicks beyond.
    const visits = [0, 1, 2].map((i) => visit({ atMs: may + i }));
    const states = new Map([['2026-05', [account('acct-1', 'pro', 50_064, { overage_limit_cents: 1 })]]]);
    expect(judgeAllowance(visits, states, DEFAULT_PLANS).decisions).toEqual(['track', 'track', 'pause']);
  });

  it('judges a batch across a month end against each month\'s own count', () => {
    const visits = [visit({ atMs: Date.parse('2026-05-31T23:59:59Z') }), visit({ atMs: Date.parse('2026-06-01T00:00:00Z') })];
    const states = new Map([
      ['2026-05', [account('acct-1', 'free', 1_000, { grace_started_at: '2026-05-01T00:00:00Z' })]],
      ['2026-06', [account('acct-1', 'free', 0)]],
    ]);
    expect(judgeAllowance(visits, states, DEFAULT_PLANS)).toEqual({
      decisions: ['pause', 'track'],
      usage: [{ account_id: 'acct-1', cycle: '2026-06', tracked: 1, grace_started_at: null }],
    });
  });

  it('pauses visits to an account that is gone, and treats an unknown tier as Free', () => {
    const visits = [visit({ accountId: 'gone', atMs: may }), visit({ accountId: 'odd', atMs: may })];
    const states = new Map([['2026-05', [account('odd', 'legacy-gold', 1_000)]]]);
    expect(judgeAllowance(visits, states, DEFAULT_PLANS).decisions).toEqual(['pause', 'grace']);
  });

  it('follows an operator\'s plans, not the defaults', () => {
    const plans = { ...DEFAULT_PLANS, free: { ...DEFAULT_PLANS.free, trackedClicksPerMonth: null } };
    const states = new Map([['2026-05', [account('acct-1', 'free', 1_000_000)]]]);
    expect(judgeAllowance([visit({ atMs: may })], states, plans).decisions).toEqual(['track']);
  });
});
