import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectName, testDatabaseUrl, useTestApp, type BlockApp, type TestUser } from '../helpers/app.js';
import { oneJsonLine, removeDir, runCli, tempDir } from '../helpers/processes.js';
import { expectAllOk, expectRestStatus, expectSameError, fromNow, inOperationNames, mcp, PARITY_PLANS, rest, type Outcome, type Surface } from './helpers.js';

/**
 * Parity of the link operations (issue 15): create, get, update and delete a link over Description A
 * (/api/v1/links), Description B (/api/links), MCP (shorten_url, get_link, update_link, delete_link) and, for
 * create, the CLI's `links import`: the same input gives the same result, the same code and the same message.
 * Builder accounts (unmetered in plans-parity.json) do the work; Free accounts there have API access but no
 * custom slugs.
 */

const A = '/api/v1/links';
const B = '/api/links';
const one = (base: string, shortPath: string) => `${base}/${encodeURIComponent(shortPath)}`;

/** The create input in each surface's words: REST's `customSlug` is MCP's `slug`. */
function toolArgs(body: Record<string, unknown>): Record<string, unknown> {
  const { customSlug, ...rest } = body;
  return { ...rest, ...(customSlug === undefined ? {} : { slug: customSlug }) };
}

/** POST the same link over A, B and MCP, each as `user`. */
async function createEverywhere(t: BlockApp, user: TestUser, body: Record<string, unknown>): Promise<Record<'A' | 'B' | 'MCP', Outcome>> {
  return {
    A: await rest(t, user, 'POST', A, body),
    B: await rest(t, user, 'POST', B, body),
    MCP: await mcp(t, user, 'shorten_url', toolArgs(body)),
  };
}

