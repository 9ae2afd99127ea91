import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

const num = (value: unknown) => Number(value ?? 0);

export class AgentLinksRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Agents' clicks by agent: on one link, or on the account's links (links deleted since included: the clicks
   * happened).
   */
  async agentClicks(scope: { linkId: string } | { accountId: string }): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('agent_clicks')
      .select('agent')
      .select((eb) => eb.fn.sum<number | string>('clicks').as('n'))
      .$if('linkId' in scope, (q) => q.where('link_id', '=', (scope as { linkId: string }).linkId))
      .$if('accountId' in scope, (q) => q.where('account_id', '=', (scope as { accountId: string }).accountId))
      .groupBy('agent')
      .execute();
    return new Map(rows.map((r) => [r.agent, num(r.n)]));
  }

  /** The account's links and their human clicks, by the surface that made them. */
  async linksBySource(accountId: string): Promise<Map<string, { links: number; clicks: number }>> {
    const rows = await this.db
      .selectFrom('links')
      .select('source')
      .select((eb) => [eb.fn.countAll<number | string>().as('links'), eb.fn.sum<number | string>('clicks').as('clicks')])
      .where('account_id', '=', accountId)
      .groupBy('source')
      .execute();
    return new Map(rows.map((r) => [r.source, { links: num(r.links), clicks: num(r.clicks) }]));
  }
}
