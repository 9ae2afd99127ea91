import fs from 'node:fs';
import { assetPath } from '../runtime/package-root.js';
import { SEVERE, type Finding } from './verdict.js';
import { normalHostname } from '../net/hostname.js';

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * One spelling per URL path (RFC 3986 6.2.2): percent-encoded unreserved characters decoded, other escapes in
 * upper case; so `/%73/phishing%2Ehtml` is caught by an entry for `/s/phishing.html`.
 */
const canonicalPath = (text: string): string =>
  text.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });

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
    const url = new URL(hasScheme ? target : `http://${target}`);
    // "host" alone names a whole host; anything with a path names that URL and what lies below it.
    const isHost = !hasScheme && !target.includes('/');
    entries.push({ threat, host: url.hostname.toLowerCase(), pathPrefix: isHost ? null : canonicalPath(url.pathname + url.search) });
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
    const host = normalHostname(url.hostname);
    const target = canonicalPath(url.pathname + url.search);
    return this.entries
      .filter((e) => (e.pathPrefix === null ? host === e.host || host.endsWith(`.${e.host}`) : host === e.host && below(target, e.pathPrefix)))
      .map((e) => ({ threat: e.threat, penalty: SEVERE[e.threat] ?? 70 }));
  }
}

/** Checks a list file at start, so a broken THREAT_LIST_FILE stops the start instead of every scan. */
export function validateThreatList(file: string): void {
  parse(fs.readFileSync(file, 'utf8'), file);
}
