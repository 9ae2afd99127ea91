import fs from 'node:fs';
import { assetPath } from '../runtime/package-root.js';
import { SEVERE, type Finding } from './verdict.js';
import { canonicalUrl } from './canonical-url.js';

/** Whether `path` is `prefix` or lies below it: a prefix ends at a segment, query or the end, never mid-name. */
const below = (path: string, prefix: string): boolean =>
  path === prefix || (path.startsWith(prefix) && (prefix.endsWith('/') || '/?#'.includes(path[prefix.length]!)));

interface Entry {
  threat: string;
  /** A host (matches it and its subdomains) or a URL prefix without the scheme. */
  host: string;
  pathPrefix: string | null;
}

const BUILT_IN = assetPath('threat-list.txt');

function parse(text: string, file: string): Entry[] {
  const entries: Entry[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const [threat, target, ...rest] = line.split(/\s+/);
    if (!threat || !target || rest.length > 0 || !/^[A-Z_]+$/.test(threat)) throw new Error(`${file}:${index + 1}: expected "<THREAT_TYPE> <url-or-host>"`);
    const hasScheme = /^[a-z]+:\/\//i.test(target);
    const canonical = canonicalUrl(new URL(hasScheme ? target : `http://${target}`));
    // "host" alone names a whole host; anything with a path names that URL and what lies below it.
    const isHost = !hasScheme && !target.includes('/');
    entries.push({ threat, host: canonical.host, pathPrefix: isHost ? null : canonical.path });
  });
  return entries;
}

/**
 * The built-in list of known-bad hosts and URLs (which includes the standard Safe Browsing test pages), plus an
 * operator's own list file. Matching ignores the scheme, so an http entry also catches its https twin.
 */
export class LocalThreatList {
  readonly name = 'snip-local';
  private readonly entries: Entry[];

  constructor(extraFile: string | null) {
    this.entries = parse(fs.readFileSync(BUILT_IN, 'utf8'), BUILT_IN);
    if (extraFile) this.entries.push(...parse(fs.readFileSync(extraFile, 'utf8'), extraFile));
  }

  check(url: URL): Finding[] {
    const { host, path: target } = canonicalUrl(url);
    return this.entries
      .filter((e) => (e.pathPrefix === null ? host === e.host || host.endsWith(`.${e.host}`) : host === e.host && below(target, e.pathPrefix)))
      .map((e) => ({ threat: e.threat, penalty: SEVERE[e.threat] ?? 70 }));
  }
}

/** Checks a list file at start, so a broken THREAT_LIST_FILE stops the start instead of every scan. */
export function validateThreatList(file: string): void {
  parse(fs.readFileSync(file, 'utf8'), file);
}
