import type { FastifyBaseLogger } from 'fastify';
import { heuristicFindings } from './heuristics.js';
import type { LocalThreatList } from './local-list.js';
import type { SafeBrowsingClient } from './safe-browsing.js';
import { verdictOf, type Finding, type Verdict } from './verdict.js';

/**
 * Scores a destination from every source it has: the local threat list and the URL heuristics always, Safe
 * Browsing when configured. A remote source that fails is left out of this scan (and out of `source`), so an
 * outage degrades the score's reach, never the links.
 */
export class Scanner {
  constructor(
    private readonly local: LocalThreatList,
    private readonly remote: SafeBrowsingClient | null,
    private readonly log: FastifyBaseLogger,
  ) {}

  async scan(destination: string): Promise<Verdict> {
    const url = new URL(destination);
    const findings: Finding[] = [...this.local.check(url), ...heuristicFindings(url)];
    const sources = [this.local.name];
    if (this.remote) {
      try {
        findings.push(...(await this.remote.check(url)));
        sources.unshift(this.remote.name);
      } catch (error) {
        this.log.warn({ err: error }, 'Safe Browsing lookup failed; scored from local sources only');
      }
    }
    return verdictOf(findings, sources);
  }
}
