import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkChanges, LinkInput } from '../../src/links/input.js';
import { dialectName, useTestApp } from '../helpers/app.js';
import { oneJsonLine, removeDir, runCli, tempDir } from '../helpers/processes.js';
import type { Browser } from '../sessions/session-client.js';
import {
  bodyFields,
  bulkItemFields,
  cliEnv,
  csvCell,
  dashboard,
  dashboardCsvItems,
  fromDashboard,
  importRowOutcome,
  itemOutcome,
  servedOpenApi,
  toolFields,
} from './field-helpers.js';
import { expectSameError, mcp, PARITY_PLANS, rest, type Outcome } from './helpers.js';

/**
 * Parity field by field (issue 28): every field of the link input (src/links/input.ts) is published by every surface
 * that takes it, read from the schema itself so a field added there and nowhere else shows everywhere; and a bad
 * value of a field is refused with the same code and message on every surface that can carry it: REST A and B,
 * MCP, their bulk items, the CLI's `links import` and the dashboard (its create form, its CSV import, its edit
 * dialog), on a create and, where the field can be changed, on a change.
 */

const A = '/api/v1/links';
const B = '/api/links';
const one = (base: string, shortPath: string) => `${base}/${encodeURIComponent(shortPath)}`;

/** MCP's names for the link input's fields (src/mcp/tools/links.ts: `renamed(LinkInput, { customSlug: 'slug' })`). */
const MCP_NAMES: Record<string, string> = { customSlug: 'slug' };
const inMcp = (field: string) => MCP_NAMES[field] ?? field;
const toolArgs = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).map(([field, value]) => [inMcp(field), value]));

const CREATE_FIELDS = Object.keys(LinkInput.properties);
const CHANGE_FIELDS = Object.keys(LinkChanges.properties);

describe(`parity: every link field is published on every surface (${dialectName})`, () => {
  const t = useTestApp({ PLANS_FILE: PARITY_PLANS });
  const builder = t.user('builder');
  let create: Record<string, string[]>;
  let change: Record<string, string[]>;

  beforeAll(async () => {
    const doc = await servedOpenApi(t);
    const tools = await toolFields(t, builder.apiKey);
    // Each surface's fields in the operation's names, so one list of fields is looked up in all of them.
    const fromMcp = (names: string[] = []) => names.map((name) => Object.keys(MCP_NAMES).find((field) => MCP_NAMES[field] === name) ?? name);
    create = {
      'POST /api/v1/links': bodyFields(doc, A, 'post'),
      'POST /api/links': bodyFields(doc, B, 'post'),
      'POST /api/v1/bulk item': bulkItemFields(doc, '/api/v1/bulk'),
      'POST /api/bulk item': bulkItemFields(doc, '/api/bulk'),
      'MCP shorten_url': fromMcp(tools.shorten_url),
    };
    change = {
      'PATCH /api/v1/links/{shortPath}': bodyFields(doc, `${A}/{shortPath}`, 'patch'),
      'PATCH /api/links/{shortPath}': bodyFields(doc, `${B}/{shortPath}`, 'patch'),
      'MCP update_link': fromMcp(tools.update_link),
    };
  });

  const where = (surfaces: Record<string, string[]>, field: string) => Object.fromEntries(Object.keys(surfaces).map((s) => [s, surfaces[s]!.includes(field)]));
  const everywhere = (surfaces: Record<string, string[]>) => Object.fromEntries(Object.keys(surfaces).map((s) => [s, true]));

  it('the link input has the fields this suite walks (read from src/links/input.ts)', () => {
    expect(CREATE_FIELDS).toEqual(expect.arrayContaining(['url', 'customSlug', 'maxClicks', 'expiresAt', 'activeFrom', 'blockedCountries', 'appLinks']));
    expect(CHANGE_FIELDS).toEqual(expect.arrayContaining(['url', 'maxClicks', 'expiresAt', 'activeFrom', 'blockedCountries', 'appLinks']));
  });

  it.each(CREATE_FIELDS)('create field %s: in A`s and B`s bodies, both bulk items and shorten_url (under its MCP name)', (field) => {
    expect(where(create, field), JSON.stringify(create, null, 1)).toEqual(everywhere(create));
  });

  it.each(CHANGE_FIELDS)('change field %s: in A`s and B`s PATCH bodies and update_link', (field) => {
    expect(where(change, field), JSON.stringify(change, null, 1)).toEqual(everywhere(change));
  });
});

