import { randomBytes } from 'node:crypto';
import { buildClickBatch } from '../clicks/click-batch.js';
import { SettleConflict, type ClickBatch, type ClicksRepository } from '../clicks/repository.js';
import { referrerHost } from '../clicks/user-agent.js';
import type { Visit } from '../clicks/visit.js';
import type { SourceVisit } from './source.js';

/**
 * The visits a source recorded one by one (Shlink), written as Snip clicks of the imported link: the statistics
 * (rollups by day, country, referring host, browser, ...) and the link's click count take them in, through the same batch
 * the redirect's clicks go through. They are history, not this month's traffic: no tracked-click usage, no events.
 * A source keeps no visitor identity Snip could use, so the imported visits of a day count as one unique visitor.
 */
export async function recordImportedVisits(
  repo: ClicksRepository,
  /** `importedClicks`: the source total still shown apart, which the recorded visits replace. */
  link: { id: string; accountId: string; importedClicks: number },
  visits: readonly SourceVisit[],
): Promise<number> {
  const run = randomBytes(6).toString('hex');
  let sequence = 0;
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
  const batch: ClickBatch = {
    clicks: [],
    visitors: [],
    rollups: [],
    linkClicks: new Map(),
    usage: [],
    checkpoint: null,
    events: [],
    agentClicks: [],
    addresses: [],
    // What the listing counted beyond the visits it listed (undated, capped) stays shown apart.
    settledImports: [{ id: link.id, expected: link.importedClicks, remaining: Math.max(0, link.importedClicks - judged.length) }],
  };
  buildClickBatch(judged, judged.map(() => 'track' as const), batch, () => `clk_imp_${run}_${(sequence++).toString(36).padStart(8, '0')}`);
  try {
    await repo.commit(batch);
  } catch (error) {
    if (error instanceof SettleConflict) return 0;
    throw error;
  }
  return judged.length;
}
