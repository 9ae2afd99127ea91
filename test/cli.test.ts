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
