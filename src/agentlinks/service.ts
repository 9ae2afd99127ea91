import type { Caller } from '../caller.js';
import { LINK_SOURCES, type Link, type LinkSource } from '../links/link.js';
import type { LinkPage, LinksService } from '../links/service.js';
import type { AgentLinksRepository } from './repository.js';

export interface AgentLinkStats {
  shortCode: string;
  source: LinkSource;
  clientName: string | null;
  /** People's clicks: the link's click count. */
  humanClicks: number;
  /** AI agents' and assistant fetchers' visits, never a tracked click. */
  agentClicks: number;
  byAgent: Record<string, number>;
}

export interface AgentAccountStats {
  humanClicks: number;
  agentClicks: number;
  /** Human clicks on the account's links, by where each link was made (api, mcp, cli, dashboard). */
  bySource: Record<LinkSource, number>;
  /** How many links each surface made. */
  linksBySource: Record<LinkSource, number>;
  byAgent: Record<string, number>;
}

/** Clicks settle before they are read, as every statistic does, so a caller sees its own clicks. */
export interface PendingClicks {
  settle(): Promise<void>;
}

const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
const bySourceOf = (read: (source: LinkSource) => number) => Object.fromEntries(LINK_SOURCES.map((s) => [s, read(s)])) as Record<LinkSource, number>;

/**
 * Agent links: where links come from (a person with a key, an AI assistant over MCP, the operator, the dashboard)
 * and who follows them (people, or AI agents, which are counted apart and never as tracked clicks).
 */
export class AgentLinksService {
  constructor(
    private readonly repo: AgentLinksRepository,
    private readonly links: LinksService,
    private readonly pending: PendingClicks,
  ) {}

  /** The links made over MCP, newest first. */
  list(caller: Caller, page: { limit: number; offset: number }): Promise<LinkPage> {
    return this.links.list(caller, { ...page, source: 'mcp' });
  }

  async linkStats(caller: Caller, shortPath: string): Promise<AgentLinkStats> {
    const link: Link = await this.links.get(caller, shortPath);
    await this.pending.settle();
    const byAgent = await this.repo.agentClicks({ linkId: link.id });
    return {
      shortCode: link.code,
      source: link.source,
      clientName: link.clientName,
      humanClicks: link.clicks,
      agentClicks: total(byAgent),
      byAgent: Object.fromEntries(byAgent),
    };
  }

  async accountStats(caller: Caller): Promise<AgentAccountStats> {
    await this.pending.settle();
    const [byAgent, bySource] = [await this.repo.agentClicks({ accountId: caller.accountId }), await this.repo.linksBySource(caller.accountId)];
    return {
      humanClicks: [...bySource.values()].reduce((a, b) => a + b.clicks, 0),
      agentClicks: total(byAgent),
      bySource: bySourceOf((s) => bySource.get(s)?.clicks ?? 0),
      linksBySource: bySourceOf((s) => bySource.get(s)?.links ?? 0),
      byAgent: Object.fromEntries(byAgent),
    };
  }
}
