import { describe, expect, it } from 'vitest';
import { dialectName, useTestApp, type BlockApp, type TestUser } from '../helpers/app.js';
import { expectAllOk, expectRestStatus, expectSameError, mcp, PARITY_PLANS, rest, type Outcome } from './helpers.js';

/**
 * Parity (issue 15) of the operations around links: QR codes, folders, tags, webhooks and statistics, over
 * Description A, Description B and MCP (the CLI has none of them). Builder accounts; plans-parity.json gives
 * Builder 2 folders and 2 webhooks.
 */

const makeLink = async (t: BlockApp, user: TestUser, url: string): Promise<string> => {
  const res = await t.as(user, { method: 'POST', url: '/api/v1/links', payload: { url } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ shortCode: string }>().shortCode;
};

describe(`parity: QR codes, REST query and MCP tool (${dialectName})`, () => {
  const t = useTestApp({ PLANS_FILE: PARITY_PLANS });
  const builder = t.user('builder');

  const qr = async (shortPath: string, query: Record<string, string | number>): Promise<Record<'REST' | 'MCP', Outcome>> => {
    const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    return {
      REST: await rest(t, null, 'GET', `/api/qr/${shortPath}${search ? `?${search}` : ''}`),
      MCP: await mcp(t, builder, 'get_qr_code', { shortPath, ...query }),
    };
  };

  it('a good QR code on both', async () => {
    const code = await makeLink(t, builder, 'https://example.com/parity/qr');
    expectAllOk('qr', await qr(code, { size: 200, ecc: 'H' }));
  });

  it.each([
    ['size=50', { size: 50 }],
    ['size=5000', { size: 5000 }],
    ['ecc=X', { ecc: 'X' }],
    ['margin=11', { margin: 11 }],
  ] as const)('%s: the same code and message on REST and MCP', async (label, query) => {
    const code = await makeLink(t, builder, 'https://example.com/parity/qr-bad');
    const outcomes = await qr(code, query);
    expect(outcomes.REST.ok, `REST should refuse ${label}: ${JSON.stringify(outcomes.REST)}`).toBe(false);
    expectSameError(`qr ${label}`, outcomes, (outcomes.REST as { code: string }).code);
    expect(outcomes.REST.status).toBe(400);
  });

  it('an unknown link: NOT_FOUND on both', async () => {
    const outcomes = await qr('zzzzzz', {});
    expectSameError('qr unknown', outcomes, 'NOT_FOUND');
    expect(outcomes.REST.status).toBe(404);
  });
});

describe(`parity: folders over A, B and MCP (${dialectName})`, () => {
  const t = useTestApp({ PLANS_FILE: PARITY_PLANS });
  const users = { A: t.user('builder'), B: t.user('builder'), MCP: t.user('builder') };
  const create = (surface: 'A' | 'B' | 'MCP', body: Record<string, unknown>): Promise<Outcome> =>
    surface === 'A'
      ? rest(t, users.A, 'POST', '/api/v1/folders', body)
      : surface === 'B'
        ? rest(t, users.B, 'POST', '/api/folders', body)
        : mcp(t, users.MCP, 'create_folder', body);
  const list = async () => ({
    A: await rest(t, users.A, 'GET', '/api/v1/folders'),
    B: await rest(t, users.B, 'GET', '/api/folders'),
    MCP: await mcp(t, users.MCP, 'list_folders'),
  });
  const names = (body: unknown) => (body as { folders: { name: string }[] }).folders.map((f) => f.name).sort();
  const ids: Record<string, string[]> = { A: [], B: [], MCP: [] };

  it('create: two folders each (a duplicate name is FOLDER_EXISTS everywhere), the same list on every surface; the third is FOLDER_LIMIT_REACHED everywhere', async () => {
    for (const name of ['Work', 'Home']) {
      const bodies = expectAllOk(`create ${name}`, { A: await create('A', { name }), B: await create('B', { name }), MCP: await create('MCP', { name }) });
      for (const s of ['A', 'B', 'MCP'] as const) ids[s]!.push((bodies[s] as { id: string }).id);
      if (name === 'Work') {
        // A duplicate name, below the limit: FOLDER_EXISTS everywhere.
        const duplicate = { A: await create('A', { name }), B: await create('B', { name }), MCP: await create('MCP', { name }) };
        expectSameError('folder duplicate', duplicate, 'FOLDER_EXISTS');
        expectRestStatus('folder duplicate', duplicate, 409);
      }
    }
    const listed = expectAllOk('list', await list());
    expect({ A: names(listed.A), B: names(listed.B), MCP: names(listed.MCP) }).toEqual({ A: ['Home', 'Work'], B: ['Home', 'Work'], MCP: ['Home', 'Work'] });
    expect({ A: (listed.A as { canCreate: boolean }).canCreate, B: (listed.B as { canCreate: boolean }).canCreate, MCP: (listed.MCP as { canCreate: boolean }).canCreate }).toEqual({
      A: false,
      B: false,
      MCP: false,
    });
    const over = { A: await create('A', { name: 'Third' }), B: await create('B', { name: 'Third' }), MCP: await create('MCP', { name: 'Third' }) };
    expectSameError('folder limit', over, 'FOLDER_LIMIT_REACHED');
    expectRestStatus('folder limit', over, 403);
  });

  it('delete: the same answer; an unknown folder is FOLDER_NOT_FOUND everywhere; then a third folder may be made', async () => {
    expectAllOk('delete', {
      A: await rest(t, users.A, 'DELETE', `/api/v1/folders/${ids.A![0]}`),
      B: await rest(t, users.B, 'DELETE', `/api/folders/${ids.B![0]}`),
      MCP: await mcp(t, users.MCP, 'delete_folder', { folderId: ids.MCP![0] }),
    });
    const again = {
      A: await rest(t, users.A, 'DELETE', `/api/v1/folders/${ids.A![0]}`),
      B: await rest(t, users.B, 'DELETE', `/api/folders/${ids.B![0]}`),
      MCP: await mcp(t, users.MCP, 'delete_folder', { folderId: ids.MCP![0] }),
    };
    expectSameError('delete unknown folder', again, 'FOLDER_NOT_FOUND');
    expectRestStatus('delete unknown folder', again, 404);
    const listed = expectAllOk('list', await list());
    expect({ A: names(listed.A), B: names(listed.B), MCP: names(listed.MCP) }).toEqual({ A: ['Home'], B: ['Home'], MCP: ['Home'] });
    expectAllOk('third after delete', { A: await create('A', { name: 'Third' }), B: await create('B', { name: 'Third' }), MCP: await create('MCP', { name: 'Third' }) });
  });

  it('an empty name: INVALID_NAME everywhere; the message names each description`s own maximum (A 50, B 40), MCP A`s', async () => {
    const outcomes = { A: await create('A', { name: '' }), B: await create('B', { name: '' }), MCP: await create('MCP', { name: '' }) };
    // The spec gives A and B different name lengths, so B's wording legitimately differs: its code is compared alone.
    expectSameError('folder empty name (A, MCP)', { A: outcomes.A, MCP: outcomes.MCP }, 'INVALID_NAME');
    expectSameError('folder empty name (B)', { B: outcomes.B }, 'INVALID_NAME');
    expectRestStatus('folder empty name', outcomes, 400);
  });
});

describe(`parity: tags over A, B and MCP (${dialectName})`, () => {
  const t = useTestApp({ PLANS_FILE: PARITY_PLANS });
  const builder = t.user('builder');
  const add = async (codes: Record<'A' | 'B' | 'MCP', string>, tag: unknown) => ({
    A: await rest(t, builder, 'POST', `/api/v1/links/${codes.A}/tags`, { tag }),
    B: await rest(t, builder, 'POST', `/api/links/${codes.B}/tags`, { tag }),
    MCP: await mcp(t, builder, 'add_link_tag', { shortPath: codes.MCP, tag }),
  });
  const tagsOf = async (code: string) => ((await rest(t, builder, 'GET', `/api/v1/links/${code}`)) as { body: { tags: string[] } }).body.tags;

  it('add and remove: the same tags on every surface', async () => {
    const codes = { A: await makeLink(t, builder, 'https://example.com/parity/tag-a'), B: await makeLink(t, builder, 'https://example.com/parity/tag-b'), MCP: await makeLink(t, builder, 'https://example.com/parity/tag-m') };
    expectAllOk('add', await add(codes, 'Launch'));
    expectAllOk('add again', await add(codes, 'Launch'));
    expect([await tagsOf(codes.A), await tagsOf(codes.B), await tagsOf(codes.MCP)]).toEqual([['Launch'], ['Launch'], ['Launch']]);
    expectAllOk('remove', {
      A: await rest(t, builder, 'DELETE', `/api/v1/links/${codes.A}/tags/Launch`),
      B: await rest(t, builder, 'DELETE', `/api/links/${codes.B}/tags/Launch`),
      MCP: await mcp(t, builder, 'remove_link_tag', { shortPath: codes.MCP, tag: 'Launch' }),
    });
    expect([await tagsOf(codes.A), await tagsOf(codes.B), await tagsOf(codes.MCP)]).toEqual([[], [], []]);
  });

  it('an unknown link: NOT_FOUND everywhere', async () => {
    const outcomes = await add({ A: 'zzzzzz', B: 'zzzzzz', MCP: 'zzzzzz' }, 'x');
    expectSameError('tag unknown link', outcomes, 'NOT_FOUND');
    expectRestStatus('tag unknown link', outcomes, 404);
  });

  it.each([
    ['an empty tag', ''],
    ['a 31-character tag', 'x'.repeat(31)],
  ])('%s: the same code and message everywhere', async (label, tag) => {
    const code = await makeLink(t, builder, 'https://example.com/parity/tag-bad');
    const outcomes = await add({ A: code, B: code, MCP: code }, tag);
    expect(outcomes.A.ok, JSON.stringify(outcomes.A)).toBe(false);
    expectSameError(`tag ${label}`, outcomes, (outcomes.A as { code: string }).code);
    expectRestStatus(`tag ${label}`, outcomes, 400);
  });
});

describe(`parity: webhooks over A, B and MCP (${dialectName})`, () => {
  const t = useTestApp({ PLANS_FILE: PARITY_PLANS, WEBHOOK_ALLOW_PRIVATE: 'true' });
  const users = { A: t.user('builder'), B: t.user('builder'), MCP: t.user('builder') };
  const create = async (body: Record<string, unknown>) => ({
    A: await rest(t, users.A, 'POST', '/api/v1/webhooks', body),
    B: await rest(t, users.B, 'POST', '/api/webhooks', body),
    MCP: await mcp(t, users.MCP, 'create_webhook', body),
  });

  it.each([
    ['not a URL', 'not a url'],
    ['an ftp: URL', 'ftp://example.com/hook'],
    ['a javascript: URL', 'javascript:alert(1)'],
  ])('a bad URL (%s): the same code and message everywhere, nothing made', async (label, url) => {
    const outcomes = await create({ url, events: ['link.created'] });
    expect(outcomes.A.ok, JSON.stringify(outcomes.A)).toBe(false);
    expectSameError(`webhook ${label}`, outcomes, (outcomes.A as { code: string }).code);
    expectRestStatus(`webhook ${label}`, outcomes, 400);
  });

  it('bad events: INVALID_EVENTS everywhere', async () => {
    const outcomes = await create({ url: 'http://127.0.0.1:59999/parity-events', events: ['click'] });
    expectSameError('webhook bad events', outcomes, 'INVALID_EVENTS');
  });

  it('the limit: two webhooks each, the third is WEBHOOK_LIMIT_REACHED everywhere; the lists agree', async () => {
    for (const i of [1, 2]) expectAllOk(`webhook ${i}`, await create({ url: `http://127.0.0.1:59999/parity-${i}`, events: ['link.created'] }));
    const over = await create({ url: 'http://127.0.0.1:59999/parity-3', events: ['link.created'] });
    expectSameError('webhook limit', over, 'WEBHOOK_LIMIT_REACHED');
    expectRestStatus('webhook limit', over, 403);
    const lists = expectAllOk('list', {
      A: await rest(t, users.A, 'GET', '/api/v1/webhooks'),
      B: await rest(t, users.B, 'GET', '/api/webhooks'),
      MCP: await mcp(t, users.MCP, 'list_webhooks'),
    });
    const urls = (body: unknown) => (body as { webhooks: { url: string }[] }).webhooks.map((w) => w.url).sort();
    const expected = ['http://127.0.0.1:59999/parity-1', 'http://127.0.0.1:59999/parity-2'];
    expect({ A: urls(lists.A), B: urls(lists.B), MCP: urls(lists.MCP) }).toEqual({ A: expected, B: expected, MCP: expected });
  });

  it('an unknown webhook: the same code on delete everywhere', async () => {
    const outcomes = {
      A: await rest(t, users.A, 'DELETE', '/api/v1/webhooks/wh_nope'),
      B: await rest(t, users.B, 'DELETE', '/api/webhooks/wh_nope'),
      MCP: await mcp(t, users.MCP, 'delete_webhook', { webhookId: 'wh_nope' }),
    };
    expectSameError('delete unknown webhook', outcomes, 'WEBHOOK_NOT_FOUND');
    expectRestStatus('delete unknown webhook', outcomes, 404);
  });
});

describe(`parity: statistics of an unknown link (${dialectName})`, () => {
  const t = useTestApp({ PLANS_FILE: PARITY_PLANS });
  const builder = t.user('builder');

  it('NOT_FOUND, 404 on REST, with one message, on every statistics operation of every surface', async () => {
    const outcomes = {
      A: await rest(t, builder, 'GET', '/api/v1/links/zzzzzz/stats'),
      'A /api/stats': await rest(t, builder, 'GET', '/api/stats/zzzzzz'),
      'A aggregate': await rest(t, builder, 'GET', '/api/stats/zzzzzz/aggregate?period=7d'),
      B: await rest(t, builder, 'GET', '/api/analytics/links/zzzzzz?period=7d'),
      MCP: await mcp(t, builder, 'get_link_stats', { shortPath: 'zzzzzz' }),
      'MCP aggregate': await mcp(t, builder, 'get_aggregate_stats', { shortPath: 'zzzzzz', period: '7d' }),
      'MCP recent clicks': await mcp(t, builder, 'get_recent_clicks', { shortPath: 'zzzzzz' }),
    } as Record<string, Outcome>;
    expectSameError('stats of an unknown link', outcomes, 'NOT_FOUND');
    const statuses = Object.fromEntries(Object.entries(outcomes).filter(([k]) => !k.startsWith('MCP')).map(([k, o]) => [k, o.status]));
    expect(statuses).toEqual({ A: 404, 'A /api/stats': 404, 'A aggregate': 404, B: 404 });
  });
});
