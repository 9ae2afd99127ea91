import { createIsbotFromList, list } from 'isbot';
import { UAParser } from 'ua-parser-js';
import { agentOf } from './agents.js';
import { memo } from '../runtime/memo.js';

export type Device = 'desktop' | 'mobile' | 'tablet';

export interface Software {
  browser: string;
  os: string;
  device: Device;
}

/**
 * HTTP libraries and command-line tools. isbot counts them as bots; Snip counts them as visitors, because a
 * script that follows a link is a visit, and a click cap (a one-time link) must hold against scripts too.
 */
const CLIENT_LIBRARIES = [
  'curl/8.4.0', 'Wget/1.21', 'node', 'node-fetch/1.0', 'undici', 'axios/1.6.0', 'got (https://github.com/sindresorhus/got)',
  'lightMyRequest', 'python-requests/2.31.0', 'python-httpx/0.27.0', 'Python-urllib/3.11', 'aiohttp/3.9',
  'Go-http-client/1.1', 'okhttp/4.12.0', 'Java/17.0.1', 'Apache-HttpClient/4.5', 'libwww-perl/6.0', 'reqwest/0.11',
  'PostmanRuntime/7.36', 'HTTPie/3.2', 'Ruby',
];
const crawler = createIsbotFromList(list.filter((pattern) => !CLIENT_LIBRARIES.some((ua) => new RegExp(pattern, 'i').test(ua))));

/**
 * Who a redirect's visitor is, in one memoised lookup: an AI agent (counted apart, src/clicks/agents.ts), another
 * bot — crawlers, link unfurlers and monitors, which get their redirect but are not counted — or a person (`agent` null, `bot` false).
 */
export const visitorKind = memo((userAgent: string): { agent: string | null; bot: boolean } => {
  const agent = agentOf(userAgent);
  return { agent, bot: agent === null && crawler(userAgent) };
});

export const software = memo((userAgent: string): Software => {
  const result = new UAParser(userAgent).getResult();
  const type = result.device.type;
  return {
    browser: result.browser.name ?? 'Unknown',
    os: result.os.name ?? 'Unknown',
    device: type === 'mobile' || type === 'wearable' ? 'mobile' : type === 'tablet' ? 'tablet' : 'desktop',
  };
});

/** The referring site's host name, or null (no header, or not a URL). */
export function referrerHost(referer: string | undefined): string | null {
  if (!referer) return null;
  try {
    return new URL(referer).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}