/** The surfaces a create reaches, in order: A answers first, and its message is the one the others must give. */
const CREATE_SURFACES = ['A', 'B', 'MCP', 'A bulk', 'B bulk', 'MCP bulk', 'CLI import', 'Dash create', 'Dash import'] as const;
type CreateSurface = (typeof CREATE_SURFACES)[number];
type UpdateSurface = 'A' | 'B' | 'MCP' | 'Dash edit';

interface BadValue {
  label: string;
  /** The fields set, over a good destination (`url: undefined` leaves the destination out). */
  input: Record<string, unknown>;
  code: string;
  /** Surfaces that cannot carry the value, with why; `update` for a value that has no meaning on a change. */
  skip?: Partial<Record<CreateSurface | 'update', string>>;
}

const CSV_LISTS = 'a CSV cell of countries is always a comma-separated list: "DE" reads as ["DE"], a good value';
const CSV_NO_APP_LINKS = 'CSV cells are text and the import dialect (src/links/import-columns.ts) has no appLinks column';

const BAD_VALUES: BadValue[] = [
  { label: 'maxClicks 0', input: { maxClicks: 0 }, code: 'INVALID_MAX_CLICKS' },
  { label: 'maxClicks 1.5', input: { maxClicks: 1.5 }, code: 'INVALID_MAX_CLICKS' },
  { label: 'maxClicks "ten"', input: { maxClicks: 'ten' }, code: 'INVALID_MAX_CLICKS' },
  { label: 'expiresAt "tomorrow"', input: { expiresAt: 'tomorrow' }, code: 'INVALID_EXPIRES_AT' },
  { label: 'expiresAt in the past', input: { expiresAt: '2020-01-01T00:00:00Z' }, code: 'EXPIRES_AT_IN_PAST' },
  { label: 'activeFrom after expiresAt', input: { activeFrom: '2099-02-01T00:00:00Z', expiresAt: '2099-01-01T00:00:00Z' }, code: 'EXPIRES_BEFORE_ACTIVE' },
  { label: 'customSlug "ab"', input: { customSlug: 'ab' }, code: 'INVALID_SLUG' },
  { label: 'customSlug "bad slug!"', input: { customSlug: 'bad slug!' }, code: 'INVALID_SLUG' },
  { label: 'blockedCountries "DE"', input: { blockedCountries: 'DE' }, code: 'INVALID_BLOCKED_COUNTRIES', skip: { 'Dash import': CSV_LISTS } },
  { label: 'blockedCountries ["DEU"]', input: { blockedCountries: ['DEU'] }, code: 'INVALID_BLOCKED_COUNTRIES' },
  { label: 'url "not a url"', input: { url: 'not a url' }, code: 'INVALID_URL' },
  { label: 'url missing', input: { url: undefined }, code: 'MISSING_URL', skip: { update: 'a change leaves out what it keeps: no url is no change of it' } },
  { label: 'appLinks {}', input: { appLinks: {} }, code: 'INVALID_APP_LINKS', skip: { 'Dash import': CSV_NO_APP_LINKS } },
];

/** The create body of a row: a good destination of its own, then the row's fields (JSON drops an undefined url). */
const createBody = (row: BadValue, n: number): Record<string, unknown> => ({ url: `https://example.com/fields/${n}`, ...row.input });

/** Why a row has no change to send: a field only a create sets, or the row's own reason. */
function updateSkip(row: BadValue): string | null {
  const createOnly = Object.keys(row.input).filter((field) => !CHANGE_FIELDS.includes(field));
  if (createOnly.length > 0) return `${createOnly.join(', ')}: set only on a create (not in LinkChanges)`;
  return row.skip?.update ?? null;
}

