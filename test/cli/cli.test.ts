import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/schema.js';
import { dialectName, useTestApp } from '../helpers/app.js';
import {
  bearer, killAll, oneJsonLine, removeDir, request, runCli, runNpmCli, startServer, tempDir, type RunResult, type ServerProcess,
} from '../helpers/processes.js';

/** The operator CLI, run as a real process on its own temporary DATA_DIR, alone and next to a running server. */

const API_KEY = /^snip_[A-Za-z0-9]{32,}$/;
const dirs: string[] = [];

function freshDir(): string {
  const dir = tempDir('snip-cli-');
  dirs.push(dir);
  return dir;
}

/** A failed command: non-zero exit, nothing on stdout, one JSON error line on stderr; returns its code. */
function failure(result: RunResult): string {
  expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).not.toBe(0);
  expect(result.stdout).toBe('');
  const body = oneJsonLine(result.stderr);
  expect(body).toMatchObject({ error: true, code: expect.any(String), message: expect.any(String) });
  return body.code as string;
}

/** A successful command: exit 0, exactly one JSON line on stdout, which is returned. */
function success(result: RunResult): Record<string, unknown> {
  expect(result.code, `stderr: ${result.stderr}`).toBe(0);
  return oneJsonLine(result.stdout);
}

afterAll(async () => {
  await killAll();
  for (const dir of dirs) removeDir(dir);
});

describe.concurrent('CLI usage', () => {
  const SETTINGS = ['DATA_DIR', 'DATABASE_URL', 'BASE_URL', 'PORT', 'PLANS_FILE'];

  it('help, --help, -h and no command print the usage with its settings on stdout and exit 0', async () => {
    const results = await Promise.all([['help'], ['--help'], ['-h'], [], ['users', 'create', '--help']].map((args) => runCli(args, {})));
    for (const result of results) {
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/^Usage: /);
      expect(result.stdout).toBe(results[0]!.stdout);
    }
    const usage = results[0]!.stdout;
    for (const command of ['users list', 'users delete --email E --yes', 'keys list --email E', 'links export']) expect(usage).toContain(command);
    const settings = usage.slice(usage.indexOf('Settings'));
    for (const name of SETTINGS) expect(settings).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
  });

  it('an unknown command or option exits 2 with one JSON error line on stderr, then the usage; stdout stays empty', async () => {
    const [unknown, partial, option] = await Promise.all([
      runCli(['frobnicate'], {}),
      runCli(['users'], {}),
      runCli(['users', 'show', '--emial', 'a@example.com'], {}),
    ]);
    for (const [result, code] of [[unknown, 'UNKNOWN_COMMAND'], [partial, 'UNKNOWN_COMMAND'], [option, 'INVALID_ARGUMENT']] as const) {
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      const [first, ...rest] = result.stderr.split('\n');
      expect(JSON.parse(first!)).toEqual({ error: true, code, message: expect.any(String) });
      expect(rest.join('\n')).toMatch(/^Usage: [^]*Settings/);
    }
    expect(oneJsonLine(unknown.stderr.split('\n')[0]!).message).toContain('frobnicate');
    expect(oneJsonLine(option.stderr.split('\n')[0]!).message).toContain('--emial');
  });
});

