import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../dist/app.js';
import { loadConfig } from '../../dist/config.js';

/**
 * Snip as shipped (dist/, built by the benchmark first) on a fresh SQLite database (or DATABASE_URL), with one
 * stored link to redirect through; prints the port, the code and a key to read the link's count with.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-bench-'));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', PORT: '0', HOST: '127.0.0.1' });
const { app, core } = await buildApp(config);
const user = await core.accounts.createAccount({ email: 'bench@example.com', tier: 'pro' });
const caller = await core.accounts.authenticate(user.apiKey);
const link = await core.links.create(caller, { url: 'https://example.com/landing?utm_source=bench' });
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: app.server.address().port, code: link.code, apiKey: user.apiKey })}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
});
