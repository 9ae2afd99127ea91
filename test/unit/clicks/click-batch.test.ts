import { describe, expect, it } from 'vitest';
import { buildClickBatch, emptyClickBatch } from '../../../src/clicks/click-batch.js';
import { KEPT_CLICKS_PER_LINK, type ClickBatch } from '../../../src/clicks/repository.js';
import type { Visit } from '../../../src/clicks/visit.js';
import type { Decision } from '../../../src/usage/tracked-clicks.js';
import { IPHONE, visit } from './visits.js';


function build(visits: Visit[], decisions: Decision[] = visits.map(() => 'track')): Promise<ClickBatch> {
  let id = 0;
  return buildClickBatch(visits, decisions, emptyClickBatch(), () => `click-${++id}`);
}

/** The rollup rows as `dimension=value: clicks` (with `~grace` when hidden), sorted. */
const rollupLines = (batch: ClickBatch) =>
  batch.rollups.map((r) => `${r.link_id} ${r.day} ${r.dimension}=${r.value}${r.grace_cycle ? `~${r.grace_cycle}` : ''}: ${r.clicks}`).sort();

describe('buildClickBatch', () => {
  it('rolls up a visit in every dimension, its hour and day in UTC', async () => {
    // 00:30 in Berlin on 21 May is 22:30 UTC on the 20th.
    const batch = await build([visit({ atMs: Date.parse('2026-05-21T00:30:00+02:00') })]);
    expect(rollupLines(batch)).toEqual([
      'link-1 2026-05-20 browser=Firefox: 1',
      'link-1 2026-05-20 country=DE: 1',
      'link-1 2026-05-20 device=desktop: 1',
      'link-1 2026-05-20 hour=22: 1',
      'link-1 2026-05-20 os=Windows: 1',
      'link-1 2026-05-20 referrer=news.example: 1',
      'link-1 2026-05-20 total=: 1',
    ]);
    expect(batch.linkClicks).toEqual(new Map([['link-1', 1]]));
  });

  it('counts visits that agree into one row each, and keeps those that differ apart', async () => {
    const batch = await build([
      visit({ visitor: 'v1' }),
      visit({ visitor: 'v2' }),
      visit({ visitor: 'v1', userAgent: IPHONE, country: null, referrer: null }),
    ]);
    expect(rollupLines(batch)).toEqual([
      'link-1 2026-05-20 browser=Firefox: 2',
      'link-1 2026-05-20 browser=Mobile Safari: 1',
      'link-1 2026-05-20 country=: 1',
      'link-1 2026-05-20 country=DE: 2',
      'link-1 2026-05-20 device=desktop: 2',
      'link-1 2026-05-20 device=mobile: 1',
      'link-1 2026-05-20 hour=10: 3',
      'link-1 2026-05-20 os=Windows: 2',
      'link-1 2026-05-20 os=iOS: 1',
      'link-1 2026-05-20 referrer=: 1',
      'link-1 2026-05-20 referrer=news.example: 2',
      'link-1 2026-05-20 total=: 3',
    ]);
    expect(batch.visitors.map((v) => v.visitor)).toEqual(['v1', 'v2']);
    expect(batch.linkClicks.get('link-1')).toBe(3);
  });

  it('counts a paused visit on the link (it still redirected) but records nothing else of it', async () => {
    const batch = await build([visit(), visit({ visitor: 'v2' })], ['track', 'pause']);
    expect(batch.linkClicks.get('link-1')).toBe(2);
    expect(batch.clicks).toHaveLength(1);
    expect(batch.visitors.map((v) => v.visitor)).toEqual(['visitor-1']);
    expect(rollupLines(batch)).toContain('link-1 2026-05-20 total=: 1');
  });

  it('does not count again a visit the redirect already counted on the link', async () => {
    const batch = await build([visit({ counted: true }), visit()]);
    expect(batch.linkClicks.get('link-1')).toBe(1);
    expect(rollupLines(batch)).toContain('link-1 2026-05-20 total=: 2');
  });

  it('keeps grace visits apart, marked with their billing cycle, in rollups, visitors and records', async () => {
    const batch = await build([visit(), visit()], ['track', 'grace']);
    expect(rollupLines(batch)).toContain('link-1 2026-05-20 total=: 1');
    expect(rollupLines(batch)).toContain('link-1 2026-05-20 total=~2026-05: 1');
    expect(batch.visitors.map((v) => v.grace_cycle)).toEqual(['']);
    expect(batch.clicks.map((c) => c.grace_cycle)).toEqual([null, '2026-05']);
  });

  it('notes each address once per link and day, and no address for visits that carry none', async () => {
    const batch = await build([
      visit({ address: 'addr-a', atMs: Date.parse('2026-05-20T10:00:00Z') }),
      visit({ address: 'addr-a', atMs: Date.parse('2026-05-20T11:00:00Z') }),
      visit({ address: 'addr-a', atMs: Date.parse('2026-05-21T09:00:00Z') }),
      visit({ address: '' }),
    ]);
    expect(batch.addresses).toEqual([
      { link_id: 'link-1', day: '2026-05-20', address: 'addr-a', at: '2026-05-20T10:00:00.000Z' },
      { link_id: 'link-1', day: '2026-05-21', address: 'addr-a', at: '2026-05-21T09:00:00.000Z' },
    ]);
  });

  it(`keeps only the newest ${KEPT_CLICKS_PER_LINK} records of each link, oldest first`, async () => {
    const start = Date.parse('2026-05-20T00:00:00Z');
    const visits = Array.from({ length: KEPT_CLICKS_PER_LINK + 5 }, (_, i) => visit({ linkId: 'busy', atMs: start + i * 1000 }));
    const batch = await build([...visits, visit({ linkId: 'quiet', atMs: start })]);
    const times = batch.clicks.filter((c) => c.link_id === 'busy').map((c) => c.at);
    expect(times).toHaveLength(KEPT_CLICKS_PER_LINK);
    expect(times[0]).toBe(new Date(start + 5_000).toISOString());
    expect(times.at(-1)).toBe(new Date(start + (KEPT_CLICKS_PER_LINK + 4) * 1000).toISOString());
    expect([...times].sort()).toEqual(times);
    expect(batch.clicks.filter((c) => c.link_id === 'quiet')).toHaveLength(1);
    // The records are trimmed; the counts are not.
    expect(batch.linkClicks.get('busy')).toBe(KEPT_CLICKS_PER_LINK + 5);
    expect(rollupLines(batch)).toContain(`busy 2026-05-20 total=: ${KEPT_CLICKS_PER_LINK + 5}`);
  });

  it('keeps the newest visible and the newest hidden records apart, so grace clicks cannot push out visible ones', async () => {
    const start = Date.parse('2026-05-20T00:00:00Z');
    const visits = Array.from({ length: 2 * (KEPT_CLICKS_PER_LINK + 25) }, (_, i) => visit({ atMs: start + i * 1000 }));
    const batch = await build(visits, visits.map((_, i) => (i % 2 === 1 ? 'grace' : 'track')));
    expect(batch.clicks.filter((c) => c.grace_cycle === null)).toHaveLength(KEPT_CLICKS_PER_LINK);
    expect(batch.clicks.filter((c) => c.grace_cycle === '2026-05')).toHaveLength(KEPT_CLICKS_PER_LINK);
  });

  it('gives each record an id of its own and the software read from the user agent', async () => {
    const batch = await build([visit(), visit({ userAgent: IPHONE })]);
    expect(batch.clicks.map(({ id, browser, os, device }) => ({ id, browser, os, device }))).toEqual([
      { id: 'click-1', browser: 'Firefox', os: 'Windows', device: 'desktop' },
      { id: 'click-2', browser: 'Mobile Safari', os: 'iOS', device: 'mobile' },
    ]);
  });
  it('gives the event loop a turn while it builds thousands of visits, and builds the same batch', async () => {
    const start = Date.parse('2026-05-20T00:00:00Z');
    const visits = Array.from({ length: 3_000 }, (_, i) => visit({ atMs: start + i * 10, visitor: `v${i % 7}` }));
    let turned = false;
    setImmediate(() => (turned = true));
    // An old slice: the next breath gives the loop its turn (src/runtime/breathe.ts).
    const busyUntil = performance.now() + 5;
    while (performance.now() < busyUntil);
    const batch = await build(visits);
    expect(turned).toBe(true);
    expect(rollupLines(batch)).toContain('link-1 2026-05-20 total=: 3000');
    expect(batch.linkClicks.get('link-1')).toBe(3000);
    expect(batch.clicks).toHaveLength(KEPT_CLICKS_PER_LINK);
    expect(batch.clicks.at(-1)!.at).toBe(new Date(start + 2_999 * 10).toISOString());
    expect(batch.visitors).toHaveLength(7);
  });
});
