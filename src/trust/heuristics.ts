import { isIpLiteral } from '../net/hostname.js';
import type { Finding } from './verdict.js';

const SHORTENER_HOSTS = new Set(['bit.ly', 'tinyurl.com', 't.co', 'goo.gl', 'ow.ly', 'is.gd', 'buff.ly', 'cutt.ly', 'rebrand.ly', 'shorturl.at']);
const LURE_WORDS = /(login|signin|sign-in|verify|account|update|secure|banking|wallet|password|webscr)/i;

/**
 * Signs that a destination hides what it is, each worth a few points: none makes a link unsafe alone, several
 * together make it a warning. Cheap, local and explainable (each finding is a named threat type).
 */
export function heuristicFindings(url: URL): Finding[] {
  const findings: Finding[] = [];
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIpLiteral(host)) findings.push({ threat: 'IP_ADDRESS_HOST', penalty: 25 });
  if (host.split('.').some((label) => label.startsWith('xn--'))) findings.push({ threat: 'PUNYCODE_HOST', penalty: 25 });
  if (url.username || url.password) findings.push({ threat: 'CREDENTIALS_IN_URL', penalty: 35 });
  if (url.port && url.port !== '80' && url.port !== '443') findings.push({ threat: 'UNUSUAL_PORT', penalty: 10 });
  if (url.protocol === 'http:' && LURE_WORDS.test(url.pathname + url.search)) findings.push({ threat: 'INSECURE_LOGIN_LURE', penalty: 25 });
  if (host.split('.').length > 5) findings.push({ threat: 'DEEP_SUBDOMAINS', penalty: 10 });
  if (SHORTENER_HOSTS.has(host)) findings.push({ threat: 'REDIRECT_CHAIN', penalty: 15 });
  if (url.href.length > 2000) findings.push({ threat: 'OVERLONG_URL', penalty: 10 });
  return findings;
}