describe.concurrent('CLI on its own', () => {
  let env: Record<string, string>;
  let alice: RunResult;

  beforeAll(async () => {
    env = { DATA_DIR: freshDir() };
    // The first command also creates and migrates the database; the tests below then run in parallel on it.
    alice = await runCli(['users', 'create', '--email', 'alice@example.com', '--tier', 'pro'], env);
  });

  it('users create prints exactly one JSON line with id, email, tier and apiKey, and exits 0', () => {
    expect(alice.stderr).toBe('');
    const user = success(alice);
    expect(user).toMatchObject({ id: expect.any(String), email: 'alice@example.com', tier: 'pro' });
    expect(user.apiKey).toMatch(API_KEY);
  });

  it('works through the npm script: npm run --silent cli -- users create ...', async () => {
    const user = success(await runNpmCli(['users', 'create', '--email', 'npm@example.com', '--tier', 'builder'], env));
    expect(user).toMatchObject({ id: expect.any(String), email: 'npm@example.com', tier: 'builder' });
    expect(user.apiKey).toMatch(API_KEY);
  });

  it('refuses a taken email with EMAIL_TAKEN on stderr, nothing on stdout and a non-zero exit', async () => {
    expect(failure(await runCli(['users', 'create', '--email', 'alice@example.com', '--tier', 'free'], env))).toBe('EMAIL_TAKEN');
  });

  it('refuses an unknown tier (INVALID_TIER), a malformed email (INVALID_EMAIL) and a missing option', async () => {
    const [tier, email, missing] = await Promise.all([
      runCli(['users', 'create', '--email', 'tier@example.com', '--tier', 'platinum'], env),
      runCli(['users', 'create', '--email', 'not-an-email', '--tier', 'pro'], env),
      runCli(['users', 'set-tier', '--email', 'alice@example.com'], env),
    ]);
    expect(failure(tier)).toBe('INVALID_TIER');
    expect(failure(email)).toBe('INVALID_EMAIL');
    expect(failure(missing)).toBe('MISSING_ARGUMENT');
  });

  it('reads the same settings as the server and refuses a bad one, naming the variable', async () => {
    const result = await runCli(['users', 'show', '--email', 'alice@example.com'], { ...env, DATABASE_URL: 'mysql://x' });
    failure(result);
    expect(oneJsonLine(result.stderr).message).toContain('DATABASE_URL');
  });

  it('users set-tier changes the tier and answers one JSON line; a bad tier is INVALID_TIER', async () => {
    success(await runCli(['users', 'create', '--email', 'tiers@example.com', '--tier', 'free'], env));
    const changed = success(await runCli(['users', 'set-tier', '--email', 'tiers@example.com', '--tier', 'enterprise'], env));
    expect(changed).toMatchObject({ email: 'tiers@example.com', tier: 'enterprise' });
    const [shown, bad] = await Promise.all([
      runCli(['users', 'show', '--email', 'tiers@example.com'], env),
      runCli(['users', 'set-tier', '--email', 'tiers@example.com', '--tier', 'gold'], env),
    ]);
    expect(success(shown)).toMatchObject({ email: 'tiers@example.com', tier: 'enterprise' });
    expect(failure(bad)).toBe('INVALID_TIER');
  });

  it('keys create prints one JSON line with a new apiKey; revoke works by key and by id, once', async () => {
    const original = success(alice).apiKey;
    const [one, two, nobody] = await Promise.all([
      runCli(['keys', 'create', '--email', 'alice@example.com'], env),
      runCli(['keys', 'create', '--email', 'alice@example.com'], env),
      runCli(['keys', 'create', '--email', 'nobody@example.com'], env),
    ]);
    expect(failure(nobody)).toBe('ACCOUNT_NOT_FOUND');
    const byKey = success(one);
    const byId = success(two);
    for (const created of [byKey, byId]) {
      expect(created.apiKey).toMatch(API_KEY);
      expect(created.apiKey).not.toBe(original);
      expect(created.id).toEqual(expect.any(String));
    }
    expect(byKey.apiKey).not.toBe(byId.apiKey);

    const [revokedByKey, revokedById] = await Promise.all([
      runCli(['keys', 'revoke', '--key', byKey.apiKey as string], env),
      runCli(['keys', 'revoke', '--id', byId.id as string], env),
    ]);
    expect(success(revokedByKey)).toMatchObject({ revoked: true, id: byKey.id });
    expect(success(revokedById)).toMatchObject({ revoked: true, id: byId.id });
    // The answer does not echo the secret back.
    expect(revokedByKey.stdout).not.toContain(byKey.apiKey as string);

    // A key that is already revoked is reported as such, not revoked "again".
    expect(failure(await runCli(['keys', 'revoke', '--key', byKey.apiKey as string], env))).toBe('KEY_NOT_FOUND');
  });

  it('keys revoke without --key or --id names both; with both it refuses', async () => {
    const [neither, both] = await Promise.all([
      runCli(['keys', 'revoke'], env),
      runCli(['keys', 'revoke', '--key', 'snip_x', '--id', 'key_x'], env),
    ]);
    expect(failure(neither)).toBe('MISSING_ARGUMENT');
    expect(oneJsonLine(neither.stderr).message).toBe('--key or --id is required');
    expect(failure(both)).toBe('INVALID_ARGUMENT');
  });

  // Seven rounds of processes, one after the other: slow on a loaded machine.
  it('users list, keys list (never a secret) and users delete --yes (refused without it) manage accounts', { timeout: 120_000 }, async () => {
    const email = 'doomed@example.com';
    const user = success(await runCli(['users', 'create', '--email', email, '--tier', 'pro'], env));
    const file = path.join(freshDir(), 'links.csv');
    fs.writeFileSync(file, 'url\nhttps://example.com/1\nhttps://example.com/2\n');
    const [made, imported] = await Promise.all([
      runCli(['keys', 'create', '--email', email], env),
      runCli(['links', 'import', '--email', email, file], env),
    ]);
    const second = success(made);
    expect(success(imported)).toMatchObject({ imported: 2 });
    success(await runCli(['keys', 'revoke', '--id', second.id as string], env));

    const [listed, keys, unconfirmed, nobody, noEmail] = await Promise.all([
      runCli(['users', 'list'], env),
      runCli(['keys', 'list', '--email', email], env),
      runCli(['users', 'delete', '--email', email], env),
      runCli(['users', 'delete', '--email', 'nobody@example.com', '--yes'], env),
      runCli(['users', 'delete', '--yes'], env),
    ]);
    const users = success(listed).users as Record<string, unknown>[];
    expect(users.find((u) => u.email === email)).toEqual({
      id: user.id, email, tier: 'pro', namespace: user.namespace, role: 'member', createdAt: user.createdAt, disabledAt: null, linkCount: 2,
    });
    expect(users.find((u) => u.email === 'alice@example.com')).toMatchObject({ tier: 'pro', linkCount: expect.any(Number) });
    const createdAts = users.map((u) => u.createdAt as string);
    expect([...createdAts].sort()).toEqual(createdAts);

    expect(success(keys)).toEqual({
      email,
      keys: [
        { id: expect.any(String), prefix: (user.apiKey as string).slice(0, 13), createdAt: user.createdAt, name: null, lastUsedAt: null, revokedAt: null },
        { id: second.id, prefix: (second.apiKey as string).slice(0, 13), createdAt: second.createdAt, name: null, lastUsedAt: null, revokedAt: expect.any(String) },
      ],
    });
    for (const secret of [user.apiKey, second.apiKey] as string[]) expect(keys.stdout).not.toContain(secret);
    expect(keys.stdout).not.toMatch(/hash/i);

    // Without --yes nothing is deleted: the delete below still finds the account whole.
    expect(failure(unconfirmed)).toBe('CONFIRMATION_REQUIRED');
    expect(oneJsonLine(unconfirmed.stderr).message).toContain('--yes');
    expect(failure(nobody)).toBe('ACCOUNT_NOT_FOUND');
    expect(failure(noEmail)).toBe('MISSING_ARGUMENT');

    expect(success(await runCli(['users', 'delete', '--email', email, '--yes'], env))).toEqual({
      deleted: true, id: user.id, email, tier: 'pro', role: 'member', namespace: user.namespace, createdAt: user.createdAt, disabledAt: null, disabledReason: null,
      linkCount: 2, links: 2, apiKeys: 2, clicks: 0,
    });
    const [after, gone] = await Promise.all([runCli(['users', 'list'], env), runCli(['keys', 'list', '--email', email], env)]);
    expect((success(after).users as { email: string }[]).map((u) => u.email)).not.toContain(email);
    expect(failure(gone)).toBe('ACCOUNT_NOT_FOUND');
    // The address (and the namespace, now free) can be used again.
    const again = await runCli(['users', 'create', '--email', email, '--tier', 'free'], env);
    expect(success(again)).toMatchObject({ email, tier: 'free', namespace: user.namespace });
  });
});

describe.concurrent('CLI while the server runs on the same DATA_DIR', () => {
  let server: ServerProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    const dataDir = freshDir();
    env = { DATA_DIR: dataDir };
    // The database's first account is its operator, whom no plan limits: the accounts below are members.
    await runCli(['users', 'create', '--email', 'operator@example.com'], env);
    server = await startServer({ DATA_DIR: dataDir, BASE_URL: 'http://sho.rt' });
  });
  afterAll(async () => {
    await server?.kill();
  });

  const createLink = (key: string, url: string) =>
    request(server.url, { method: 'POST', path: '/api/v1/links', headers: bearer(key), body: { url } });

  it('a key made by the CLI works at once; set-tier, revoke and keys create apply to the next request without a restart', async () => {
    const email = 'live@example.com';
    const user = success(await runCli(['users', 'create', '--email', email, '--tier', 'pro'], env));
    const key = user.apiKey as string;
    expect(key).toMatch(API_KEY);

    const first = await createLink(key, 'https://example.com/one');
    expect(first.status, first.body).toBe(201);
    expect(first.json()).toMatchObject({ success: true, shortUrl: expect.stringMatching(/^http:\/\/sho\.rt\/[A-Za-z0-9]{6}$/) });

    success(await runCli(['users', 'set-tier', '--email', email, '--tier', 'free'], env));
    const asFree = await createLink(key, 'https://example.com/two');
    expect(asFree.status, asFree.body).toBe(403);
    expect(asFree.json()).toMatchObject({ error: true, code: 'TIER_REQUIRED', message: expect.any(String) });

    success(await runCli(['users', 'set-tier', '--email', email, '--tier', 'pro'], env));
    const backToPro = await createLink(key, 'https://example.com/three');
    expect(backToPro.status, backToPro.body).toBe(201);

    success(await runCli(['keys', 'revoke', '--key', key], env));
    const revoked = await createLink(key, 'https://example.com/four');
    expect(revoked.status, revoked.body).toBe(401);
    expect(revoked.json()).toMatchObject({ error: true, code: 'INVALID_API_KEY' });

    const fresh = success(await runCli(['keys', 'create', '--email', email], env));
    expect(fresh.apiKey).toMatch(API_KEY);
    const withNewKey = await createLink(fresh.apiKey as string, 'https://example.com/five');
    expect(withNewKey.status, withNewKey.body).toBe(201);

    // The links made with the old key belong to the account, so the new key sees all three.
    const list = await request(server.url, { method: 'GET', path: '/api/v1/links', headers: bearer(fresh.apiKey as string) });
    expect(list.status, list.body).toBe(200);
    expect((list.json().links as unknown[]).length).toBe(3);

    // The server kept running the whole time.
    expect(server.child.exitCode).toBeNull();
  });

  it('users set-password reads the password from stdin; the account signs in to the dashboard, and a new password signs it out everywhere', async () => {
    const email = 'dashboard@example.com';
    success(await runCli(['users', 'create', '--email', email], env));
    const signIn = (password: string) => request(server.url, { method: 'POST', path: '/api/auth/sign-in', body: { email, password } });
    expect((await signIn('correct horse battery')).status).toBe(401);

    const set = success(await runCli(['users', 'set-password', '--email', email], env, 'correct horse battery\n'));
    expect(set).toEqual({ email, passwordSet: true, sessionsEnded: 0 });
    const signedIn = await signIn('correct horse battery');
    expect(signedIn.status, signedIn.body).toBe(200);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
    expect((await request(server.url, { method: 'GET', path: '/api/auth/session', headers: { cookie } })).status).toBe(200);

    expect(failure(await runCli(['users', 'set-password', '--email', email], env, 'short\n'))).toBe('INVALID_PASSWORD');
    expect(failure(await runCli(['users', 'set-password', '--email', email], env, ''))).toBe('MISSING_ARGUMENT');
    expect(success(await runCli(['users', 'set-password', '--email', email], env, 'another good one'))).toMatchObject({ sessionsEnded: 1 });
    expect((await request(server.url, { method: 'GET', path: '/api/auth/session', headers: { cookie } })).status).toBe(401);
    expect((await signIn('another good one')).status).toBe(200);
  });
});

