import fs from 'node:fs';
import { canonicalUrl } from './canonical-url.js';

/** One line of a threat list: a threat type and the host or URL prefix it names. */
export interface ThreatListEntry {
  threat: string;
  /** A host (matches it and its subdomains) or a URL prefix without the scheme. */
  host: string;
  pathPrefix: string | null;
}

/**
 * Reads a threat list: one `<THREAT_TYPE> <url-or-host>` a line, `#` comments and blank lines skipped; throws naming
 * the file and the line. The built-in list and an operator's THREAT_LIST_FILE share this format, and config.ts reads
 * the operator's at start with it, so a broken file stops the start instead of every scan.
 */
export function readThreatList(file: string): ThreatListEntry[] {
  const entries: ThreatListEntry[] = [];
  fs.readFileSync(file, 'utf8').split('\n').forEach((raw, index) => {
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
