import os from 'node:os';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { loadPlans, type Plans } from './plans.js';
import { readThreatList } from './net/threat-list.js';
import { normalHostname } from './net/hostname.js';
import { packageRoot } from './runtime/package-root.js';

export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

export type TrustProxy = boolean | number | string[];

export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  /**
   * Which proxies' X-Forwarded-For is believed (Fastify's trustProxy): false (none), a hop count, a list of proxy
   * addresses and CIDRs, or true (every hop: a client can then pick its own address, so start-up warns).
   */
  trustProxy: TrustProxy;
  redirectStatus: RedirectStatus;
  logLevel: string;
  redisUrl: string | null;
  /** Server processes `npm start` runs on the one port (WORKERS: a number, or `auto` for one per CPU); 1 by default. */
  workers: number;
  plans: Plans;
  geoipDb: string | null;
  /** Delays before each webhook retry; a delivery is abandoned after the last one fails. */
  webhookRetryDelaysMs: number[];
  /** Development and tests only: webhooks may use http:// and private, loopback or link-local addresses. */
  webhookAllowPrivate: boolean;
  /** Imports started over the API may read a source on a private network (the operator's CLI always may). */
  importAllowPrivate: boolean;
  /** `host:port` of the DNS server to ask instead of the system's resolver. */
  dnsResolver: string | null;
  /** Google Safe Browsing v4 key; unset, links are scanned with the local sources only. */
  safeBrowsingApiKey: string | null;
  /** Another address for the Safe Browsing API (a stub in tests, a proxy in production). */
  safeBrowsingUrl: string | null;
  /** An operator's threat list, added to the built-in one. */
  threatListFile: string | null;
  /** The hostname custom domains point their CNAME record at (BASE_URL's host unless set). */
  cnameTarget: string;
  /** Where `GET /` on Snip's own host sends visitors; unset, a small page says what this server is. */
  rootRedirect: string | null;
  /** How long start-up keeps trying to reach PostgreSQL before it gives up (a database starting alongside). */
  databaseStartTimeoutMs: number;
  /** Requests one client address may make per minute of what needs no key (QR images, trust scores, public stats, misses); null: no limit. */
  publicRequestsPerMinute: number | null;
  /**
   * Who may create an account from the dashboard's sign-up page until an operator changes it in the Admin area
   * (SIGNUP): `open` anyone, `invite` with an operator's invite link, `closed` nobody (the CLI still can).
   */
  signupMode: 'open' | 'invite' | 'closed';
  /** Failed sign-ins and sign-ups one client address may make per 15 minutes; null: no limit. */
  authAttemptsPerAddress: number | null;
  /** The built dashboard (dist/app unless set): `npm run build` makes it. */
  dashboardDir: string;
  /**
   * Host names the API, the dashboard, MCP and OAuth answer on besides BASE_URL's (ALLOWED_HOSTS); loopback names
   * are always answered. Custom domains answer redirects only; health checks answer on any host.
   */
  allowedHosts: string[];
  /** How long a client may take to send a request's headers, from the moment it connects (HEADERS_TIMEOUT). */
  headersTimeoutMs: number;
  /** How long a client may take to send a whole request, headers and body (REQUEST_TIMEOUT). */
  requestTimeoutMs: number;
  /** How long a kept-alive connection may sit idle between requests before it is closed (IDLE_TIMEOUT). */
  idleTimeoutMs: number;
  /** Open connections one process holds at most; beyond it new ones are refused at once (MAX_CONNECTIONS). */
  maxConnections: number;
}

/** A setting that cannot be used; start stops with this message, which names the variable. */
export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid setting ${variable}: ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const REDIRECT_STATUSES: RedirectStatus[] = [301, 302, 303, 307, 308];

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(name, `expected true or false, got "${env[name]}"`);
}

/** proxy-addr's names for address ranges, accepted in a TRUST_PROXY list as Fastify accepts them. */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: `false` (the default), a number of proxy hops in front of Snip (`1` behind one nginx), a comma
 * list of the proxies' addresses or CIDRs (`10.0.0.0/8,192.168.1.2`, or `loopback`), or `true` for every hop.
 */
