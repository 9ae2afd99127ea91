import http from 'node:http';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp, TestUser } from '../helpers/app.js';

/** Real user agents, one per device rule they should satisfy. */
export const UA = {
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  linux: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  ubuntu: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  chromebook: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
};

/** Addresses the bundled DB-IP City Lite places in these countries (checked in test/clicks for GB and US). */
export const IP = { DE: '85.214.132.117', FR: '193.51.224.1', GB: '81.2.69.142', US: '8.8.8.8', JP: '133.242.0.1' };

/** Link-preview bots as they introduce themselves. */
export const PREVIEW_BOTS: Record<string, string> = {
  Twitterbot: 'Twitterbot/1.0',
  facebookexternalhit: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Slackbot-LinkExpanding': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  LinkedInBot: 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  Discordbot: 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  WhatsApp: 'WhatsApp/2.23.20.0 A',
  TelegramBot: 'TelegramBot (like TwitterBot)',
};

export interface Visit {
  ua?: string;
  /** Sent as X-Forwarded-For (the app trusts the proxy). */
  ip?: string;
  lang?: string;
  query?: string;
  cookie?: string;
  method?: 'GET' | 'HEAD';
}

export function visitors(t: TestApp, owner: () => TestUser) {
  const create = async (body: Record<string, unknown>): Promise<string> => {
    const res = await t.as(owner(), { method: 'POST', url: '/api/v1/links', payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ shortCode: string }>().shortCode;
  };
  const visit = (code: string, v: Visit = {}): Promise<LightMyRequestResponse> => {
    const headers: Record<string, string> = { 'user-agent': v.ua ?? UA.windows };
    if (v.ip) headers['x-forwarded-for'] = v.ip;
    if (v.lang) headers['accept-language'] = v.lang;
    if (v.cookie) headers.cookie = v.cookie;
    return t.app.inject({ method: v.method ?? 'GET', url: `/${code}${v.query ? `?${v.query}` : ''}`, headers });
  };
  /** Where a visit was sent: its Location, asserting the redirect. */
  const goes = async (code: string, v: Visit = {}): Promise<string> => {
    const res = await visit(code, v);
    expect(res.statusCode, `${JSON.stringify(v)}: ${res.body}`).toBe(302);
    return res.headers.location as string;
  };
  const details = async (code: string) => {
    const res = await t.as(owner(), { method: 'GET', url: `/api/v1/links/${code}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Record<string, unknown> & { clicks: number }>();
  };
  const clicks = async (code: string) => (await details(code)).clicks;
  const resolve = async (code: string, q: Record<string, string>) => {
    const res = await t.as(owner(), { method: 'GET', url: `/api/v1/links/${code}/resolve?${new URLSearchParams(q)}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ url: string | null; reason: string; rule?: number }>();
  };
  return { create, visit, goes, details, clicks, resolve };
}

/** A raw HTTP request to a listening app (the fast path only exists there). */
export function call(port: number, path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers: { host: 'snip.test', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