async function linkCount(t: BlockApp, user: TestUser): Promise<number> {
  const res = await t.as(user, { method: 'GET', url: `${A}?limit=100` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ links: unknown[] }>().links.length;
}

/** The short path each surface's create answer names (A: shortCode/fullPath; B: shortUrl is the path; MCP: A's details). */
function shortPathOf(surface: Surface, body: unknown): string {
  const b = body as { shortCode: string; fullPath: string | null; shortUrl: string };
  if (surface === 'B') return b.shortUrl;
  return b.fullPath ?? b.shortCode;
}

describe(`parity: creating a link over A, B, MCP and the CLI (${dialectName})`, () => {
  const t = useTestApp({ PLANS_FILE: PARITY_PLANS });
  const builder = t.user('builder');
  const free = t.user('free');

  it('a good link: created on every surface with the same details, one link each', async () => {
    const before = await linkCount(t, builder);
    const expiresAt = fromNow(t, 86_400_000);
    const body = { url: 'https://example.com/parity/good', maxClicks: 7, expiresAt };
    const bodies = expectAllOk('create', await createEverywhere(t, builder, body));
    expect(await linkCount(t, builder)).toBe(before + 3);
    const seen = [];
    for (const surface of ['A', 'B', 'MCP'] as const) {
      const got = await rest(t, builder, 'GET', one(A, shortPathOf(surface, bodies[surface])));
      expect(got.ok, `${surface}: ${JSON.stringify(got)}`).toBe(true);
      const link = (got as { body: Record<string, unknown> }).body;
      seen.push({ long: link.long, maxClicks: link.maxClicks, expiresAt: Date.parse(String(link.expiresAt)), isCustom: link.isCustom, namespace: link.namespace });
    }
    const expected = { long: 'https://example.com/parity/good', maxClicks: 7, expiresAt: Date.parse(expiresAt), isCustom: false, namespace: null };
    expect(seen).toEqual([expected, expected, expected]);
  });

  it('a good custom slug: the same namespaced path shape on every surface', async () => {
    const bodies = expectAllOk('create with slug', {
      A: await rest(t, builder, 'POST', A, { url: 'https://example.com/parity/slug-a', customSlug: 'parity-slug-a' }),
      B: await rest(t, builder, 'POST', B, { url: 'https://example.com/parity/slug-b', customSlug: 'parity-slug-b' }),
      MCP: await mcp(t, builder, 'shorten_url', { url: 'https://example.com/parity/slug-m', slug: 'parity-slug-m' }),
    });
    expect([shortPathOf('A', bodies.A), shortPathOf('B', bodies.B), shortPathOf('MCP', bodies.MCP)]).toEqual([
      `${builder.namespace}/parity-slug-a`,
      `${builder.namespace}/parity-slug-b`,
      `${builder.namespace}/parity-slug-m`,
    ]);
  });

  const refusals: [string, Record<string, unknown>, number, string][] = [
    ['a bad URL', { url: 'not a url' }, 400, 'INVALID_URL'],
    ['a javascript: URL', { url: 'javascript:alert(1)' }, 400, 'INVALID_URL'],
    ['a missing URL', {}, 400, 'MISSING_URL'],
    ['maxClicks 0', { url: 'https://example.com/parity/max0', maxClicks: 0 }, 400, 'INVALID_MAX_CLICKS'],
    ['maxClicks 1.5', { url: 'https://example.com/parity/max15', maxClicks: 1.5 }, 400, 'INVALID_MAX_CLICKS'],
    ['maxClicks "ten"', { url: 'https://example.com/parity/maxten', maxClicks: 'ten' }, 400, 'INVALID_MAX_CLICKS'],
    ['expiresAt in the past', { url: 'https://example.com/parity/past', expiresAt: '2020-01-01T00:00:00Z' }, 400, 'EXPIRES_AT_IN_PAST'],
    ['expiresAt not a date', { url: 'https://example.com/parity/notdate', expiresAt: 'tomorrow' }, 400, 'INVALID_EXPIRES_AT'],
    ['a bad slug', { url: 'https://example.com/parity/badslug', customSlug: 'ab' }, 400, 'INVALID_SLUG'],
  ];

  it.each(refusals)('%s: the same code and message on A, B and MCP, and no link made', async (label, body, status, code) => {
    const before = await linkCount(t, builder);
    const outcomes = await createEverywhere(t, builder, body);
    expectSameError(label, outcomes, code);
    expectRestStatus(label, outcomes, status);
    expect(await linkCount(t, builder)).toBe(before);
  });

  it('a custom slug already taken: SLUG_TAKEN on A, B and MCP', async () => {
    expectAllOk('first', { A: await rest(t, builder, 'POST', A, { url: 'https://example.com/parity/first', customSlug: 'parity-taken' }) });
    const before = await linkCount(t, builder);
    const outcomes = await createEverywhere(t, builder, { url: 'https://example.com/parity/second', customSlug: 'parity-taken' });
    expectSameError('slug taken', outcomes, 'SLUG_TAKEN');
    expectRestStatus('slug taken', outcomes, 409);
    expect(await linkCount(t, builder)).toBe(before);
  });

  it('customSlug on a plan without custom slugs (Free with API access): the same refusal on A, B and MCP', async () => {
    const outcomes = await createEverywhere(t, free, { url: 'https://example.com/parity/premium', customSlug: 'parity-premium' });
    expectSameError('customSlug on Free', outcomes, 'PREMIUM_REQUIRED');
    expectRestStatus('customSlug on Free', outcomes, 403);
    expect(await linkCount(t, free)).toBe(0);
  });

  describe('the CLI (`links import`), the one surface of the operator that creates links', () => {
    let dir: string;
    beforeAll(() => {
      dir = tempDir('snip-parity-cli-');
    });
    afterAll(() => removeDir(dir));

    /** The CLI's settings for the block app's own database (on PostgreSQL, its schema). */
    async function cliEnv(): Promise<Record<string, string>> {
      const env: Record<string, string> = { DATA_DIR: t.config.dataDir, BASE_URL: 'http://snip.test', PLANS_FILE: PARITY_PLANS, LOG_LEVEL: 'silent' };
      if (testDatabaseUrl) {
        const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(t.core.database.db);
        const schema = rows[0]!.schema;
        env.DATABASE_URL = `${testDatabaseUrl}${testDatabaseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
      }
      return env;
    }

    it('refuses each bad row with the code A gives (two spawns: a Builder file and a Free file)', async () => {
      await rest(t, builder, 'POST', A, { url: 'https://example.com/parity/cli-taken', customSlug: 'parity-cli-taken' });
      const rows: [string, Record<string, unknown>][] = [
        ['good', { url: 'https://example.com/parity/cli-good' }],
        ...refusals.filter(([, body]) => typeof body.maxClicks !== 'string').map(([label, body]) => [label, body] as [string, Record<string, unknown>]),
        ['slug taken', { url: 'https://example.com/parity/cli-second', customSlug: 'parity-cli-taken' }],
      ];
      const freeRows: [string, Record<string, unknown>][] = [['customSlug on Free', { url: 'https://example.com/parity/cli-premium', customSlug: 'parity-cli-premium' }]];
      const write = (name: string, list: [string, Record<string, unknown>][]) => {
        const file = path.join(dir, name);
        fs.writeFileSync(file, list.map(([, body]) => JSON.stringify(body)).join('\n') + '\n');
        return file;
      };
      const env = await cliEnv();
      const before = await linkCount(t, builder);
      const [main, second] = await Promise.all([
        runCli(['links', 'import', '--email', builder.email, '--format', 'jsonl', write('builder.jsonl', rows)], env),
        runCli(['links', 'import', '--email', free.email, '--format', 'jsonl', write('free.jsonl', freeRows)], env),
      ]);
      const summaries = [main, second].map((r) => {
        expect(r.code, `stdout: ${r.stdout}\nstderr: ${r.stderr}`).toBe(0);
        return oneJsonLine(r.stdout) as { imported: number; failures: { line: number; code: string; message: string }[] };
      });
      expect(await linkCount(t, builder)).toBe(before + 1);

      // What A answers for the same rows is the reference: every refused row, its code and message, side by side.
      const expected: Record<string, { code: string | null; message: string | null }> = {};
      const actual: Record<string, { code: string | null; message: string | null }> = {};
      for (const [list, summary, user] of [
        [rows, summaries[0]!, builder],
        [freeRows, summaries[1]!, free],
      ] as const) {
        for (let i = 0; i < list.length; i++) {
          const [label, body] = list[i]!;
          const failure = summary.failures.find((f) => f.line === i + 1);
          actual[label] = failure ? { code: failure.code, message: failure.message } : { code: null, message: null };
          if (label === 'good') {
            expected[label] = { code: null, message: null };
            continue;
          }
          const a = await rest(t, user, 'POST', A, body);
          expected[label] = a.ok ? { code: null, message: null } : { code: a.code, message: a.message };
        }
      }
      expect(Object.fromEntries(Object.entries(actual).map(([k, v]) => [k, v.code])), 'CLI codes vs A').toEqual(
        Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, v.code])),
      );
      expect(actual, 'same codes, so the same messages (CLI vs A)').toEqual(expected);
    });
  });
});

describe(`parity: getting, updating and deleting a link over A, B and MCP (${dialectName})`, () => {
  const t = useTestApp({ PLANS_FILE: PARITY_PLANS });
  const builder = t.user('builder');
  const other = t.user('builder');

  const make = async (user: TestUser, url: string): Promise<string> => {
    const res = await t.as(user, { method: 'POST', url: A, payload: { url } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ shortCode: string }>().shortCode;
  };

  it('get: the same link on A and MCP (A`s details), and B`s view of the same link', async () => {
    const code = await make(builder, 'https://example.com/parity/get');
    const bodies = expectAllOk('get', {
      A: await rest(t, builder, 'GET', one(A, code)),
      B: await rest(t, builder, 'GET', one(B, code)),
      MCP: await mcp(t, builder, 'get_link', { shortPath: code }),
    });
    expect(bodies.MCP).toEqual(bodies.A);
    expect(bodies.B).toMatchObject({ shortCode: code, long: 'https://example.com/parity/get' });
  });

  for (const [op, method, tool] of [
    ['get', 'GET', 'get_link'],
    ['update', 'PATCH', 'update_link'],
    ['delete', 'DELETE', 'delete_link'],
  ] as const) {
    it(`${op} an unknown code: NOT_FOUND, 404 on REST, on every surface with one message`, async () => {
      const body = method === 'PATCH' ? { url: 'https://example.com/parity/new' } : undefined;
      const outcomes = {
        A: await rest(t, builder, method, one(A, 'zzzzzz'), body),
        B: await rest(t, builder, method, one(B, 'zzzzzz'), body),
        MCP: await mcp(t, builder, tool, { shortPath: 'zzzzzz', ...(body ?? {}) }),
      };
      expectSameError(`${op} unknown`, outcomes, 'NOT_FOUND');
      expectRestStatus(`${op} unknown`, outcomes, 404);
    });

    it(`${op} another account's link: the same code on every surface`, async () => {
      const code = await make(other, `https://example.com/parity/others-${op}`);
      const body = method === 'PATCH' ? { url: 'https://example.com/parity/new' } : undefined;
      const outcomes = {
        A: await rest(t, builder, method, one(A, code), body),
        B: await rest(t, builder, method, one(B, code), body),
        MCP: await mcp(t, builder, tool, { shortPath: code, ...(body ?? {}) }),
      };
      const reference = outcomes.A;
      expect(reference.ok, JSON.stringify(reference)).toBe(false);
      expectSameError(`${op} another account's link`, outcomes, (reference as { code: string }).code);
    });
  }

  it('update with no fields: the same refusal (INVALID_BODY) on A, B and MCP, and the link unchanged', async () => {
    const code = await make(builder, 'https://example.com/parity/empty-update');
    const outcomes = {
      A: await rest(t, builder, 'PATCH', one(A, code), {}),
      B: await rest(t, builder, 'PATCH', one(B, code), {}),
      MCP: await mcp(t, builder, 'update_link', { shortPath: code }),
    };
    expectSameError('empty update', outcomes, 'INVALID_BODY');
    expectRestStatus('empty update', outcomes, 400);
  });

  it.each([
    ['maxClicks 0', { maxClicks: 0 }, 'INVALID_MAX_CLICKS'],
    ['maxClicks -3', { maxClicks: -3 }, 'INVALID_MAX_CLICKS'],
    ['a javascript: URL', { url: 'javascript:alert(1)' }, 'INVALID_URL'],
    ['a bad URL', { url: 'not a url' }, 'INVALID_URL'],
    ['expiresAt in the past', { expiresAt: '2020-01-01T00:00:00Z' }, 'EXPIRES_AT_IN_PAST'],
    ['expiresAt not a date', { expiresAt: 'later' }, 'INVALID_EXPIRES_AT'],
  ] as const)('update with %s: the same code and message on A, B and MCP, and the link unchanged', async (label, change, code) => {
    const shortCode = await make(builder, 'https://example.com/parity/bad-update');
    const outcomes = {
      A: await rest(t, builder, 'PATCH', one(A, shortCode), change),
      B: await rest(t, builder, 'PATCH', one(B, shortCode), change),
      MCP: await mcp(t, builder, 'update_link', { shortPath: shortCode, ...change }),
    };
    expectSameError(`update ${label}`, outcomes, code);
    expectRestStatus(`update ${label}`, outcomes, 400);
    const after = await rest(t, builder, 'GET', one(A, shortCode));
    expect((after as { body: unknown }).body).toMatchObject({ long: 'https://example.com/parity/bad-update', maxClicks: null, expiresAt: null });
  });

  it('update with an unknown field: every surface answers alike (A is the reference)', async () => {
    const shortCode = await make(builder, 'https://example.com/parity/unknown-field');
    const outcomes = {
      A: await rest(t, builder, 'PATCH', one(A, shortCode), { bogus: 1 }),
      B: await rest(t, builder, 'PATCH', one(B, shortCode), { bogus: 1 }),
      MCP: await mcp(t, builder, 'update_link', { shortPath: shortCode, bogus: 1 }),
    };
    if (outcomes.A.ok) expectAllOk('unknown field', outcomes);
    else expectSameError('unknown field', outcomes, outcomes.A.code);
  });

  it('a good update: the same change on every surface', async () => {
    const made = [await make(builder, 'https://example.com/parity/u1'), await make(builder, 'https://example.com/parity/u2'), await make(builder, 'https://example.com/parity/u3')];
    const change = { url: 'https://example.com/parity/updated', maxClicks: 3 };
    expectAllOk('update', {
      A: await rest(t, builder, 'PATCH', one(A, made[0]!), change),
      B: await rest(t, builder, 'PATCH', one(B, made[1]!), change),
      MCP: await mcp(t, builder, 'update_link', { shortPath: made[2]!, ...change }),
    });
    for (const code of made) {
      expect((await rest(t, builder, 'GET', one(A, code)) as { body: unknown }).body).toMatchObject({ long: 'https://example.com/parity/updated', maxClicks: 3 });
    }
  });

  it('a good delete: gone on every surface; a second delete is NOT_FOUND everywhere', async () => {
    const made = [await make(builder, 'https://example.com/parity/d1'), await make(builder, 'https://example.com/parity/d2'), await make(builder, 'https://example.com/parity/d3')];
    expectAllOk('delete', {
      A: await rest(t, builder, 'DELETE', one(A, made[0]!)),
      B: await rest(t, builder, 'DELETE', one(B, made[1]!)),
      MCP: await mcp(t, builder, 'delete_link', { shortPath: made[2]! }),
    });
    for (const code of made) expect((await rest(t, builder, 'GET', one(A, code))).ok, code).toBe(false);
    const again = {
      A: await rest(t, builder, 'DELETE', one(A, made[1]!)),
      B: await rest(t, builder, 'DELETE', one(B, made[2]!)),
      MCP: await mcp(t, builder, 'delete_link', { shortPath: made[0]! }),
    };
    expectSameError('delete twice', again, 'NOT_FOUND');
  });
});

describe(`parity: bulk create over A, B and MCP (${dialectName})`, () => {
  const t = useTestApp({ PLANS_FILE: PARITY_PLANS });
  const users = { A: t.user('builder'), B: t.user('builder'), MCP: t.user('builder') };

  it('the same per-item results and codes (REST`s and MCP`s shapes differ by the spec; the codes do not)', async () => {
    for (const user of Object.values(users)) {
      expectAllOk('taken slug', { A: await rest(t, user, 'POST', A, { url: 'https://example.com/parity/bulk-taken', customSlug: 'bulk-taken' }) });
    }
    const items: Record<string, unknown>[] = [
      { url: 'https://example.com/parity/bulk-good' },
      { url: 'not a url' },
      { url: 'javascript:alert(1)' },
      { url: 'https://example.com/parity/bulk-past', expiresAt: '2020-01-01T00:00:00Z' },
      { url: 'https://example.com/parity/bulk-taken-2', customSlug: 'bulk-taken' },
      { url: 'https://example.com/parity/bulk-slug', customSlug: 'bulk-fresh' },
      { url: 'https://example.com/parity/bulk-badslug', customSlug: 'ab' },
    ];
    const expected = [null, 'INVALID_URL', 'INVALID_URL', 'EXPIRES_AT_IN_PAST', 'SLUG_TAKEN', null, 'INVALID_SLUG'];
    const a = await rest(t, users.A, 'POST', '/api/v1/bulk', { urls: items });
    const b = await rest(t, users.B, 'POST', '/api/bulk', { urls: items });
    const m = await mcp(t, users.MCP, 'bulk_shorten', { links: items.map(toolArgs) });
    const bodies = expectAllOk('bulk', { A: a, B: b, MCP: m });
    type Item = { success: boolean; code?: string; error?: string };
    const itemCodes = (body: unknown) => (body as { results: Item[] }).results.map((r) => (r.success ? null : (r.code ?? 'NO_CODE')));
    const itemMessages = (body: unknown) => (body as { results: Item[] }).results.map((r) => (r.success ? null : (r.error ?? null)));
    expect({ A: itemCodes(bodies.A), B: itemCodes(bodies.B), MCP: itemCodes(bodies.MCP) }).toEqual({ A: expected, B: expected, MCP: expected });
    const mcpMessages = itemMessages(bodies.MCP).map((m) => (m === null ? null : inOperationNames('MCP', m)));
    expect({ B: itemMessages(bodies.B), MCP: mcpMessages }, 'same codes, same messages').toEqual({ B: itemMessages(bodies.A), MCP: itemMessages(bodies.A) });
    // The same links were made: the taken slug's link and the two good items, on each account.
    for (const user of Object.values(users)) expect(await linkCount(t, user)).toBe(3);
  });

  it('an item with maxClicks 0 fails on its own (INVALID_MAX_CLICKS), the other items are made, on every surface', async () => {
    const items = [{ url: 'https://example.com/parity/bulk-ok' }, { url: 'https://example.com/parity/bulk-max', maxClicks: 0 }];
    const before = { A: await linkCount(t, users.A), B: await linkCount(t, users.B), MCP: await linkCount(t, users.MCP) };
    const bodies = expectAllOk('bulk with maxClicks 0', {
      A: await rest(t, users.A, 'POST', '/api/v1/bulk', { urls: items }),
      B: await rest(t, users.B, 'POST', '/api/bulk', { urls: items }),
      MCP: await mcp(t, users.MCP, 'bulk_shorten', { links: items }),
    });
    type Item = { success: boolean; code?: string };
    const itemCodes = (body: unknown) => (body as { results: Item[] }).results.map((r) => (r.success ? null : (r.code ?? 'NO_CODE')));
    const expected = [null, 'INVALID_MAX_CLICKS'];
    expect({ A: itemCodes(bodies.A), B: itemCodes(bodies.B), MCP: itemCodes(bodies.MCP) }).toEqual({ A: expected, B: expected, MCP: expected });
    expect({ A: await linkCount(t, users.A), B: await linkCount(t, users.B), MCP: await linkCount(t, users.MCP) }).toEqual({ A: before.A + 1, B: before.B + 1, MCP: before.MCP + 1 });
  });

  it('an empty list: A and B alike; MCP names its own argument (links, where REST says urls)', async () => {
    const outcomes = {
      A: await rest(t, users.A, 'POST', '/api/v1/bulk', { urls: [] }),
      B: await rest(t, users.B, 'POST', '/api/bulk', { urls: [] }),
    };
    expect(outcomes.A.ok, JSON.stringify(outcomes.A)).toBe(false);
    expectSameError('empty bulk', outcomes, (outcomes.A as { code: string }).code);
    expect(await mcp(t, users.MCP, 'bulk_shorten', { links: [] })).toMatchObject({ ok: false, code: 'INVALID_LINKS', message: 'links must list at least 1 item' });
  });
});
