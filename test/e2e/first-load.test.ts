import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, removeDir, startServer, tempDir, type ServerProcess } from '../helpers/processes.js';
import { expectOneH1, hasChromium, launch, signUp } from './browser.js';

/** Issue 27's budget for the links page opened with an empty cache: what moves over the network, headers included. */
const FIRST_LOAD_BUDGET = 350_000;

interface Transfer {
  url: string;
  type: string;
  encoding?: string;
  /** Bytes received for it, headers included (CDP's encodedDataLength). */
  bytes: number;
}

/**
 * The dashboard's weight on the wire, as Chromium counts it, against the server as `npm start` runs it (node
 * dist/main.js, its dashboard built into dist/app with its .br and .gz copies): a size, not a timing.
 */
describe.skipIf(!hasChromium)("the links page's first load in Chromium", () => {
  let server: ServerProcess;
  let browser: Browser;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = tempDir('snip-first-load-');
    server = await startServer({ DATA_DIR: dataDir, PUBLIC_REQUESTS_PER_MINUTE: 'unlimited' });
    browser = await launch();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await killAll();
    removeDir(dataDir);
  });

  it(`moves at most ${FIRST_LOAD_BUDGET / 1000} KB, signed in, with an empty cache, its scripts and styles in Brotli`, { timeout: 120_000 }, async () => {
    // Signed in once; then a new context: the session cookie and nothing cached.
    const signing = await browser.newContext();
    await signUp(await signing.newPage(), server.url, 'first-load@example.com', 'correct horse battery');
    const storageState = await signing.storageState();
    await signing.close();

    const context = await browser.newContext({ storageState });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const transfers = new Map<string, Transfer>();
    cdp.on('Network.requestWillBeSent', (event) => transfers.set(event.requestId, { url: event.request.url, type: event.type ?? 'Other', bytes: 0 }));
    cdp.on('Network.responseReceived', (event) => {
      const transfer = transfers.get(event.requestId);
      const headers = Object.fromEntries(Object.entries(event.response.headers).map(([name, value]) => [name.toLowerCase(), value]));
      if (transfer) transfer.encoding = headers['content-encoding'];
    });
    cdp.on('Network.loadingFinished', (event) => {
      const transfer = transfers.get(event.requestId);
      if (transfer) transfer.bytes = event.encodedDataLength;
    });
    await cdp.send('Network.enable');

    await page.goto(`${server.url}/app/links`);
    await expectOneH1(page, 'Links');
    await page.waitForLoadState('networkidle');

    const all = [...transfers.values()];
    const total = all.reduce((sum, transfer) => sum + transfer.bytes, 0);
    const listing = all.map((t) => `${t.bytes} ${t.encoding ?? 'identity'} ${t.type} ${t.url}`).join('\n');
    expect(total, `first load of /app/links:\n${listing}`).toBeLessThanOrEqual(FIRST_LOAD_BUDGET);
    // The page, its scripts and its styles, but a file too small to gain from compression (headers are ~500 bytes).
    const assets = all.filter((t) => ['Document', 'Script', 'Stylesheet'].includes(t.type) && t.bytes > 2000);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) expect(asset.encoding, asset.url).toBe('br');
    await context.close();
  });
});
