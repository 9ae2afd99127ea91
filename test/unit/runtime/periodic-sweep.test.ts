import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PeriodicSweep } from '../../../src/runtime/periodic-sweep.js';

/** What a sweep reported, in order. */
function recorder() {
  const reports: string[] = [];
  return {
    reports,
    failures: { succeeded: () => reports.push('ok'), failed: (error: unknown) => reports.push(`failed: ${(error as Error).message}`) },
  };
}

describe('PeriodicSweep', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('first sweeps one period after it starts, then once every period', async () => {
    let runs = 0;
    const sweep = new PeriodicSweep(async () => (runs += 1), 60_000);
    const { reports, failures } = recorder();
    sweep.start(failures);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(runs).toBe(3);
    expect(reports).toEqual(['ok', 'ok', 'ok']);
    sweep.stop();
  });

  it('reports a failed sweep and keeps sweeping, so a recovery is reported too', async () => {
    const outcomes = [new Error('database is locked'), new Error('database is locked'), null];
    const sweep = new PeriodicSweep(async () => {
      const outcome = outcomes.shift();
      if (outcome) throw outcome;
    }, 1_000);
    const { reports, failures } = recorder();
    sweep.start(failures);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(reports).toEqual(['failed: database is locked', 'failed: database is locked', 'ok']);
    sweep.stop();
  });

  it('sweeps no more once stopped, and may be stopped twice or before it started', async () => {
    let runs = 0;
    const sweep = new PeriodicSweep(async () => (runs += 1), 1_000);
    sweep.stop();
    sweep.start(recorder().failures);
    await vi.advanceTimersByTimeAsync(2_000);
    sweep.stop();
    sweep.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toBe(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not keep the process alive on its own', () => {
    vi.useRealTimers();
    const sweep = new PeriodicSweep(async () => undefined, 60_000);
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    sweep.start(recorder().failures);
    // Node lists only the timers that keep the event loop running.
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(before);
    sweep.stop();
  });
});
