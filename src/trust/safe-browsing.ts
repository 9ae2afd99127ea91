import { SEVERE, type Finding } from './verdict.js';

const THREAT_TYPES = ['MALWARE', 'SOCIAL_ENGINEERING', 'UNWANTED_SOFTWARE', 'POTENTIALLY_HARMFUL_APPLICATION'];

/** What a failed lookup says: the problem only, never the request's address (it carries the API key). */
export class SafeBrowsingError extends Error {
  override readonly name = 'SafeBrowsingError';
}

/** An error's message and its causes' (fetch's own message is only "fetch failed"), in one line. */
function describe(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    parts.push(e instanceof Error ? e.message : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join(': ');
}

/**
 * Google Safe Browsing v4 Lookup API (threatMatches:find). Used only when SAFE_BROWSING_API_KEY is set;
 * SAFE_BROWSING_URL replaces the address (a local stub in tests, a proxy in production).
 */
export class SafeBrowsingClient {
  readonly name = 'google-safe-browsing';

  constructor(
    private readonly apiKey: string,
    private readonly baseUrl = 'https://safebrowsing.googleapis.com',
    private readonly timeoutMs = 5_000,
  ) {}

  /**
   * The findings for `url`. Fails with a SafeBrowsingError whose message says what went wrong (unreachable,
   * an error status, an unreadable answer) without the request's URL or the key: it is meant to be logged.
   */
  async check(url: URL): Promise<Finding[]> {
    let response: Response;
    let body: { matches?: { threatType?: string }[] };
    try {
      response = await fetch(`${this.baseUrl.replace(/\/+$/, '')}/v4/threatMatches:find?key=${encodeURIComponent(this.apiKey)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client: { clientId: 'snip', clientVersion: '1.5.0' },
          threatInfo: { threatTypes: THREAT_TYPES, platformTypes: ['ANY_PLATFORM'], threatEntryTypes: ['URL'], threatEntries: [{ url: url.href }] },
        }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new SafeBrowsingError(`Safe Browsing unreachable: ${this.redact(describe(error))}`);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new SafeBrowsingError(`Safe Browsing answered ${response.status}`);
    }
    try {
      body = (await response.json()) as typeof body;
    } catch (error) {
      throw new SafeBrowsingError(`Safe Browsing answered unreadably: ${this.redact(describe(error))}`);
    }
    return (body.matches ?? []).flatMap((m) => (m.threatType ? [{ threat: m.threatType, penalty: SEVERE[m.threatType] ?? 70 }] : []));
  }

  /** Errors from fetch can quote the URL they were given (e.g. "Failed to parse URL from ..."): the key goes. */
  private redact(text: string): string {
    let out = text;
    for (const secret of new Set([this.apiKey, encodeURIComponent(this.apiKey)])) {
      if (secret.length > 0) out = out.split(secret).join('[redacted]');
    }
    return out;
  }
}
