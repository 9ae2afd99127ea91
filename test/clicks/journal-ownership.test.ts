import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dialectName, startApp, type TestApp } from '../helpers/app.js';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Safari/537.36';

describe(`click journals of live apps sharing a DATA_DIR (${dialectName})`, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-shared-journal-'));
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("a second app starting on the same directory does not take over (and replay) the first one's journal", async () => {
    const first = await startApp({ DATA_DIR: dataDir });
    apps.push(first);
    const user = await first.createUser('pro');
    const created = await first.as(user, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/shared' } });
    const code = created.json().shortCode as string;
    for (let i = 0; i < 5; i++) {
      const res = await first.app.inject({ url: `/${code}`, headers: { 'user-agent': BROWSER } });
      expect(res.statusCode).toBe(302);
    }
    apps.push(await startApp({ DATA_DIR: dataDir }));
    await new Promise((resolve) => setTimeout(resolve, 100)); // past a flush window
    const details = await first.as(user, { url: `/api/v1/links/${code}` });
    expect(details.json().clicks).toBe(5);
    const stats = await first.as(user, { url: `/api/v1/links/${code}/stats` });
    expect(stats.json().totalClicks).toBe(5);
  });
});
