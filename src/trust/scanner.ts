import { heuristicFindings } from './heuristics.js';
import type { LocalThreatList } from './local-list.js';
import type { SafeBrowsingClient } from './safe-browsing.js';
import { verdictOf, type Finding, type Verdict } from './verdict.js';

/** A source that could not answer for this scan, and why (a message fit for the log: no key, no request URL). */
export interface SourceFailure {
  source: string;
  error: string;
}

export interface ScanResult {
  verdict: Verdict;
  /** Sources left out of the verdict because they failed; the caller, which knows the link, logs them. */
  failures: SourceFailure[];
}

export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Scores a destination from every source it has: the local threat list and the URL heuristics always, Safe
 * Browsing when configured. A remote source that fails is left out of this scan (and out of `source`), so an
 * outage degrades the score's reach, never the links.
 */
export class Scanner {
  /** `_log` is no longer used (the trust service logs failures, naming the link); accepted until core.ts drops it. */
  constructor(
    private readonly local: LocalThreatList,
    private readonly remote: SafeBrowsingClient | null,
  ) {}

  async scan(destination: string): Promise<ScanResult> {
    const url = new URL(destination);
    const findings: Finding[] = [...this.local.check(url), ...heuristicFindings(url)];
    const sources = [this.local.name];
    const failures: SourceFailure[] = [];
    if (this.remote) {
      try {
        findings.push(...(await this.remote.check(url)));
        sources.unshift(this.remote.name);
      } catch (error) {
        failures.push({ source: this.remote.name, error: errorMessage(error) });
      }
    }
    return { verdict: verdictOf(findings, sources), failures };
  }
}
