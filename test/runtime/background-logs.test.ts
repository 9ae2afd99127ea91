import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../src/caller.js';
import { loadConfig } from '../../src/config.js';
import { createCore, type Core } from '../../src/core.js';
import { SafeBrowsingClient } from '../../src/trust/safe-browsing.js';
import { dialectName, testDatabaseUrl } from '../helpers/app.js';
import { projectRoot } from '../helpers/processes.js';
import { closedPort, startReceiver, waitFor, type Receiver } from '../helpers/receiver.js';

/**
 * What an operator reads in the log of Snip's background work: one structured line per notable event (an
 * abandoned webhook delivery, a failed trust scan, a recovered click journal), not none and not one per retry.
 * The core runs as it does in the server, with its logger writing pino's JSON lines into an array.
 */

const PLANS_FILE = path.join(import.meta.dirname, '..', 'fixtures', 'plans-unmetered.json');
const WARN = 40;
const INFO = 30;
const DEBUG = 20;

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A core on `dataDir` (and, on PostgreSQL, `schema`) whose log lines, from debug up, land in `lines`/`raw`. */
interface LoggedCore {
  core: Core;
  lines: LogLine[];
  /** Every line exactly as pino wrote it, for checks that a secret appears nowhere. */
  raw: string[];
  caller(email: string): Promise<Caller>;
  /** The lines with this message. */
  withMsg(msg: string): LogLine[];
}

interface Place {
  dataDir: string;
  schema: string | undefined;
  env: Record<string, string>;
}

const places: Place[] = [];

function newPlace(env: Record<string, string> = {}): Place {
  const place = {
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'snip-logs-')),
    schema: testDatabaseUrl ? `t_${randomBytes(6).toString('hex')}` : undefined,
    env,
  };
  places.push(place);
  return place;
}

const configEnv = (place: Place): Record<string, string> => ({
  BASE_URL: 'http://snip.test',
  DATA_DIR: place.dataDir,
  LOG_LEVEL: 'debug',
  PLANS_FILE,
  ...(testDatabaseUrl ? { DATABASE_URL: testDatabaseUrl } : {}),
  ...place.env,
});

async function openCore(place: Place): Promise<LoggedCore> {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const stream = {
    write(text: string) {
      raw.push(text);
      lines.push(JSON.parse(text) as LogLine);
    },
  };
  const logger = pino({ level: 'debug' }, stream) as unknown as FastifyBaseLogger;
  const core = await createCore(loadConfig(configEnv(place)), logger, { pgSchema: place.schema });
  return {
    core,
    lines,
    raw,
    caller: (email) => core.accounts.callerFor(email),
    withMsg: (msg) => lines.filter((l) => l.msg === msg),
  };
}

