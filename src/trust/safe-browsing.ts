import { SEVERE, type Finding } from './verdict.js';

const THREAT_TYPES = ['MALWARE', 'SOCIAL_ENGINEERING', 'UNWANTED_SOFTWARE', 'POTENTIALLY_HARMFUL_APPLICATION'];

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

  async check(url: URL): Promise<Finding[]> {
    const response = await fetch(`${this.baseUrl.replace(/\/+$/, '')}/v4/threatMatches:find?key=${encodeURIComponent(this.apiKey)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client: { clientId: 'snip', clientVersion: '1.5.0' },
        threatInfo: { threatTypes: THREAT_TYPES, platformTypes: ['ANY_PLATFORM'], threatEntryTypes: ['URL'], threatEntries: [{ url: url.href }] },
      }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!response.ok) throw new Error(`Safe Browsing answered ${response.status}`);
    const body = (await response.json()) as { matches?: { threatType?: string }[] };
    return (body.matches ?? []).flatMap((m) => (m.threatType ? [{ threat: m.threatType, penalty: SEVERE[m.threatType] ?? 70 }] : []));
  }
}
