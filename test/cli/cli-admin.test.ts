import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAll, oneJsonLine, removeDir, runCli, tempDir, type RunResult } from '../helpers/processes.js';

/** The operator's admin operations on the command line: the same operations as the Admin area, audited as `cli`. */

let dir: string;
let env: Record<string, string>;

const ok = (result: RunResult): Record<string, unknown> => {
  expect(result.code, `stderr: ${result.stderr}`).toBe(0);
  return oneJsonLine(result.stdout);
};
const refused = (result: RunResult): string => {
  expect(result.code, result.stdout).not.toBe(0);
  return oneJsonLine(result.stderr).code as string;
};
const cli = (...args: string[]) => runCli(args, env);

beforeAll(async () => {
  dir = tempDir('snip-cli-admin-');
  env = { DATA_DIR: dir, BASE_URL: 'http://snip.example' };
  ok(await cli('users', 'create', '--email', 'owner@example.com'));
  ok(await cli('users', 'create', '--email', 'bob@example.com'));
});

afterAll(async () => {
  await killAll();
  removeDir(dir);
});

describe('the admin commands', () => {
  it('makes the first account the operator; operators add, list and remove, never the last one', async () => {
    expect((ok(await cli('operators', 'list')).operators as { email: string }[]).map((o) => o.email)).toEqual(['owner@example.com']);
    expect(ok(await cli('operators', 'add', '--email', 'bob@example.com'))).toMatchObject({ email: 'bob@example.com', role: 'operator' });
    expect(ok(await cli('operators', 'remove', '--email', 'bob@example.com'))).toMatchObject({ role: 'member' });
    expect(refused(await cli('operators', 'remove', '--email', 'owner@example.com'))).toBe('LAST_OPERATOR');
    expect(refused(await cli('keys', 'create', '--email', 'bob@example.com', '--admin'))).toBe('INVALID_ARGUMENT');
    const key = ok(await cli('keys', 'create', '--email', 'owner@example.com', '--admin', '--name', 'Admin script'));
    expect(key).toMatchObject({ name: 'Admin script', scopes: ['admin'] });
  });

  it('disables and enables an account, and makes a reset link', async () => {
    expect(ok(await cli('users', 'disable', '--email', 'bob@example.com', '--reason', 'spam'))).toMatchObject({ disabledReason: 'spam' });
    expect(ok(await cli('users', 'enable', '--email', 'bob@example.com'))).toMatchObject({ disabledAt: null });
    expect(ok(await cli('users', 'reset-password', '--email', 'bob@example.com')).url).toMatch(/^http:\/\/snip\.example\/app\/reset-password\?token=/);
  });

  it('sets sign-ups and makes invites', async () => {
    expect(ok(await cli('sign-ups', 'set', '--mode', 'invite', '--tier', 'pro'))).toEqual({ mode: 'invite', tier: 'pro' });
    expect(ok(await cli('sign-ups', 'show'))).toEqual({ mode: 'invite', tier: 'pro' });
    expect(refused(await cli('sign-ups', 'set', '--mode', 'sometimes'))).toBe('INVALID_ARGUMENT');
    expect(ok(await cli('invites', 'create'))).toMatchObject({ tier: 'pro', url: expect.stringMatching(/^http:\/\/snip\.example\/app\/sign-up\?invite=/) });
  });

  it('disables a link by its short URL and enables it; the audit log lists it all as done by cli', async () => {
    const file = path.join(dir, 'links.csv');
    fs.writeFileSync(file, 'url\nhttps://example.com/abuse\n');
    expect(ok(await cli('links', 'import', '--email', 'bob@example.com', file))).toMatchObject({ imported: 1 });
    const exported = await cli('links', 'export', '--email', 'bob@example.com', '--format', 'json');
    const shortUrl = (JSON.parse(exported.stdout) as { links: { shortUrl: string }[] }).links[0]!.shortUrl;
    expect(ok(await cli('links', 'disable', '--url', shortUrl, '--reason', 'Malware'))).toMatchObject({ disabledReason: 'Malware', owner: { email: 'bob@example.com' } });
    expect(refused(await cli('links', 'disable', '--url', shortUrl))).toBe('MISSING_ARGUMENT');
    expect(ok(await cli('links', 'enable', '--url', shortUrl))).toMatchObject({ disabledAt: null });
    const log = ok(await cli('audit', 'list'));
    const entries = log.entries as { actor: string; action: string }[];
    expect(new Set(entries.map((e) => e.actor))).toEqual(new Set(['cli']));
    for (const action of ['account.role', 'account.disable', 'account.enable', 'account.password-reset', 'sign-ups.update', 'invite.create', 'link.disable', 'link.enable']) {
      expect(entries.map((e) => e.action)).toContain(action);
    }
  });
});