function trustProxy(env: Env): TrustProxy {
  const raw = env.TRUST_PROXY?.trim() ?? '';
  const lower = raw.toLowerCase();
  if (lower === '' || lower === 'false' || lower === 'no' || lower === '0') return false;
  if (lower === 'true' || lower === 'yes') return true;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 32) throw new ConfigError('TRUST_PROXY', `expected at most 32 proxy hops, got ${raw}`);
    return hops;
  }
  const entries = raw.split(',').map((e) => e.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = net.isIP(address ?? '');
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!(PROXY_RANGES.has(entry.toLowerCase()) || (family !== 0 && bitsOk && extra === undefined))) {
      throw new ConfigError('TRUST_PROXY', `expected false, true, a number of proxy hops, or a comma list of proxy addresses and CIDRs; "${entry}" is none of these`);
    }
  }
  return entries.map((e) => (PROXY_RANGES.has(e.toLowerCase()) ? e.toLowerCase() : e));
}

function httpUrl(name: string, raw: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `not a URL: "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(name, 'must be an http:// or https:// URL');
  }
  if (parsed.search || parsed.hash) throw new ConfigError(name, 'must not carry a query or fragment');
  return parsed.toString().replace(/\/+$/, '');
}

function rootRedirect(env: Env): string | null {
  const raw = env.ROOT_REDIRECT;
  if (raw === undefined || raw === '') return null;
  const url = URL.parse(raw);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new ConfigError('ROOT_REDIRECT', `expected an http:// or https:// URL, got "${raw}"`);
  return url.toString();
}

function signup(env: Env): Config['signupMode'] {
  const raw = env.SIGNUP?.trim().toLowerCase() || 'open';
  if (raw !== 'open' && raw !== 'invite' && raw !== 'closed') throw new ConfigError('SIGNUP', 'use open, invite or closed');
  return raw;
}

function databaseUrl(env: Env): string | null {
  const raw = env.DATABASE_URL;
  if (raw === undefined || raw === '') return null;
  if (!/^postgres(ql)?:\/\//.test(raw)) {
    throw new ConfigError('DATABASE_URL', 'must start with postgres:// (leave it unset for the embedded SQLite database)');
  }
  return raw;
}

function redisUrl(env: Env): string | null {
  const raw = env.REDIS_URL;
  if (raw === undefined || raw === '') return null;
  if (!/^rediss?:\/\//.test(raw)) throw new ConfigError('REDIS_URL', 'must start with redis:// or rediss://');
  return raw;
}

function plans(env: Env): Plans {
  try {
    return loadPlans(env.PLANS_FILE || null);
  } catch (error) {
    throw new ConfigError('PLANS_FILE', error instanceof Error ? error.message : String(error));
  }
}

function geoipDb(env: Env): string | null {
  const file = env.GEOIP_DB;
  if (!file) return null;
  if (!fs.existsSync(file)) throw new ConfigError('GEOIP_DB', `no such file: ${file}`);
  return path.resolve(file);
}

function retryDelays(env: Env): number[] {
  const raw = env.WEBHOOK_RETRY_DELAYS_MS;
  if (raw === undefined || raw === '') return [30_000, 300_000, 1_800_000];
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.some((p) => !/^\d+$/.test(p)) || parts.length > 10) {
    throw new ConfigError('WEBHOOK_RETRY_DELAYS_MS', `expected up to 10 comma-separated millisecond counts, got "${raw}"`);
  }
  return parts.map(Number);
}

function threatListFile(env: Env): string | null {
  const file = env.THREAT_LIST_FILE;
  if (!file) return null;
  try {
    readThreatList(file);
  } catch (error) {
    throw new ConfigError('THREAT_LIST_FILE', error instanceof Error ? error.message : String(error));
  }
  return path.resolve(file);
}

function cnameTarget(env: Env, baseUrl: string): string {
  const raw = env.CNAME_TARGET;
  if (raw === undefined || raw === '') return new URL(baseUrl).hostname;
  const host = normalHostname(raw);
  if (!/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/.test(host)) {
    throw new ConfigError('CNAME_TARGET', `expected a hostname such as custom.snip.example, got "${raw}"`);
  }
  return host;
}

function dnsResolver(env: Env): string | null {
  const raw = env.DNS_RESOLVER;
  if (raw === undefined || raw === '') return null;
  const match = /^(?:\[([0-9a-fA-F:]+)\]|([^:\s]+)):(\d{1,5})$/.exec(raw);
  if (!match || Number(match[3]) < 1 || Number(match[3]) > 65535) throw new ConfigError('DNS_RESOLVER', `expected host:port (IPv6 as [addr]:port), got "${raw}"`);
  return raw;
}

