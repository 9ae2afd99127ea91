import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';

/** A real Snip server on a fresh SQLite database (or DATABASE_URL), with one stored link to redirect through. */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-bench-'));
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1' });
const { app, core } = await buildApp(config);
const user = await core.accounts.createAccount({ email: 'bench@example.com', tier: 'pro' });
const caller = await core.accounts.authenticate(user.apiKey);
const link = await core.links.create(caller, { url: 'https://example.com/landing?utm_source=bench' });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0, code: link.code })}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
});