describe(`parity: a bad field value on a create is refused alike on every surface (${dialectName})`, () => {
  const t = useTestApp({ PLANS_FILE: PARITY_PLANS });
  const builder = t.user('builder');
  let browser: Browser;
  let dir: string;
  let cliSummary: { failures: { line: number; code: string; message: string }[] };
  /** The CLI's rows: the file's line of each row it carries. */
  const cliLines = new Map<BadValue, number>();

  beforeAll(async () => {
    ({ browser } = await dashboard(t, 'builder'));
    // The CLI is one process for the whole table: a JSON lines file, one row per bad value, each failing on its own.
    dir = tempDir('snip-parity-fields-');
    const rows = BAD_VALUES.filter((row) => !row.skip?.['CLI import']);
    rows.forEach((row, i) => cliLines.set(row, i + 1));
    const file = path.join(dir, 'rows.jsonl');
    fs.writeFileSync(file, rows.map((row) => JSON.stringify(createBody(row, BAD_VALUES.indexOf(row)))).join('\n') + '\n');
    const run = await runCli(['links', 'import', '--email', builder.email, '--format', 'jsonl', file], await cliEnv(t));
    expect(run.code, `stdout: ${run.stdout}\nstderr: ${run.stderr}`).toBe(0);
    cliSummary = oneJsonLine(run.stdout) as typeof cliSummary;
  });
  afterAll(() => removeDir(dir));

  /** What each surface answered for the row (skipped surfaces left out). */
  async function outcomes(row: BadValue, n: number): Promise<Partial<Record<CreateSurface, Outcome>>> {
    const body = createBody(row, n);
    const all: Record<CreateSurface, () => Promise<Outcome>> = {
      A: () => rest(t, builder, 'POST', A, body),
      B: () => rest(t, builder, 'POST', B, body),
      MCP: () => mcp(t, builder, 'shorten_url', toolArgs(body)),
      'A bulk': async () => itemOutcome('REST', await rest(t, builder, 'POST', '/api/v1/bulk', { urls: [body] })),
      'B bulk': async () => itemOutcome('REST', await rest(t, builder, 'POST', '/api/bulk', { urls: [body] })),
      'MCP bulk': async () => itemOutcome('MCP', await mcp(t, builder, 'bulk_shorten', { links: [toolArgs(body)] })),
      'CLI import': async () => importRowOutcome(cliSummary, cliLines.get(row)!),
      'Dash create': () => fromDashboard(browser, 'POST', B, body),
      'Dash import': async () => {
        const cells = Object.entries(body).filter(([, value]) => value !== undefined).map(([field, value]) => [field, csvCell(value)] as const);
        const unwritable = cells.filter(([, cell]) => cell === null).map(([field]) => field);
        expect(unwritable, `${row.label}: no CSV cell holds ${unwritable.join(', ')}; skip 'Dash import' in the table, saying why`).toEqual([]);
        // A column the import ignores keeps a row whose other cells are empty (no url) a row, as in a spreadsheet.
        const items = dashboardCsvItems([{ note: row.label, ...Object.fromEntries(cells) } as Record<string, string>]);
        return itemOutcome('REST', await fromDashboard(browser, 'POST', '/api/bulk', { urls: items }));
      },
    };
    const answered: Partial<Record<CreateSurface, Outcome>> = {};
    for (const surface of CREATE_SURFACES) if (!row.skip?.[surface]) answered[surface] = await all[surface]();
    return answered;
  }

  BAD_VALUES.forEach((row, n) => {
    it(`${row.label}: ${row.code} with one message on every surface that can carry it`, async () => {
      expectSameError(row.label, (await outcomes(row, n)) as Record<string, Outcome>, row.code);
    });
    for (const surface of CREATE_SURFACES) {
      const reason = row.skip?.[surface];
      if (reason) it.skip(`${row.label} on ${surface}: ${reason}`, () => {});
    }
  });
});

describe(`parity: a bad field value on a change is refused alike on every surface (${dialectName})`, () => {
  const t = useTestApp({ PLANS_FILE: PARITY_PLANS });
  const builder = t.user('builder');
  let browser: Browser;
  let apiLink: string;
  let dashLink: string;

  beforeAll(async () => {
    ({ browser, shortCode: dashLink } = await dashboard(t, 'builder'));
    const made = await rest(t, builder, 'POST', A, { url: 'https://example.com/fields/change-me' });
    expect(made.ok, JSON.stringify(made)).toBe(true);
    apiLink = (made as { body: { shortCode: string } }).body.shortCode;
  });

  const current = async (code: string) => ((await rest(t, builder, 'GET', one(A, code))) as { body: unknown }).body;

  for (const row of BAD_VALUES) {
    const skip = updateSkip(row);
    if (skip) {
      it.skip(`${row.label}: no change (${skip})`, () => {});
      continue;
    }
    it(`${row.label}: ${row.code} with one message on A, B, MCP and the dashboard's edit, and the link unchanged`, async () => {
      const before = await current(apiLink);
      const answered: Record<UpdateSurface, Outcome> = {
        A: await rest(t, builder, 'PATCH', one(A, apiLink), row.input),
        B: await rest(t, builder, 'PATCH', one(B, apiLink), row.input),
        MCP: await mcp(t, builder, 'update_link', { shortPath: apiLink, ...row.input }),
        // The dashboard edits its own account's links, through B's path (web/src/links/EditLinkModal.tsx).
        'Dash edit': await fromDashboard(browser, 'PATCH', one(B, dashLink), row.input),
      };
      expectSameError(row.label, answered, row.code);
      expect(await current(apiLink)).toEqual(before);
    });
  }
});