/**
 * The settings of a process started by an operator (the server or the CLI): its environment, plus a `.env` file
 * in the working directory for any variable the environment leaves unset. Both read the same file, so the CLI
 * builds the same short URLs and opens the same database as the server.
 */
export function operatorEnvironment(file = '.env'): Env {
  if (fs.existsSync(file)) {
    try {
      process.loadEnvFile(file);
    } catch (error) {
      throw new ConfigError(path.resolve(file), `cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return process.env;
}

/** ALLOWED_HOSTS: a comma list of host names (no scheme, no port), checked like CNAME_TARGET. */
function allowedHosts(env: Env): string[] {
  const raw = env.ALLOWED_HOSTS?.trim() ?? '';
  if (raw === '') return [];
  return raw.split(',').map((entry) => entry.trim()).filter(Boolean).map((entry) => {
    const host = normalHostname(entry);
    const ip = host.replace(/^\[|\]$/g, '');
    if (net.isIP(ip) === 0 && !/^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/.test(host)) {
      throw new ConfigError('ALLOWED_HOSTS', `expected a comma list of host names such as snip.example,10.0.0.5 (no scheme or port), got "${entry}"`);
    }
    return net.isIP(ip) === 6 ? `[${ip}]` : host;
  });
}

function workers(env: Env): number {
  const raw = env.WORKERS?.trim().toLowerCase();
  if (raw === 'auto') return os.availableParallelism();
  if (raw !== undefined && raw !== '' && !/^\d+$/.test(raw)) throw new ConfigError('WORKERS', `a number of processes (1-256) or "auto", got "${env.WORKERS}"`);
  return integer(env, 'WORKERS', 1, 1, 256);
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', `one of ${LOG_LEVELS.join(', ')}`);
  const redirectStatus = integer(env, 'REDIRECT_STATUS', 302, 300, 399) as RedirectStatus;
  if (!REDIRECT_STATUSES.includes(redirectStatus)) {
    throw new ConfigError('REDIRECT_STATUS', `one of ${REDIRECT_STATUSES.join(', ')}`);
  }
  const baseUrl = httpUrl('BASE_URL', env.BASE_URL || `http://localhost:${port}`);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    baseUrl,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: databaseUrl(env),
    trustProxy: trustProxy(env),
    redirectStatus,
    logLevel,
    redisUrl: redisUrl(env),
    workers: workers(env),
    plans: plans(env),
    geoipDb: geoipDb(env),
    webhookRetryDelaysMs: retryDelays(env),
    webhookAllowPrivate: boolean(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    importAllowPrivate: boolean(env, 'IMPORT_ALLOW_PRIVATE', false),
    dnsResolver: dnsResolver(env),
    safeBrowsingApiKey: env.SAFE_BROWSING_API_KEY || null,
    safeBrowsingUrl: env.SAFE_BROWSING_URL ? httpUrl('SAFE_BROWSING_URL', env.SAFE_BROWSING_URL) : null,
    threatListFile: threatListFile(env),
    cnameTarget: cnameTarget(env, baseUrl),
    rootRedirect: rootRedirect(env),
    databaseStartTimeoutMs: integer(env, 'DATABASE_START_TIMEOUT', 30, 0, 3600) * 1000,
    publicRequestsPerMinute: env.PUBLIC_REQUESTS_PER_MINUTE?.trim().toLowerCase() === 'unlimited' ? null : integer(env, 'PUBLIC_REQUESTS_PER_MINUTE', 300, 1, 1_000_000),
    signupMode: signup(env),
    authAttemptsPerAddress: env.AUTH_ATTEMPTS_PER_ADDRESS?.trim().toLowerCase() === 'unlimited' ? null : integer(env, 'AUTH_ATTEMPTS_PER_ADDRESS', 100, 1, 1_000_000),
    dashboardDir: env.DASHBOARD_DIR?.trim() ? path.resolve(env.DASHBOARD_DIR.trim()) : path.join(packageRoot, 'dist', 'app'),
    allowedHosts: allowedHosts(env),
    headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT', 10, 1, 3600) * 1000,
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT', 30, 1, 3600) * 1000,
    idleTimeoutMs: integer(env, 'IDLE_TIMEOUT', 5, 1, 3600) * 1000,
    maxConnections: integer(env, 'MAX_CONNECTIONS', 10_000, 1, 1_000_000),
  };
}
