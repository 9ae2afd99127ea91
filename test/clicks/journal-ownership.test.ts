import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { ClickBatch } from '../../src/clicks/repository.js';
import { dialectName, startApp, TestClock, type TestApp } from '../helpers/app.js';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Safari/537.36';
const CLICKS = 5;

/**
 * Holds back the click commits of `app` until the answered function is called: its clicks stay in its journal,
 * uncommitted, for as long as the test needs (a commit comes 20 ms after a click otherwise, long before a second
 * app has started). The database is the real one; only the moment of the commit is the test's.
 */
function holdCommits(app: TestApp): () => void {
  const repo = app.core.clicks['repo'];
  const commit = repo.commit.bind(repo);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  repo.commit = async (batch: ClickBatch) => {
    await released;
    return commit(batch);
  };
  return release;
}

describe(`click journals of live apps sharing a DATA_DIR (${dialectName})`, () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-shared-journal-'));
  const journalRoot = path.join(dataDir, 'journal');
  const closers: Array<() => Promise<unknown>> = [];
  // A failed expectation must not leave the first app waiting forever to commit as it closes.
  let release = (): void => {};
  afterAll(async () => {
    release();
    for (const close of closers.reverse()) await close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("a second app starting while the first holds uncommitted clicks does not take over (and replay) the first one's journal", async () => {
    const first = await startApp({ DATA_DIR: dataDir });
    closers.push(() => first.close());
    release = holdCommits(first);
    const user = await first.createUser('pro');
    const created = await first.as(user, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/shared' } });
    expect(created.statusCode, created.body).toBe(201);
    const code = created.json().shortCode as string;
    for (let i = 0; i < CLICKS; i++) {
      const res = await first.app.inject({ url: `/${code}`, headers: { 'user-agent': BROWSER } });
      expect(res.statusCode).toBe(302);
    }
    const journalsOfFirst = fs.readdirSync(journalRoot);
    expect(journalsOfFirst).toHaveLength(1);

    // The second app: same DATA_DIR, same database (on PostgreSQL, the first one's schema), as a second instance
    // of one deployment would be. It starts while the first's clicks are only in the first's journal.
    const schema = dialectName === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(first.core.database.db)).rows[0]!.schema : undefined;
    const second = await buildApp(first.config, { clock: new TestClock(), pgSchema: schema });
    closers.push(() => second.app.close());

    // Nothing was replayed: the clicks are not committed yet (the second app reads the shared database).
    const before = await second.app.inject({ url: `/api/v1/links/${code}`, headers: { authorization: `Bearer ${user.apiKey}` } });
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().clicks).toBe(0);
    // The first journal is still the first app's, under its own name, next to the second's.
    const journals = fs.readdirSync(journalRoot);
    expect(journals).toHaveLength(2);
    expect(journals).toEqual(expect.arrayContaining(journalsOfFirst));
    expect(journals.filter((name) => name.includes('.adopted-'))).toEqual([]);

    // The first app commits its own clicks: each counted once, none lost.
    release();
    for (const app of [first.app, second.app]) {
      const details = await app.inject({ url: `/api/v1/links/${code}`, headers: { authorization: `Bearer ${user.apiKey}` } });
      expect(details.json().clicks).toBe(CLICKS);
      const stats = await app.inject({ url: `/api/v1/links/${code}/stats`, headers: { authorization: `Bearer ${user.apiKey}` } });
      expect(stats.json().totalClicks).toBe(CLICKS);
    }

    // Both journals keep working: a click through each app adds one.
    for (const app of [first.app, second.app]) {
      const res = await app.inject({ url: `/${code}`, headers: { 'user-agent': BROWSER } });
      expect(res.statusCode).toBe(302);
    }
    await first.core.clicks.settle();
    await second.core.clicks.settle();
    const stats = await first.as(user, { url: `/api/v1/links/${code}/stats` });
    expect(stats.json().totalClicks).toBe(CLICKS + 2);
  });
});