afterAll(async () => {
  for (const place of places) {
    fs.rmSync(place.dataDir, { recursive: true, force: true });
    if (place.schema && testDatabaseUrl) {
      const client = new pg.Client({ connectionString: testDatabaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${place.schema} CASCADE`);
      await client.end();
    }
  }
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function proAccount(logged: LoggedCore): Promise<Caller> {
  const email = `logs-${randomBytes(4).toString('hex')}@example.com`;
  await logged.core.accounts.createAccount({ email, tier: 'pro' });
  return logged.caller(email);
}

describe(`an abandoned webhook delivery (${dialectName})`, () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => receiver?.close());

  it('logs one warning with the webhook, delivery, event, attempts and last status, and each retry once at debug', async () => {
    const logged = await openCore(newPlace({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_DELAYS_MS: '20,20' }));
    try {
      const caller = await proAccount(logged);
      const secret = `whsec_${randomBytes(16).toString('hex')}`;
      const hookUrl = receiver.endpoint('/abandoned', 500);
      const hook = await logged.core.webhooks.create(caller, { url: hookUrl, events: ['link.created'], secret });
      const link = await logged.core.links.create(caller, { url: 'https://example.com/abandoned-delivery' });

      const [abandoned] = await waitFor('the abandoned line', () => {
        const found = logged.withMsg('webhook delivery abandoned');
        return found.length > 0 && found;
      });
      // Three attempts (the first and the two retries), all refused; then nothing more, and no second line.
      await sleep(300);
      const attempts = receiver.to('/abandoned');
      expect(attempts).toHaveLength(3);
      const deliveryId = attempts[0]!.headers['x-snip-delivery'];
      expect(logged.withMsg('webhook delivery abandoned')).toHaveLength(1);
      expect(abandoned).toMatchObject({
        level: WARN,
        webhookId: hook.id,
        deliveryId,
        accountId: caller.accountId,
        event: 'link.created',
        attempts: 3,
        lastStatus: 500,
        lastError: 'HTTP 500',
      });

      const retries = logged.withMsg('webhook delivery failed; will retry');
      expect(retries.map((l) => [l.level, l.deliveryId, l.attempts, l.lastStatus])).toEqual([
        [DEBUG, deliveryId, 1, 500],
        [DEBUG, deliveryId, 2, 500],
      ]);
      // Nothing about the delivery above debug but the one warning, and never the secret, the body or the URL.
      const aboveDebug = logged.lines.filter((l) => l.level > DEBUG && l.deliveryId !== undefined);
      expect(aboveDebug).toEqual([abandoned]);
      const body = attempts[0]!.body.toString('utf8');
      for (const text of logged.raw) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(body);
        expect(text).not.toContain(hookUrl);
      }
      expect(JSON.parse(body).data.shortCode).toBe(link.code);
    } finally {
      await logged.core.close();
    }
  });
});

/** A Safe Browsing stand-in that answers every lookup with `status` and remembers the request paths. */
async function failingSafeBrowsing(status: number): Promise<{ origin: string; paths: string[]; close(): Promise<void> }> {
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    req.resume();
    req.on('end', () => res.writeHead(status, { 'content-type': 'application/json' }).end('{"error":{"code":500,"message":"backend error"}}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe(`a failed trust scan (${dialectName})`, () => {
  const KEY = `AIza-test-${randomBytes(12).toString('hex')}`;

  /** Creates a link, waits for its scan, and answers the link and the log lines of its failed scan. */
  async function scanWith(logged: LoggedCore, url: string): Promise<{ link: { id: string; code: string }; failed: LogLine[] }> {
    const caller = await proAccount(logged);
    const link = await logged.core.links.create(caller, { url });
    await logged.core.trust.settle();
    return { link, failed: logged.withMsg('link scan failed') };
  }

  it('Safe Browsing answering 500: one warning naming the link, the source and the status; the key is in no line', async () => {
    const stub = await failingSafeBrowsing(500);
    const logged = await openCore(newPlace({ SAFE_BROWSING_API_KEY: KEY, SAFE_BROWSING_URL: stub.origin }));
    try {
      const { link, failed } = await scanWith(logged, 'https://example.com/scan-500');
      expect(failed).toHaveLength(1);
      expect(failed[0]).toEqual({
        level: WARN,
        time: expect.any(Number),
        pid: process.pid,
        hostname: os.hostname(),
        msg: 'link scan failed',
        linkId: link.id,
        code: link.code,
        source: 'google-safe-browsing',
        error: 'Safe Browsing answered 500',
        partial: true,
      });
      // The lookup did carry the key in its query string; the log never does.
      expect(stub.paths).toHaveLength(1);
      expect(stub.paths[0]).toContain(`key=${KEY}`);
      for (const text of logged.raw) expect(text).not.toContain(KEY);
      // Scored from the local sources all the same.
      expect(await logged.core.trust.score(link.code)).toMatchObject({ trustStatus: 'safe', source: 'snip-local' });
    } finally {
      await logged.core.close();
      await stub.close();
    }
  });

  it('Safe Browsing unreachable (a closed port): one warning saying so, without the key or the lookup URL', async () => {
    const origin = `http://127.0.0.1:${await closedPort()}`;
    const logged = await openCore(newPlace({ SAFE_BROWSING_API_KEY: KEY, SAFE_BROWSING_URL: origin }));
    try {
      const { link, failed } = await scanWith(logged, 'https://example.com/scan-unreachable');
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ level: WARN, linkId: link.id, code: link.code, source: 'google-safe-browsing', partial: true });
      expect(failed[0]!.error).toMatch(/^Safe Browsing unreachable: fetch failed: .*ECONNREFUSED/);
      for (const text of logged.raw) {
        expect(text).not.toContain(KEY);
        expect(text).not.toContain('threatMatches');
      }
    } finally {
      await logged.core.close();
    }
  });

  it('an error quoting the lookup URL (fetch cannot parse it) has the key redacted', async () => {
    const client = new SafeBrowsingClient(KEY, 'http://not a host');
    const failure = await client.check(new URL('https://example.com/')).then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toMatch(/^Safe Browsing unreachable: Failed to parse URL from .*key=\[redacted\]/);
    expect(failure?.message).not.toContain(KEY);
    expect(failure?.stack).not.toContain(KEY);
    expect(failure?.cause).toBeUndefined();
  });
});

