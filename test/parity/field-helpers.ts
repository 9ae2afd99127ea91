import { sql } from 'kysely';
import Papa from 'papaparse';
import { stringify } from 'csv-stringify/sync';
import { expect } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { hasDestinationColumn, importColumnOf, importItem } from '../../src/links/import-columns.js';
import { testDatabaseUrl, type BlockApp } from '../helpers/app.js';
import { rpc } from '../helpers/mcp.js';
import { Browser, uniqueEmail } from '../sessions/session-client.js';
import { inOperationNames, PARITY_PLANS, restOutcome, type Outcome } from './helpers.js';

/**
 * What test/parity/link-fields.test.ts needs beyond helpers.ts: the fields each surface publishes (the served OpenAPI
 * document, MCP's tools/list), a bulk item's or import row's result as an `Outcome`, and the dashboard as a browser
 * (session cookie and CSRF token) with its CSV dialect.
 */

type JsonSchema = { $ref?: string; properties?: Record<string, unknown>; allOf?: JsonSchema[]; items?: JsonSchema };
type OpenApiDocument = { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>; components?: { schemas?: Record<string, JsonSchema> } };

/** The OpenAPI document as the app serves it (GET /openapi.yaml; /docs reads the same). */
export async function servedOpenApi(t: BlockApp): Promise<OpenApiDocument> {
  const res = await t.app.inject({ method: 'GET', url: '/openapi.yaml' });
  expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
  return parseYaml(res.body) as OpenApiDocument;
}

/** A schema with its `$ref` (to components) followed and an `allOf` merged, so its properties can be read. */
function resolved(doc: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema {
  if (!schema) return {};
  if (schema.$ref) return resolved(doc, doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')]);
  if (schema.allOf) return { properties: Object.assign({}, ...schema.allOf.map((s) => resolved(doc, s).properties)) };
  return schema;
}

const requestBodyOf = (doc: OpenApiDocument, path: string, method: string): JsonSchema =>
  resolved(doc, doc.paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema);

/** The fields of an operation's JSON body as the document publishes them. */
export const bodyFields = (doc: OpenApiDocument, path: string, method: 'post' | 'patch'): string[] => Object.keys(requestBodyOf(doc, path, method).properties ?? {});

/** The fields of one item of a bulk body (`urls[]`) as the document publishes them. */
export function bulkItemFields(doc: OpenApiDocument, path: string): string[] {
  const urls = resolved(doc, requestBodyOf(doc, path, 'post').properties?.urls as JsonSchema | undefined);
  return Object.keys(resolved(doc, urls.items).properties ?? {});
}

/** Every tool's argument names as tools/list publishes them. */
export async function toolFields(t: BlockApp, apiKey: string): Promise<Record<string, string[]>> {
  const res = await rpc(t, apiKey, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
  expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
  const tools = res.json<{ result: { tools: { name: string; inputSchema: { properties?: Record<string, unknown> } }[] } }>().result.tools;
  return Object.fromEntries(tools.map((tool) => [tool.name, Object.keys(tool.inputSchema.properties ?? {})]));
}

/** One item of a bulk answer (REST's `results[]`, MCP's `results[]`) as an outcome; `surface` names MCP's fields back. */
export function itemOutcome(surface: 'REST' | 'MCP', whole: Outcome, index = 0): Outcome {
  if (!whole.ok) return whole; // the whole request was refused: that is the item's answer too
  const item = (whole.body as { results?: { success: boolean; code?: string; error?: string }[] }).results?.[index];
  if (!item) return { ok: false, status: whole.status, code: 'NO_ITEM_RESULT', message: JSON.stringify(whole.body), via: 'http' };
  if (item.success) return { ok: true, status: whole.status, body: item };
  // Already in the operation's names: helpers.ts renames only under the surface key `MCP`, and this is an item of it.
  const message = surface === 'MCP' ? inOperationNames('MCP', String(item.error)) : String(item.error);
  return { ok: false, status: whole.status, code: String(item.code), message, via: surface === 'MCP' ? 'tool' : 'http' };
}

/** What `links import` printed for one row (its JSON summary lists failed rows by line), as an outcome. */
export function importRowOutcome(summary: { failures: { line: number; code: string; message: string }[] }, line: number): Outcome {
  const failure = summary.failures.find((f) => f.line === line);
  return failure ? { ok: false, status: 0, code: failure.code, message: failure.message, via: 'http' } : { ok: true, status: 0, body: null };
}

/** The CLI's settings for the block app's own database (on PostgreSQL, its schema), as test/parity/links.test.ts runs it. */
export async function cliEnv(t: BlockApp): Promise<Record<string, string>> {
  const env: Record<string, string> = { DATA_DIR: t.config.dataDir, BASE_URL: 'http://snip.test', PLANS_FILE: PARITY_PLANS, LOG_LEVEL: 'silent' };
  if (testDatabaseUrl) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(t.core.database.db);
    env.DATABASE_URL = `${testDatabaseUrl}${testDatabaseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${rows[0]!.schema}`)}`;
  }
  return env;
}

/**
 * The dashboard as a browser: a signed-up account moved to `tier`, sending its session cookie and CSRF token, and a
 * link it made through the dashboard's route (B's create), which proves the session is what the API sees.
 */
export async function dashboard(t: BlockApp, tier: string): Promise<{ browser: Browser; shortCode: string }> {
  const browser = new Browser(t.app);
  const email = uniqueEmail('fields');
  await browser.signUp(email);
  await t.core.accounts.setTier(email, tier);
  const made = await browser.send({ method: 'POST', url: '/api/links', payload: { url: 'https://example.com/fields/dashboard' } });
  expect(made.statusCode, made.body).toBe(201);
  expect(made.json()).toMatchObject({ source: 'dashboard' });
  return { browser, shortCode: made.json<{ shortCode: string }>().shortCode };
}

/** A request of the dashboard's, as an outcome. */
export async function fromDashboard(browser: Browser, method: 'POST' | 'PATCH', url: string, payload: object): Promise<Outcome> {
  return restOutcome(await browser.send({ method, url, payload }));
}

/**
 * A value as a CSV cell, or null where CSV cannot hold it: CSV has no types, so a number or a list is written as
 * the text a spreadsheet would hold (a list comma-separated, as Snip's exports write blocked countries).
 */
export function csvCell(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(',');
  return null;
}

/**
 * The bulk items the dashboard's import page makes of a CSV text: parsed as web/src/links/csv-import.ts parses it
 * (Papa Parse, header row matched by importColumnOf) and read by the one import dialect, importItem. That module
 * cannot be imported here (it is bundled for the browser, with extensionless imports), so its one parsing line is
 * repeated.
 */
export function dashboardCsvItems(records: Record<string, string>[]): Record<string, unknown>[] {
  const header = [...new Set(records.flatMap((r) => Object.keys(r)))];
  if (!header.includes('url')) header.unshift('url');
  const text = stringify(records, { header: true, columns: header });
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: 'greedy', transformHeader: (h) => importColumnOf(h) ?? `ignored:${h}` });
  expect(hasDestinationColumn(parsed.meta.fields ?? []), text).toBe(true);
  return parsed.data.map((record) => importItem(record, true));
}
