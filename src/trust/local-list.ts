import { assetPath } from '../runtime/package-root.js';
import { canonicalUrl } from '../net/canonical-url.js';
import { readThreatList, type ThreatListEntry } from '../net/threat-list.js';
import { SEVERE, type Finding } from './verdict.js';

/** Whether `path` is `prefix` or lies below it: a prefix ends at a segment, query or the end, never mid-name. */
const below = (path: string, prefix: string): boolean =>
  path === prefix || (path.startsWith(prefix) && (prefix.endsWith('/') || '/?#'.includes(path[prefix.length]!)));

const BUILT_IN = assetPath('threat-list.txt');

/**
 * The built-in list of known-bad hosts and URLs (which includes the standard Safe Browsing test pages), plus an
 * operator's own list file. Matching ignores the scheme, so an http entry also catches its https twin.
 */
export class LocalThreatList {
  readonly name = 'snip-local';
  private readonly entries: ThreatListEntry[];

  constructor(extraFile: string | null) {
    this.entries = readThreatList(BUILT_IN);
    if (extraFile) this.entries.push(...readThreatList(extraFile));
  }

  check(url: URL): Finding[] {
    const { host, path: target } = canonicalUrl(url);
    return this.entries
      .filter((e) => (e.pathPrefix === null ? host === e.host || host.endsWith(`.${e.host}`) : host === e.host && below(target, e.pathPrefix)))
      .map((e) => ({ threat: e.threat, penalty: SEVERE[e.threat] ?? 70 }));
  }
}
