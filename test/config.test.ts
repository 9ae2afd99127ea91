import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS } from '../src/plans.js';
import { ConfigError, loadConfig, operatorEnvironment } from '../src/config.js';

const fixture = (name: string) => path.join(import.meta.dirname, 'fixtures', name);

/** loadConfig reads only the environment it is given, so each case passes its own. */
describe('loadConfig', () => {
  it('has the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 3000,
      host: '0.0.0.0',
      baseUrl: 'http://localhost:3000',
      dataDir: path.resolve('./data'),
      databaseUrl: null,
      trustProxy: false,
      redirectStatus: 302,
      logLevel: 'info',
      redisUrl: null,
      workers: 1,
      plans: DEFAULT_PLANS,
      geoipDb: null,
      webhookRetryDelaysMs: [30_000, 300_000, 1_800_000],
      webhookAllowPrivate: false,
      importAllowPrivate: false,
      dnsResolver: null,
      safeBrowsingApiKey: null,
      safeBrowsingUrl: null,
      threatListFile: null,
      cnameTarget: 'localhost',
      rootRedirect: null,
      databaseStartTimeoutMs: 30_000,
      publicRequestsPerMinute: 300,
      signupMode: 'open',
      authAttemptsPerAddress: 100,
      dashboardDir: path.join(path.resolve(import.meta.dirname, '..'), 'dist', 'app'),
      allowedHosts: [],
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      idleTimeoutMs: 5_000,
      maxConnections: 10_000,
    });
    expect(path.isAbsolute(config.dataDir)).toBe(true);
  });

  it('treats empty values as unset', () => {
    const config = loadConfig({ PORT: '', HOST: '', BASE_URL: '', DATA_DIR: '', DATABASE_URL: '', TRUST_PROXY: '', REDIRECT_STATUS: '', LOG_LEVEL: '', REDIS_URL: '', PLANS_FILE: '' });
    expect(config).toEqual(loadConfig({}));
  });

  it('refuses a SIGNUP other than open or closed, naming it; AUTH_ATTEMPTS_PER_ADDRESS may be unlimited', () => {
    expect(() => loadConfig({ SIGNUP: 'maybe' })).toThrow(/SIGNUP/);
    expect(loadConfig({ AUTH_ATTEMPTS_PER_ADDRESS: 'unlimited' }).authAttemptsPerAddress).toBeNull();
    expect(() => loadConfig({ AUTH_ATTEMPTS_PER_ADDRESS: '0' })).toThrow(/AUTH_ATTEMPTS_PER_ADDRESS/);
  });

  it('derives the default BASE_URL from PORT', () => {
    expect(loadConfig({ PORT: '8080' }).baseUrl).toBe('http://localhost:8080');
  });

  it('reads every setting', () => {
    const config = loadConfig({
      PORT: '4000',
      HOST: '127.0.0.1',
      BASE_URL: 'https://sho.rt/',
      DATA_DIR: 'some/dir',
      DATABASE_URL: 'postgres://user:pw@db:5432/snip',
      TRUST_PROXY: 'true',
      REDIRECT_STATUS: '301',
      LOG_LEVEL: 'warn',
      REDIS_URL: 'redis://cache:6379/2',
      WORKERS: '3',
      PLANS_FILE: fixture('plans-unmetered.json'),
      WEBHOOK_RETRY_DELAYS_MS: '100, 2000,0',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      IMPORT_ALLOW_PRIVATE: 'true',
      DNS_RESOLVER: '127.0.0.1:5353',
      SAFE_BROWSING_API_KEY: 'key-1',
      SAFE_BROWSING_URL: 'http://127.0.0.1:9000/',
      CNAME_TARGET: 'Custom.Sho.rt.',
      ROOT_REDIRECT: 'https://example.org/about?from=snip',
      DATABASE_START_TIMEOUT: '5',
      PUBLIC_REQUESTS_PER_MINUTE: '40',
      SIGNUP: 'Closed',
      AUTH_ATTEMPTS_PER_ADDRESS: '7',
      DASHBOARD_DIR: 'web/build',
      ALLOWED_HOSTS: ' Snip.Internal , 10.0.0.5,::1',
      HEADERS_TIMEOUT: '4',
      REQUEST_TIMEOUT: '60',
      IDLE_TIMEOUT: '2',
      MAX_CONNECTIONS: '500',
    });
    expect(config).toEqual({
      port: 4000,
      host: '127.0.0.1',
      baseUrl: 'https://sho.rt',
      dataDir: path.resolve('some/dir'),
      databaseUrl: 'postgres://user:pw@db:5432/snip',
      trustProxy: true,
      redirectStatus: 301,
      logLevel: 'warn',
      redisUrl: 'redis://cache:6379/2',
      workers: 3,
      geoipDb: null,
      webhookRetryDelaysMs: [100, 2000, 0],
      webhookAllowPrivate: true,
      importAllowPrivate: true,
      dnsResolver: '127.0.0.1:5353',
      safeBrowsingApiKey: 'key-1',
      safeBrowsingUrl: 'http://127.0.0.1:9000',
      threatListFile: null,
      cnameTarget: 'custom.sho.rt',
      rootRedirect: 'https://example.org/about?from=snip',
      databaseStartTimeoutMs: 5_000,
      publicRequestsPerMinute: 40,
      signupMode: 'closed',
      authAttemptsPerAddress: 7,
      dashboardDir: path.resolve('web/build'),
      allowedHosts: ['snip.internal', '10.0.0.5', '[::1]'],
      headersTimeoutMs: 4_000,
      requestTimeoutMs: 60_000,
      idleTimeoutMs: 2_000,
      maxConnections: 500,
      plans: { ...DEFAULT_PLANS, pro: { ...DEFAULT_PLANS.pro, requestsPerHour: null, requestsPerMonth: null, requestsPerMinute: null, linksPerDay: null, bulkRequestsPerHour: null }, builder: expect.objectContaining({ requestsPerHour: null, webhooks: 10 }), free: expect.objectContaining({ linksPerDay: null, folders: 5 }) },
    });
  });

  it('keeps an absolute DATA_DIR and a BASE_URL with a path (without its trailing slash)', () => {
    const dir = path.resolve('/var/lib/snip');
    expect(loadConfig({ DATA_DIR: dir }).dataDir).toBe(dir);
    expect(loadConfig({ BASE_URL: 'https://example.com/s/' }).baseUrl).toBe('https://example.com/s');
  });

  it('reads TRUST_PROXY as false, true, a hop count or a list of proxy addresses and CIDRs', () => {
    for (const yes of ['true', 'TRUE', 'yes']) expect(loadConfig({ TRUST_PROXY: yes }).trustProxy).toBe(true);
    for (const no of ['false', 'False', '0', 'no', '']) expect(loadConfig({ TRUST_PROXY: no }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.2,::1,fd00::/8, Loopback' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.2', '::1', 'fd00::/8', 'loopback']);
    for (const bad of ['maybe', '10.0.0.0/33', '10.0.0.300', 'example.com', '99']) expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
  });

  it('reads PUBLIC_REQUESTS_PER_MINUTE as a positive number or `unlimited`', () => {
    expect(loadConfig({ PUBLIC_REQUESTS_PER_MINUTE: 'Unlimited' }).publicRequestsPerMinute).toBeNull();
    for (const bad of ['0', '-1', 'many']) expect(() => loadConfig({ PUBLIC_REQUESTS_PER_MINUTE: bad }), bad).toThrow(/PUBLIC_REQUESTS_PER_MINUTE/);
  });

  it('refuses ALLOWED_HOSTS entries that are not host names, and timeouts or a connection cap out of range', () => {
    for (const bad of ['https://snip.example', 'snip.example:8080', 'a b', 'snip..example']) expect(() => loadConfig({ ALLOWED_HOSTS: bad }), bad).toThrow(/ALLOWED_HOSTS/);
    for (const name of ['HEADERS_TIMEOUT', 'REQUEST_TIMEOUT', 'IDLE_TIMEOUT', 'MAX_CONNECTIONS']) {
      for (const bad of ['0', '-5', 'soon']) expect(() => loadConfig({ [name]: bad }), `${name}=${bad}`).toThrow(new RegExp(name));
    }
  });

  it('accepts postgresql:// as well as postgres://', () => {
    expect(loadConfig({ DATABASE_URL: 'postgresql://localhost/test' }).databaseUrl).toBe('postgresql://localhost/test');
  });

  it('accepts every redirect status Snip can send and PORT 0', () => {
    for (const status of [301, 302, 303, 307, 308]) expect(loadConfig({ REDIRECT_STATUS: String(status) }).redirectStatus).toBe(status);
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
    expect(loadConfig({ PORT: '65535' }).port).toBe(65535);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '-1'],
    ['PORT', '3000.5'],
    ['PORT', '65536'],
    ['PORT', ' 3000'],
    ['BASE_URL', 'ftp://x'],
    ['BASE_URL', 'not a url'],
    ['BASE_URL', 'localhost:3000'],
    ['BASE_URL', 'javascript:alert(1)'],
    ['BASE_URL', 'https://sho.rt/?a=1'],
    ['BASE_URL', 'https://sho.rt/#top'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'sqlite://./data/snip.db'],
    ['TRUST_PROXY', 'maybe'],
    ['TRUST_PROXY', '10.0.0.0/99'],
    ['REDIRECT_STATUS', '200'],
    ['REDIRECT_STATUS', '304'],
    ['REDIRECT_STATUS', '404'],
    ['REDIRECT_STATUS', 'found'],
    ['LOG_LEVEL', 'verbose'],
    ['REDIS_URL', 'http://cache:6379'],
    ['WORKERS', 'many'],
    ['WORKERS', '0'],
    ['ROOT_REDIRECT', 'ftp://example.org'],
    ['ROOT_REDIRECT', 'not a url'],
    ['DATABASE_START_TIMEOUT', 'soon'],
    ['PLANS_FILE', '/nonexistent/plans.json'],
    ['PLANS_FILE', fixture('bad-plans-negative.json')],
    ['PLANS_FILE', fixture('bad-plans-unknown-tier.json')],
    ['PLANS_FILE', fixture('bad-plans-syntax.json')],
    ['WEBHOOK_RETRY_DELAYS_MS', '30s,5m'],
    ['WEBHOOK_RETRY_DELAYS_MS', '100,,200'],
    ['WEBHOOK_RETRY_DELAYS_MS', '-1'],
    ['WEBHOOK_ALLOW_PRIVATE', 'sometimes'],
    ['IMPORT_ALLOW_PRIVATE', 'sometimes'],
    ['DNS_RESOLVER', '127.0.0.1'],
    ['DNS_RESOLVER', '127.0.0.1:99999'],
    ['DNS_RESOLVER', 'dns server:53'],
    ['SAFE_BROWSING_URL', 'ftp://sb.example'],
    ['CNAME_TARGET', 'not a host'],
    ['CNAME_TARGET', 'https://custom.sho.rt'],
    ['THREAT_LIST_FILE', '/nonexistent/threats.txt'],
    ['THREAT_LIST_FILE', fixture('plans-unmetered.json')],
  ])('rejects %s=%j with a ConfigError naming the variable', (name, value) => {
    let thrown: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).message).toContain(name);
    expect((thrown as ConfigError).name).toBe('ConfigError');
  });

  it('does not read process.env when given an environment', () => {
    const saved = process.env.PORT;
    process.env.PORT = 'abc';
    try {
      expect(loadConfig({}).port).toBe(3000);
    } finally {
      if (saved === undefined) delete process.env.PORT;
      else process.env.PORT = saved;
    }
  });
});

describe('operatorEnvironment (.env file)', () => {
  it('fills the variables the environment leaves unset, and never overrides one that is set', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-env-'));
    const file = path.join(dir, '.env');
    fs.writeFileSync(file, 'SNIP_ENV_TEST_SET=from-file\nSNIP_ENV_TEST_UNSET="from file"\n# a comment\n');
    process.env.SNIP_ENV_TEST_SET = 'from-environment';
    try {
      const env = operatorEnvironment(file);
      expect(env.SNIP_ENV_TEST_SET).toBe('from-environment');
      expect(env.SNIP_ENV_TEST_UNSET).toBe('from file');
    } finally {
      delete process.env.SNIP_ENV_TEST_SET;
      delete process.env.SNIP_ENV_TEST_UNSET;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is optional: without the file the environment is used as it is', () => {
    expect(operatorEnvironment(path.join(os.tmpdir(), 'no-such-dir', '.env'))).toBe(process.env);
  });
});
