import { randomBytes } from 'node:crypto';
import { buildClickBatch, emptyClickBatch } from '../clicks/click-batch.js';
import { SettleConflict, type ClicksRepository } from '../clicks/repository.js';
import { referrerHost } from '../clicks/user-agent.js';
import type { Visit } from '../clicks/visit.js';
import type { SourceVisit } from './source.js';

/**
 * The visits a source recorded one by one (Shlink), written as Snip clicks of the imported link: the statistics
 * (rollups by day, country, referring host, browser, ...) and the link's click count take them in, through the same
 * batch building as the redirect's clicks. They are history, not this month's traffic: no tracked-click usage, no
 * events. A source keeps no visitor identity Snip could use, so the imported visits of a day count as one unique
 * visitor. All of a link's visits commit in one transaction with its settled total; their rows are built oldest first
 * (so the click records kept are the newest), with the loop given back between slices as the redirect's are.
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
  const batch = await buildClickBatch(judged, judged.map(() => 'track' as const), emptyClickBatch(), nextId);
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
