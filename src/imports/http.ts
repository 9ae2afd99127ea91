import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { withoutControlCharacters } from '../control-characters.js';
import { errors } from '../errors.js';
import { isBadPort, isPublicAddress } from '../webhooks/address-guard.js';
import type { SourceHttp } from './source.js';

export interface SourceHttpOptions {
  /**
   * Whether the source may be on a private network. The operator's CLI may (a Shlink next door is the usual case);
   * an import started over the API may not, unless IMPORT_ALLOW_PRIVATE says so: the server must not be a way into
   * its own network.
   */
  allowPrivate: boolean;
  timeoutMs?: number;
  /** The largest answer read; a larger one is a SOURCE_ERROR. */
  maxBytes?: number;
  /** Waits (tests pass a short one); the default is setTimeout. */
  sleep?: (ms: number) => Promise<void>;
  /** The longest single wait a 429's Retry-After is granted; longer ones are cut to it. */
  maxWaitMs?: number;
}

const RATE_LIMIT_RETRIES = 20;
const FAILURE_RETRIES = 3;
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));


/** Retry-After as seconds or an HTTP date, in milliseconds; one second when absent or unreadable. */
export function retryAfterMs(value: string | undefined, nowMs = Date.now()): number {
  if (!value) return 1000;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? 1000 : Math.max(0, at - nowMs);
}

/** A lookup that refuses every address that is not on the public internet, so the connection goes only to a checked one. */
const publicLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return (callback as (e: Error) => void)(error);
    const list = addresses as dns.LookupAddress[];
    const refused = list.find((a) => !isPublicAddress(a.address));
    if (refused || list.length === 0) {
      return (callback as (e: Error) => void)(Object.assign(new Error(`${hostname} is a private address; IMPORT_ALLOW_PRIVATE=true allows it`), { code: 'EPRIVATE' }));
    }
    if (options.all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    else callback(null, list[0]!.address, list[0]!.family);
  });
};

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** JSON GETs against a source, as `SourceHttp` promises (see source.ts). */
export function sourceHttp(options: SourceHttpOptions): SourceHttp {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  const sleep = options.sleep ?? defaultSleep;
  const maxWaitMs = options.maxWaitMs ?? 120_000;

  const once = (url: URL, headers: Record<string, string>): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const request = client.request(
        url,
        {
          method: 'GET',
          agent: false,
          headers: { accept: 'application/json', 'user-agent': 'Snip-Import/1.0', ...headers },
          ...(options.allowPrivate ? {} : { lookup: publicLookup }),
          timeout: timeoutMs,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              request.destroy(Object.assign(new Error(`the answer is larger than ${maxBytes} bytes`), { code: 'ETOOLARGE' }));
              return;
            }
            chunks.push(chunk);
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(Object.assign(new Error(`no answer within ${timeoutMs / 1000} s`), { code: 'ETIMEDOUT' })));
      request.on('error', reject);
      request.end();
    });

  return {
    async get(target, headers, errorMessage) {
      let url: URL;
      try {
        url = new URL(target);
      } catch {
        throw errors.sourceError(`${JSON.stringify(target.slice(0, 100))} is not an address`);
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw errors.sourceError(`${url.protocol} is not http or https`);
      if (isBadPort(url)) throw errors.sourceUnreachable(`port ${url.port} belongs to another protocol`);
      const shown = `${url.origin}${url.pathname}`;
      // An address written as such never goes through the lookup that checks resolved ones.
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      if (!options.allowPrivate && ipaddr.isValid(literal) && !isPublicAddress(literal)) {
        throw errors.sourceUnreachable(`${shown}: ${literal} is a private address; IMPORT_ALLOW_PRIVATE=true allows it`);
      }
      let limited = 0;
      let failed = 0;
      for (;;) {
        let answer: Answer;
        try {
          answer = await once(url, headers);
        } catch (error) {
          const e = error as NodeJS.ErrnoException;
          if (e.code === 'EPRIVATE') throw errors.sourceUnreachable(`${shown}: ${e.message}`);
          if (e.code === 'ETOOLARGE') throw errors.sourceError(`${shown}: ${e.message}`);
          if (++failed > FAILURE_RETRIES) throw errors.sourceUnreachable(`${shown} did not answer (${e.code ?? e.message})`);
          await sleep(500 * failed);
          continue;
        }
        if (answer.status === 429 && ++limited <= RATE_LIMIT_RETRIES) {
          await sleep(Math.min(maxWaitMs, retryAfterMs(firstHeader(answer.headers['retry-after']))));
          continue;
        }
        if ((answer.status === 502 || answer.status === 503 || answer.status === 504) && ++failed <= FAILURE_RETRIES) {
          await sleep(500 * failed);
          continue;
        }
        let body: unknown = undefined;
        try {
          body = answer.body === '' ? undefined : JSON.parse(answer.body);
        } catch {
          if (answer.status >= 200 && answer.status < 300) throw errors.sourceError(`${shown} answered ${answer.status} with a body that is not JSON`);
        }
        if (answer.status >= 200 && answer.status < 300) return body;
        const said = body === undefined ? null : redacted(safeMessage(errorMessage, body), [...Object.values(headers), ...secretParams(url)]);
        const because = said ? `: ${said}` : '';
        if (answer.status === 401 || answer.status === 403) throw errors.sourceAuthFailed(`${shown} answered ${answer.status}${because}`);
        if (answer.status >= 300 && answer.status < 400) {
          throw errors.sourceError(`${shown} answered with a redirect to ${firstHeader(answer.headers.location) ?? 'elsewhere'}; give that address as the source`);
        }
        throw errors.sourceError(`${shown} answered ${answer.status}${because}`);
      }
    },
  };
}

/** A source that repeats the key in its error does not get it shown (the message may reach a log or a shared screen). */
function redacted(message: string | null, secrets: readonly string[]): string | null {
  if (message === null) return null;
  let text = message;
  for (const value of secrets) {
    for (const secret of [value, value.replace(/^Bearer\s+/i, '')]) if (secret.length >= 4) text = text.split(secret).join('[the key]');
  }
  return text;
}

/** Query parameters that carry a credential (YOURLS's `signature`). */
const secretParams = (url: URL): string[] => [...url.searchParams].filter(([name]) => /signature|key|token|password/i.test(name)).map(([, value]) => value);

const firstHeader = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** The source's own words for an error, kept short and on one line (they reach the person importing). */
function safeMessage(read: ((body: unknown) => string | null) | undefined, body: unknown): string | null {
  let text: unknown;
  try {
    text = read ? read(body) : null;
  } catch {
    return null;
  }
  if (typeof text !== 'string') return null;
  const line = withoutControlCharacters(text.replace(/\s+/g, ' ')).trim();
  return line === '' ? null : line.slice(0, 300);
}
