import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { FOLDER_OPERATIONS } from '../../src/folders/operations.js';
import { callTool, errorCodesOfTool, tool } from '../../src/mcp/tool.js';
import { TOOLS } from '../../src/mcp/server.js';
import { dialectName, startApp, type TestApp } from '../helpers/app.js';
import { connectClient, listenMcp, ok, refused, textJson, type ToolError } from '../helpers/mcp.js';

/**
 * A tool error is held to its tool's declared codes as a REST answer is to its route's (src/http/declared-codes.ts):
 * a code outside them fails the test that made a tool answer it, when its app closes (test/helpers/app.ts).
 */

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures');

/** A fresh app, listening for MCP, once `calls` have run against it: the test closes it and reads how that went. */
async function afterCalls(env: Record<string, string>, calls: (t: TestApp, url: URL) => Promise<void>): Promise<TestApp> {
  const t = await startApp(env);
  try {
    await calls(t, await listenMcp(t));
  } catch (error) {
    await t.close().catch(() => {});
    throw error;
  }
  return t;
}

describe(`MCP tool errors and the codes their tools declare (${dialectName})`, () => {
  it('refusals a tool declares, from its service, its arguments and its plan, leave the app closing cleanly', async () => {
    const t = await afterCalls({}, async (app, url) => {
      const pro = await app.createUser('pro');
      const client = await connectClient(url, pro.apiKey);
      try {
        await ok(client, 'create_folder', { name: 'Twice' });
        // The service's refusal, one its operation declares.
        await refused(client, 'create_folder', { name: 'Twice' }, 'FOLDER_EXISTS');
        // The argument schema's field code: derived from the tool's arguments, not listed by hand.
        await refused(client, 'update_folder', { name: 'No id' }, 'MISSING_FOLDER_ID');
        await refused(client, 'delete_folder', { folderId: 'fld_none' }, 'FOLDER_NOT_FOUND');
      } finally {
        await client.close();
      }
      const free = await app.createUser('free');
      const freeClient = await connectClient(url, free.apiKey);
      try {
        // The plan's refusal: the policy's tier code.
        await refused(freeClient, 'create_folder', { name: 'Free' }, 'TIER_REQUIRED');
      } finally {
        await freeClient.close();
      }
    });
    await expect(t.close()).resolves.toBeUndefined();
  });

  it('a refusal outside its tool`s declared codes fails the test, naming the tool and the code', async () => {
    // create_folder as it would be if its operation forgot FOLDER_EXISTS: the server's own tools all declare theirs,
    // so the mis-declared one lives in this test and is called as the server calls its tools, on the app's core.
    const misdeclared = tool({
      name: 'create_folder_misdeclared',
      title: 'Create a folder',
      scope: 'links:write',
      description: 'create_folder with FOLDER_EXISTS left out of its operation`s codes',
      operation: { ...FOLDER_OPERATIONS.create, errors: FOLDER_OPERATIONS.create.errors.filter((code) => code !== 'FOLDER_EXISTS') },
      input: { name: Type.String() },
      run: async (input, { core, caller }) => core.folders.create(caller, input),
    });
    expect(errorCodesOfTool(misdeclared)).not.toContain('FOLDER_EXISTS');

    const t = await afterCalls({}, async (app) => {
      const user = await app.createUser('pro');
      const context = { core: app.core, caller: await app.core.accounts.authenticate(user.apiKey) };
      expect((await callTool(misdeclared, { name: 'Twice' }, context, 1)).isError).toBeUndefined();
      // The client still gets REST's code: the check reports, it does not change the answer.
      const second = await callTool(misdeclared, { name: 'Twice' }, context, 2);
      expect(second.isError).toBe(true);
      expect(textJson<ToolError>(second)).toMatchObject({ error: true, code: 'FOLDER_EXISTS' });
    });
    await expect(t.close()).rejects.toThrow('tools/call create_folder_misdeclared: FOLDER_EXISTS');
  });

  it('join_affiliate_program at the daily link limit answers RATE_LIMITED, a code it declares', async () => {
    const t = await afterCalls({ PLANS_FILE: path.join(FIXTURES, 'plans-links-per-day.json') }, async (app, url) => {
      const owner = await app.createUser('builder');
      const partner = await app.createUser('pro');
      const ownerClient = await connectClient(url, owner.apiKey);
      const partnerClient = await connectClient(url, partner.apiKey);
      try {
        const program = await ok<{ id: string }>(ownerClient, 'create_affiliate_program', { name: 'Daily', url: 'https://example.com/shop', commissionType: 'CPC', commissionCents: 5 });
        // Pro's 5 links a day, made over REST; joining makes a sixth, the partner link.
        for (let i = 0; i < 5; i++) {
          const res = await app.as(partner, { method: 'POST', url: '/api/v1/links', payload: { url: `https://example.com/daily-${i}` } });
          expect(res.statusCode, res.body).toBe(201);
        }
        await refused(partnerClient, 'join_affiliate_program', { programId: program.id }, 'RATE_LIMITED');
      } finally {
        await Promise.all([ownerClient.close(), partnerClient.close()]);
      }
    });
    await expect(t.close()).resolves.toBeUndefined();
  });

  it('what a tool declares besides its operation`s codes is derived: its access, its arguments, the framework', () => {
    const codesOf = (name: string) => [...errorCodesOfTool(TOOLS.find((spec) => spec.name === name)!)];
    for (const spec of TOOLS) {
      expect([...errorCodesOfTool(spec)], spec.name).toEqual(expect.arrayContaining([...spec.operation.errors, 'INTERNAL_ERROR', 'INSUFFICIENT_SCOPE']));
    }
    // The policy's tier code, where the policy asks more than any plan.
    expect(codesOf('create_folder')).toContain('TIER_REQUIRED');
    expect(codesOf('list_domains')).toContain('TIER_UPGRADE_REQUIRED');
    expect(codesOf('get_profile')).not.toEqual(expect.arrayContaining(['TIER_REQUIRED']));
    // The field codes of the arguments, as REST's of a body.
    expect(codesOf('get_link')).toEqual(expect.arrayContaining(['MISSING_SHORT_PATH', 'INVALID_SHORT_PATH', 'INVALID_BODY']));
    expect(codesOf('get_qr_code')).toEqual(expect.arrayContaining(['INVALID_SIZE', 'INVALID_COLOR', 'INVALID_BG_COLOR', 'INVALID_MARGIN']));
  });
});