/**
 * Starts a core in a child process on `place`, records `clicks` visits of a new link (journaled, so answered,
 * but not yet committed: the commit comes CLICK_FLUSH_MS later) and kills that process with SIGKILL.
 */
async function dieWithClicksInJournal(place: Place, email: string, clicks: number): Promise<string> {
  const scriptDir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-logs-child-'));
  // .mts: an ES module wherever it lies (top-level await); imports by absolute URL, as it lies outside the project.
  const script = path.join(scriptDir, 'die.mts');
  const src = (file: string) => JSON.stringify(pathToFileURL(path.join(projectRoot, 'src', file)).href);
  fs.writeFileSync(
    script,
    `import fs from 'node:fs';
import pino from ${JSON.stringify(pathToFileURL(createRequire(import.meta.url).resolve('pino')).href)};
import { loadConfig } from ${src('config.ts')};
import { createCore } from ${src('core.ts')};
const { env, schema, email, clicks, out } = JSON.parse(process.argv[2]);
const core = await createCore(loadConfig(env), pino({ level: 'silent' }), { pgSchema: schema });
await core.accounts.createAccount({ email, tier: 'pro' });
const link = await core.links.create(await core.accounts.callerFor(email), { url: 'https://example.com/journal' });
fs.writeFileSync(out, link.code);
const visit = { linkId: link.id, accountId: link.accountId, ip: '203.0.113.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/126.0', referer: undefined, counted: false };
// One turn: one journal write, after which every visit counts as answered; the commit would come 20 ms later.
await Promise.all(Array.from({ length: clicks }, () => core.clicks.record(visit)));
process.kill(process.pid, 'SIGKILL');
`,
  );
  const out = path.join(scriptDir, 'code');
  const args = JSON.stringify({ env: configEnv(place), schema: place.schema, email, clicks, out });
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', script, args], { cwd: projectRoot, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const signal = await new Promise<NodeJS.Signals | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (_code, sig) => resolve(sig));
    });
    expect(signal, stderr).toBe('SIGKILL');
    return fs.readFileSync(out, 'utf8');
  } finally {
    fs.rmSync(scriptDir, { recursive: true, force: true });
  }
}

describe(`a recovered click journal (${dialectName})`, () => {
  it('the start after a killed process logs one line with the segments, the clicks and the directory; a clean start logs none', async () => {
    const place = newPlace();
    const email = `journal-${randomBytes(4).toString('hex')}@example.com`;
    const N = 7;
    const code = await dieWithClicksInJournal(place, email, N);
    const journalRoot = path.join(place.dataDir, 'journal');
    const left = fs.readdirSync(journalRoot);
    expect(left).toHaveLength(1);

    const first = await openCore(place);
    try {
      const recovered = first.withMsg('click journal recovered');
      expect(recovered).toHaveLength(1);
      expect(recovered[0]).toMatchObject({ level: INFO, journal: left[0], directory: path.join(journalRoot, left[0]!), segments: 1, clicks: N });
      // The clicks were committed, not just counted in the log.
      expect((await first.core.links.get(await first.caller(email), code)).clicks).toBe(N);
    } finally {
      await first.core.close();
    }

    // The journal is gone with its clicks: the next start has nothing to recover and says nothing about it.
    const second = await openCore(place);
    try {
      expect(second.withMsg('click journal recovered')).toEqual([]);
      expect(second.lines.filter((l) => l.level >= INFO && /journal|recover/i.test(l.msg))).toEqual([]);
    } finally {
      await second.core.close();
    }
  });
});
