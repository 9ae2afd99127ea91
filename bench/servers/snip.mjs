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
// Builder: 500,000 tracked clicks a month and no cap, so every click of a run (250,000 with the warm-up) is recorded.
// On pro the account passed its cap (116,666 clicks) in every run, and most of the "recorded" clicks were paused.
const user = await core.accounts.createAccount({ email: 'bench@example.com', tier: 'builder' });
const caller = await core.accounts.authenticate(user.apiKey);
// BENCH_ROUTING=1: a link with ten rules no benchmark visitor matches (each read differently) and a 50/50 split.
const routing =
  process.env.BENCH_ROUTING === '1'
    ? {
        rules: [
          { conditions: [{ type: 'device', value: 'ios' }], url: 'https://example.com/ios' },
          { conditions: [{ type: 'device', value: 'android' }], url: 'https://example.com/android' },
          { conditions: [{ type: 'country', value: 'JP' }], url: 'https://example.com/jp' },
          { conditions: [{ type: 'language', value: 'fr' }], url: 'https://example.com/fr' },
          { conditions: [{ type: 'language', value: 'de' }, { type: 'device', value: 'mobile' }], url: 'https://example.com/de-mobile' },
          { conditions: [{ type: 'query', key: 'ref', value: 'newsletter' }], url: 'https://example.com/newsletter' },
          { conditions: [{ type: 'query', key: 'campaign' }], url: 'https://example.com/campaign' },
          { conditions: [{ type: 'address', value: '203.0.113.0/24' }], url: 'https://example.com/office' },
          { conditions: [{ type: 'address', value: '2001:db8::/32' }], url: 'https://example.com/office6' },
          { conditions: [{ type: 'device', value: 'macos' }, { type: 'country', value: 'US' }], url: 'https://example.com/mac-us' },
        ],
        variants: [
          { url: 'https://example.com/landing?utm_source=bench', weight: 50 },
          { url: 'https://example.com/landing-b?utm_source=bench', weight: 50 },
        ],
      }
    : {};
const link = await core.links.create(caller, { url: 'https://example.com/landing?utm_source=bench', ...routing });
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: app.server.address().port, code: link.code, apiKey: user.apiKey })}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
});
