import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

/** Time to create 1,000 links in one Description B bulk request on a fresh SQLite database (over real HTTP). */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-bench-bulk-'));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1' });
const { app, core } = await buildApp(config);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
const user = await core.accounts.createAccount({ email: 'bulk-bench@example.com', tier: 'enterprise' });

const runs: number[] = [];
for (let run = 0; run < 5; run++) {
  const urls = Array.from({ length: 1000 }, (_, i) => ({ url: `https://example.com/item/${run}/${i}`, customSlug: `r${run}-item-${i}` }));
  const started = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/api/bulk`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.apiKey}` },
    body: JSON.stringify({ urls }),
  });
  const body = (await res.json()) as { summary?: { created: number } };
  runs.push(performance.now() - started);
  if (body.summary?.created !== 1000) throw new Error(`bulk run ${run} created ${body.summary?.created}`);
}
runs.sort((a, b) => a - b);
console.log(`bulk 1,000 links (B /api/bulk, custom slugs, SQLite): median ${runs[2]!.toFixed(0)} ms, best ${runs[0]!.toFixed(0)} ms, worst ${runs[4]!.toFixed(0)} ms`);
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });
