import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Dns } from '../net/dns.js';
import { ALLOW_PRIVATE_HINT, isBadPort, isPublicAddress } from './address-guard.js';

export interface SendResult {
  /** A 2xx answer within the timeout. */
  ok: boolean;
  /** The receiver's status; null when no answer came (refused, unsafe address, timeout). */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}


/**
 * POSTs one delivery. The host is resolved here and every address it resolves to must be public (unless
 * private addresses are allowed); the connection then goes to the address that was checked, so a DNS answer
 * that changes in between (rebinding) cannot point the request somewhere else.
 */
export class WebhookSender {
  constructor(
    private readonly dns: Dns,
    private readonly allowPrivate: boolean,
    private readonly timeoutMs = 10_000,
  ) {}

  async send(target: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const url = new URL(target);
    let pinned: { address: string; family: number };
    try {
      pinned = await this.pin(url);
    } catch (error) {
      return { ok: false, statusCode: null, durationMs: elapsed(), error: (error as Error).message };
    }
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
      else callback(null, pinned.address, pinned.family);
    };
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (result: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, durationMs: elapsed() });
      };
      const request = client.request(
        url,
        {
          method: 'POST',
          agent: false,
          lookup,
          headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Snip-Webhooks/1.0', ...headers },
        },
        (response) => {
          const status = response.statusCode ?? 0;
          response.resume(); // the answer's body is not needed; drain it so the socket closes
          finish({ ok: status >= 200 && status < 300, statusCode: status, error: status >= 200 && status < 300 ? null : `HTTP ${status}` });
        },
      );
      const timer = setTimeout(() => {
        finish({ ok: false, statusCode: null, error: `no answer within ${this.timeoutMs} ms` });
        request.destroy();
      }, this.timeoutMs);
      request.on('error', (error) => finish({ ok: false, statusCode: null, error: error.message }));
      request.end(body);
    });
  }

  private async pin(url: URL): Promise<{ address: string; family: number }> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isBadPort(url)) throw new Error(`refused: port ${url.port} belongs to another protocol`);
    const addresses = ipaddr.isValid(host) ? [{ address: host, family: host.includes(':') ? 6 : 4 }] : await this.dns.addresses(host);
    if (addresses.length === 0) throw new Error(`${host} does not resolve`);
    if (!this.allowPrivate) {
      const unsafe = addresses.find((a) => !isPublicAddress(a.address));
      // The address itself is not named: a webhook test must not tell its caller what an internal name resolves to.
      if (unsafe) throw new Error(`refused: ${host} resolves to an address that is not a public address; ${ALLOW_PRIVATE_HINT}`);
    }
    return addresses[0]!;
  }
}
