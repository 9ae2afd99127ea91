import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../dist/app.js';
import { loadConfig } from '../../dist/config.js';

/**
 * Snip as shipped (dist/) with an account holding BENCH_LINKS links (default 10,000) for the heavy API work of the
 * load benchmark (bench/under-load.ts) to chew on, and one more to redirect through. The account is the database's
 * first, its operator: no plan limit gets in the way of the work. Prints the port, the code and the key.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-bench-load-'));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', PORT: '0', HOST: '127.0.0.1' });
const { app, core } = await buildApp(config);
const user = await core.accounts.createAccount({ email: 'bench@example.com', tier: 'enterprise' });
const caller = await core.accounts.authenticate(user.apiKey);
const total = Number(process.env.BENCH_LINKS ?? 10_000);
for (let made = 0; made < total; made += 1000) {
  const urls = Array.from({ length: Math.min(1000, total - made) }, (_, i) => ({ url: `https://example.com/page/${made + i}?utm_source=bench` }));
  await core.links.createMany(caller, urls, { maxItems: 1000, chargeQuota: false });
}
const link = await core.links.create(caller, { url: 'https://example.com/landing?utm_source=bench' });
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: app.server.address().port, code: link.code, apiKey: user.apiKey })}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
});
