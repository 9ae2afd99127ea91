import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import type { Clock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';

/**
 * Seeds 1,000,000 clicks on one link, spread over the past year, through the real recorder (journal, batches,
 * rollups), then times the 365-day aggregate over HTTP (app.inject). Target: under 200 ms on SQLite.
 */
const TOTAL = Number(process.env.BENCH_CLICKS ?? 1_000_000);
const DAY = 86_400_000;
const start = Date.now() - 364 * DAY;
let now = start;
const clock: Clock = { now: () => new Date(now) };

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-bench-agg-'));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
const { app, core } = await buildApp(config, { clock });
const user = await core.accounts.createAccount({ email: 'agg-bench@example.com', tier: 'enterprise' });
const caller = await core.accounts.authenticate(user.apiKey);
const link = await core.links.create(caller, { url: 'https://example.com/landing' });

const agents = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
];
const referers = ['https://news.ycombinator.com/', 'https://www.google.com/', undefined, 'https://t.co/x'];
const seedStarted = performance.now();
const step = (364 * DAY) / TOTAL; // the last click lands today, inside the 365-day window
for (let i = 0; i < TOTAL; i++) {
  now = start + Math.floor(i * step);
  void core.clicks.record({
    linkId: link.id,
    accountId: caller.accountId,
    ip: `${81 + (i % 50)}.${(i >> 3) % 250}.${i % 200}.${i % 250}`,
    userAgent: agents[i % agents.length]!,
    referer: referers[i % referers.length],
    counted: false,
  });
  if (i % 20_000 === 19_999) await core.clicks.settle();
}
await core.clicks.settle();
const seedSeconds = (performance.now() - seedStarted) / 1000;

const runs: number[] = [];
let total = 0;
for (let r = 0; r < 7; r++) {
  const t = performance.now();
  const res = await app.inject({ url: `/api/stats/${link.code}/aggregate?period=365d`, headers: { authorization: `Bearer ${user.apiKey}` } });
  runs.push(performance.now() - t);
  total = (res.json() as { totalClicks: number }).totalClicks;
}
runs.sort((a, b) => a - b);
console.log(`aggregate 365d over ${total.toLocaleString('en')} clicks (seeded in ${seedSeconds.toFixed(1)} s): median ${runs[3]!.toFixed(1)} ms, best ${runs[0]!.toFixed(1)} ms, worst ${runs[6]!.toFixed(1)} ms (target < 200 ms)`);
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });
