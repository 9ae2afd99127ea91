import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer, killAll, oneJsonLine, removeDir, request, runCli, runNpmCli, startServer, tempDir, type RunResult, type ServerProcess,
} from './helpers/processes.js';

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

describe.concurrent('CLI on its own', () => {
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = freshDir();
    env = { DATA_DIR: dataDir };
    // The first command creates and migrates the database; the rest of this block runs in parallel on it.
    success(await runCli(['users', 'create', '--email', 'first@example.com', '--tier', 'free'], env));
  });

  it('users create prints exactly one JSON line with id, email, tier and apiKey, and exits 0', async () => {
    const user = success(await runCli(['users', 'create', '--email', 'alice@example.com', '--tier', 'pro'], env));
    expect(user).toMatchObject({ id: expect.any(String), email: 'alice@example.com', tier: 'pro' });
    expect(user.apiKey).toMatch(API_KEY);
  });

  it('works through the npm script: npm run --silent cli -- users create ...', async () => {
    const result = await runNpmCli(['users', 'create', '--email', 'npm@example.com', '--tier', 'builder'], env);
    const user = success(result);
    expect(user).toMatchObject({ id: expect.any(String), email: 'npm@example.com', tier: 'builder' });
    expect(user.apiKey).toMatch(API_KEY);
  });

  it('refuses a taken email with EMAIL_TAKEN on stderr, nothing on stdout and a non-zero exit', async () => {
    success(await runCli(['users', 'create', '--email', 'dup@example.com', '--tier', 'pro'], env));
    expect(failure(await runCli(['users', 'create', '--email', 'dup@example.com', '--tier', 'free'], env))).toBe('EMAIL_TAKEN');
  });

  it('refuses an unknown tier with INVALID_TIER', async () => {
    expect(failure(await runCli(['users', 'create', '--email', 'tier@example.com', '--tier', 'platinum'], env))).toBe('INVALID_TIER');
  });

  it('refuses a malformed email with INVALID_EMAIL', async () => {
    expect(failure(await runCli(['users', 'create', '--email', 'not-an-email', '--tier', 'pro'], env))).toBe('INVALID_EMAIL');
  });

  it('users set-tier changes the tier and answers one JSON line; a bad tier is INVALID_TIER', async () => {
    success(await runCli(['users', 'create', '--email', 'tiers@example.com', '--tier', 'free'], env));
    const changed = success(await runCli(['users', 'set-tier', '--email', 'tiers@example.com', '--tier', 'enterprise'], env));
    expect(changed).toMatchObject({ email: 'tiers@example.com', tier: 'enterprise' });
    const shown = success(await runCli(['users', 'show', '--email', 'tiers@example.com'], env));
    expect(shown).toMatchObject({ email: 'tiers@example.com', tier: 'enterprise' });
    expect(failure(await runCli(['users', 'set-tier', '--email', 'tiers@example.com', '--tier', 'gold'], env))).toBe('INVALID_TIER');
  });

  it('keys create prints one JSON line with a new apiKey; revoke works by key and by id, once', async () => {
    const user = success(await runCli(['users', 'create', '--email', 'keys@example.com', '--tier', 'pro'], env));
    const [byKey, byId] = await Promise.all([
      runCli(['keys', 'create', '--email', 'keys@example.com'], env).then(success),
      runCli(['keys', 'create', '--email', 'keys@example.com'], env).then(success),
    ]);
    for (const created of [byKey, byId]) {
      expect(created.apiKey).toMatch(API_KEY);
      expect(created.apiKey).not.toBe(user.apiKey);
      expect(created.id).toEqual(expect.any(String));
    }
    expect(byKey.apiKey).not.toBe(byId.apiKey);

    const [revokedByKey, revokedById] = await Promise.all([
      runCli(['keys', 'revoke', '--key', byKey.apiKey as string], env).then(success),
      runCli(['keys', 'revoke', '--id', byId.id as string], env).then(success),
    ]);
    expect(revokedByKey).toMatchObject({ revoked: true, id: byKey.id });
    expect(revokedById).toMatchObject({ revoked: true, id: byId.id });
    // Neither output echoes the secret back.
    expect(JSON.stringify(revokedByKey)).not.toContain(byKey.apiKey as string);

    // A key that is already revoked, or never existed, is an error.
    const [again, unknown] = await Promise.all([
      runCli(['keys', 'revoke', '--key', byKey.apiKey as string], env),
      runCli(['keys', 'revoke', '--id', 'key_doesnotexist'], env),
    ]);
    expect(failure(again)).toBe('KEY_NOT_FOUND');
    expect(failure(unknown)).toBe('KEY_NOT_FOUND');
  });

  it('keys create for an unknown email fails with ACCOUNT_NOT_FOUND', async () => {
    expect(failure(await runCli(['keys', 'create', '--email', 'nobody@example.com'], env))).toBe('ACCOUNT_NOT_FOUND');
  });

  it('a missing required option is an error line, not a crash', async () => {
    expect(failure(await runCli(['users', 'set-tier', '--email', 'tiers@example.com'], env))).toBe('MISSING_ARGUMENT');
  });
});

describe.concurrent('CLI while the server runs on the same DATA_DIR', () => {
  let server: ServerProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    const dataDir = freshDir();
    env = { DATA_DIR: dataDir };
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
});