/** Every table and the column that ties its rows to an account (or, for `link_id`, to one of its links). */
const OWNED: [table: keyof Database, column: 'id' | 'account_id' | 'link_id'][] = [
  ['accounts', 'id'], ['api_keys', 'account_id'], ['namespaces', 'account_id'], ['links', 'account_id'], ['clicks', 'account_id'],
  ['click_rollups', 'account_id'], ['click_visitors', 'link_id'], ['account_usage', 'account_id'], ['webhooks', 'account_id'],
  ['webhook_deliveries', 'account_id'], ['outbox_events', 'account_id'], ['folders', 'account_id'], ['qr_settings', 'account_id'], ['link_scans', 'link_id'],
  ['domains', 'account_id'], ['link_tags', 'account_id'], ['utm_templates', 'account_id'], ['saved_views', 'account_id'],
  ['sessions', 'account_id'], ['agent_clicks', 'account_id'], ['web2app_sessions', 'account_id'], ['affiliate_programs', 'account_id'],
  ['affiliate_partnerships', 'account_id'], ['affiliate_conversions', 'account_id'], ['affiliate_paid_clicks', 'account_id'], ['oauth_records', 'account_id'], ['password_resets', 'account_id'],
];

describe(`users delete removes everything the account owns (in process, ${dialectName})`, () => {
  const t = useTestApp();

  /** Rows of `table` belonging to the account, through `column` (link_id: any of the account's links, even deleted ones). */
  async function owned(db: Kysely<Database>, table: string, column: string, accountId: string, linkIds: string[]): Promise<number> {
    const match = column === 'link_id' ? sql`link_id in (${sql.join(linkIds)})` : sql`${sql.ref(column)} = ${accountId}`;
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} where ${match}`.execute(db);
    return Number(rows[0]!.n);
  }

  /** One row in every account-owned table the API did not fill already. */
  async function plant(db: Kysely<Database>, accountId: string, linkId: string): Promise<void> {
    const at = new Date().toISOString();
    const id = (prefix: string) => `${prefix}_${accountId}`;
    await db.insertInto('clicks').values({ id: id('clk'), link_id: linkId, account_id: accountId, at, country: null, region: null, city: null, browser: 'Other', os: 'Other', device: 'desktop', referrer: null, visitor: 'v', grace_cycle: null }).execute();
    await db.insertInto('click_rollups').values({ link_id: linkId, account_id: accountId, day: '2020-01-01', dimension: 'total', value: '', grace_cycle: '', clicks: 1 }).onConflict((oc) => oc.doNothing()).execute();
    await db.insertInto('click_visitors').values({ link_id: linkId, day: '2020-01-01', visitor: 'v' }).onConflict((oc) => oc.doNothing()).execute();
    await db.insertInto('account_usage').values({ account_id: accountId, cycle: '2020-01', tracked_clicks: 1, grace_started_at: null }).onConflict((oc) => oc.doNothing()).execute();
    await db.insertInto('webhooks').values({ id: id('whk'), account_id: accountId, url: 'https://example.com/hook', name: 'hook', events: 'link.created', secret: 's', enabled: 0, created_at: at, last_delivery_at: null, last_status: null }).execute();
    await db.insertInto('webhook_deliveries').values({ id: id('dlv'), webhook_id: id('whk'), account_id: accountId, event: 'link.created', body: '{}', status: 'delivered', next_attempt_at: null, locked_until: null, last_status: 200, last_error: null, created_at: at, finished_at: at }).execute();
    await db.insertInto('folders').values({ id: id('fld'), account_id: accountId, name: 'Folder', color: null, created_at: at }).execute();
    await db.insertInto('qr_settings').values({ account_id: accountId, color: '000000', bg_color: 'ffffff', size: 300, error_correction: 'M', margin: 4, updated_at: at }).execute();
    await db.insertInto('link_scans').values({ link_id: linkId, score: 100, status: 'safe', source: 'test', url: 'https://example.com/', scanned_at: at }).onConflict((oc) => oc.doNothing()).execute();
    await db.insertInto('domains').values({ hostname: `${accountId.toLowerCase().replace(/_/g, '-')}.example.org`, account_id: accountId, status: 'pending_txt', verification_token: 't', is_default: 0, not_found_page: null, created_at: at, verified_at: null, activated_at: null }).execute();
    await db.insertInto('link_tags').values({ link_id: linkId, account_id: accountId, tag: 'Sale', tag_key: 'sale', created_at: at }).execute();
    await db.insertInto('utm_templates').values({ id: id('tpl'), account_id: accountId, name: 'T', name_key: 't', utm_source: 'x', utm_medium: null, utm_campaign: null, utm_term: null, utm_content: null, created_at: at }).execute();
    await db.insertInto('saved_views').values({ id: id('view'), account_id: accountId, name: 'V', name_key: 'v', filters: '{}', created_at: at, updated_at: at }).execute();
    await db.insertInto('usage_counters').values({ key: `usage:${accountId}:month:0`, count: 1, expires_at: '2999-01-01T00:00:00.000Z' }).execute();
    await db.insertInto('outbox_events').values({ id: id('evt'), account_id: accountId, event: 'link.created', body: '{}', created_at: at }).execute();
    await db.insertInto('sessions').values({ id: id('ses'), account_id: accountId, created_at: at, expires_at: '2999-01-01T00:00:00.000Z' }).execute();
    await db.insertInto('password_resets').values({ id: id('rst'), account_id: accountId, created_by: 'cli', created_at: at, expires_at: '2999-01-01T00:00:00.000Z', used_at: null }).execute();
    await db.insertInto('agent_clicks').values({ link_id: linkId, account_id: accountId, day: '2020-01-01', agent: 'ChatGPT-User', clicks: 1 }).execute();
    await db.insertInto('web2app_sessions').values({ id_hash: id('w2a'), link_id: linkId, account_id: accountId, short_code: 'abcdef', platform: 'ios', deep_link: 'app://x', params: '{}', created_at: at, expires_at: at, claimed_at: null }).execute();
    await db.insertInto('affiliate_programs').values({ id: id('afp'), account_id: accountId, name: 'P', url: 'https://example.com/', commission_type: 'CPC', commission_cents: 1, currency: 'USD', public: 1, status: 'active', created_at: at, updated_at: at }).execute();
    await db.insertInto('affiliate_partnerships').values({ id: id('prt'), program_id: id('afp'), account_id: accountId, program_account_id: accountId, link_id: linkId, created_at: at }).execute();
    await db.insertInto('affiliate_conversions').values({ click_id: id('cid'), program_id: id('afp'), partnership_id: id('prt'), account_id: accountId, amount_cents: null, commission_cents: 0, created_at: at }).execute();
    await db.insertInto('affiliate_paid_clicks').values({ program_id: id('afp'), day: '2020-01-01', address: 'a', partnership_id: id('prt'), link_id: linkId, account_id: accountId, created_at: at }).execute();
  }

  it('deletes every row of the account in every table and leaves other accounts alone', async () => {
    const db = t.core.database.db;
    // Every table that ties rows to an account or a link is checked here: a new one must be added to the delete.
    const tables = await db.introspection.getTables();
    const tied = tables.filter((table) => table.columns.some((c) => c.name === 'account_id' || c.name === 'link_id')).map((table) => table.name);
    expect(new Set(OWNED.map(([table]) => table as string))).toEqual(new Set([...tied, 'accounts']));

    // Events wait in the outbox (not relayed meanwhile), so the account has rows there to delete.
    await t.core.relay.stop();
    const [victim, survivor] = [await t.createUser('pro'), await t.createUser('pro')];
    const linkIds = new Map<string, string[]>();
    for (const user of [victim, survivor]) {
      const ids: string[] = [];
      for (const payload of [{ url: 'https://example.com/x' }, { url: 'https://example.com/y', customSlug: 'gone-soon' }]) {
        const res = await t.as(user, { method: 'POST', url: '/api/v1/links', payload });
        expect(res.statusCode, res.body).toBe(201);
        const code = res.json<{ shortCode: string }>().shortCode;
        expect((await t.app.inject({ method: 'GET', url: `/${code}` })).statusCode).toBe(302);
        ids.push((await db.selectFrom('links').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id);
      }
      await t.core.clicks.settle();
      await plant(db, user.id, ids[0]!);
      // A connected application (OAuth): its grant is a row of the account's.
      await new t.core.oauthProvider.Grant({ accountId: user.id, clientId: 'some-client' }).save();
      linkIds.set(user.id, ids);
    }
    const counts = async (user: { id: string }) =>
      Object.fromEntries(await Promise.all(OWNED.map(async ([table, column]) => [table, await owned(db, table, column, user.id, linkIds.get(user.id)!)] as const)));
    const usage = async (user: { id: string }) =>
      Number((await db.selectFrom('usage_counters').select((eb) => eb.fn.countAll<number | string>().as('n')).where('key', 'like', `usage:${user.id}:%`).executeTakeFirstOrThrow()).n);
    const before = await counts(victim);
    for (const [table, n] of Object.entries(before)) expect(n, table).toBeGreaterThan(0);
    const survivorBefore = await counts(survivor);

    const result = await t.core.accounts.deleteAccount(victim.email);
    expect(result).toMatchObject({ id: victim.id, email: victim.email, deleted: { links: 2, apiKeys: 1, clicks: before.clicks } });
    expect(Object.values(await counts(victim)).every((n) => n === 0), JSON.stringify(await counts(victim))).toBe(true);
    expect(await usage(victim)).toBe(0);
    expect(await counts(survivor)).toEqual(survivorBefore);
    expect(await usage(survivor)).toBe(1);

    // The account is gone for every surface: its key no longer works, its links no longer redirect.
    expect((await t.as(victim, { method: 'GET', url: '/api/v1/links' })).statusCode).toBe(401);
    await expect(t.core.accounts.deleteAccount(victim.email)).rejects.toMatchObject({ code: 'ACCOUNT_NOT_FOUND' });
    expect((await t.as(survivor, { method: 'GET', url: '/api/v1/links' })).statusCode).toBe(200);
  });
});
