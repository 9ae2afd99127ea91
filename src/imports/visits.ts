import { randomBytes } from 'node:crypto';
import { buildClickBatch, emptyClickBatch } from '../clicks/click-batch.js';
import { KEPT_CLICKS_PER_LINK, SettleConflict, type ClickBatch, type ClicksRepository } from '../clicks/repository.js';
import { referrerHost } from '../clicks/user-agent.js';
import type { Visit } from '../clicks/visit.js';
import { breathe } from '../runtime/breathe.js';
import type { SourceVisit } from './source.js';

/** Visits turned into batch rows between two looks at the event loop: a link's long history never holds it. */
const CHUNK = 2_000;

/** Adds one chunk's rows to the batch of the whole history: counts summed, the newest click records kept. */
function merge(into: ClickBatch, part: ClickBatch): void {
  const rollups = new Map(into.rollups.map((r) => [`${r.link_id}|${r.day}|${r.dimension}|${r.value}|${r.grace_cycle}`, r]));
  for (const r of part.rollups) {
    const key = `${r.link_id}|${r.day}|${r.dimension}|${r.value}|${r.grace_cycle}`;
    const row = rollups.get(key);
    if (row) row.clicks += r.clicks;
    else rollups.set(key, { ...r });
  }
  into.rollups = [...rollups.values()];
  const visitors = new Set(into.visitors.map((v) => `${v.link_id}|${v.day}|${v.visitor}`));
  for (const v of part.visitors) if (!visitors.has(`${v.link_id}|${v.day}|${v.visitor}`)) into.visitors.push(v);
  for (const [id, n] of part.linkClicks) into.linkClicks.set(id, (into.linkClicks.get(id) ?? 0) + n);
  into.clicks = [...into.clicks, ...part.clicks].slice(-KEPT_CLICKS_PER_LINK);
}

/**
 * The visits a source recorded one by one (Shlink), written as Snip clicks of the imported link: the statistics
 * (rollups by day, country, referring host, browser, ...) and the link's click count take them in, through the same
 * batch building as the redirect's clicks. They are history, not this month's traffic: no tracked-click usage, no
 * events. A source keeps no visitor identity Snip could use, so the imported visits of a day count as one unique
 * visitor. All of a link's visits commit in one transaction with its settled total; the rows are built a chunk at a
 * time, oldest first (so the click records kept are the newest).
 */
export async function recordImportedVisits(
  repo: ClicksRepository,
  /** `importedClicks`: the source total still shown apart, which the recorded visits replace. */
  link: { id: string; accountId: string; importedClicks: number },
  visits: readonly SourceVisit[],
): Promise<number> {
  const run = randomBytes(6).toString('hex');
  let sequence = 0;
  const nextId = () => `clk_imp_${run}_${(sequence++).toString(36).padStart(8, '0')}`;
  const judged: Visit[] = [];
  for (const v of visits) {
    const atMs = Date.parse(v.at);
    if (Number.isNaN(atMs)) continue;
    judged.push({
      linkId: link.id,
      accountId: link.accountId,
      atMs,
      visitor: 'imported',
      address: '',
      country: v.country,
      region: null,
      city: null,
      userAgent: v.userAgent,
      referrer: referrerHost(v.referrer ?? undefined),
      destination: null,
      counted: false,
      agent: null,
    });
  }
  judged.sort((a, b) => a.atMs - b.atMs);
  const batch = emptyClickBatch();
  for (let start = 0; start < judged.length; start += CHUNK) {
    const chunk = judged.slice(start, start + CHUNK);
    merge(batch, buildClickBatch(chunk, chunk.map(() => 'track' as const), emptyClickBatch(), nextId));
    await breathe();
  }
  // What the listing counted beyond the visits it listed (undated, capped) stays shown apart.
  batch.settledImports = [{ id: link.id, expected: link.importedClicks, remaining: Math.max(0, link.importedClicks - judged.length) }];
  try {
    await repo.commit(batch);
  } catch (error) {
    if (error instanceof SettleConflict) return 0;
    throw error;
  }
  return judged.length;
}
