import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FastifyError } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { toAppError } from '../../src/http/error-handler.js';
import { dialectName, useTestApp } from '../helpers/app.js';
import { callTool, Clients, listenMcp, textJson, type ToolError } from '../helpers/mcp.js';

/**
 * A value that breaks a schema rule is refused with the field's stable code (MISSING_<FIELD>, INVALID_<FIELD>,
 * INVALID_BODY) and a sentence a person can read, naming the field: on REST and in MCP tool calls (both Ajv, against TypeBox schemas) and in
 * the PLANS_FILE (TypeBox). One row per kind of rule.
 */

type Method = 'GET' | 'POST' | 'PATCH';

describe(`validation messages on REST (${dialectName})`, () => {
  const t = useTestApp();
  const builder = t.user('builder');
  let code: string;

  beforeAll(async () => {
    const res = await t.as(builder, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/messages' } });
    code = res.json<{ shortCode: string }>().shortCode;
  });

  const link = '/api/v1/links/{code}';
  const qr = '/api/qr/{code}';
  // [rule, method, url ({code}: a link of the caller's), body, code, message]
  it.each<[string, Method, string, unknown, string, string]>([
    ['union of constants', 'GET', `${qr}?ecc=Z`, undefined, 'INVALID_ECC', 'ecc must be one of L, M, Q, H'],
    ['union of constants', 'GET', '/api/stats/{code}/aggregate?period=1h', undefined, 'INVALID_PERIOD', 'period must be one of 7d, 30d, 90d, 365d'],
    ['minimum', 'GET', `${qr}?size=5`, undefined, 'INVALID_SIZE', 'size must be at least 100'],
    ['maximum', 'GET', `${qr}?size=5000`, undefined, 'INVALID_SIZE', 'size must be at most 1000'],
    ['minimum', 'GET', '/api/v1/links?limit=0', undefined, 'INVALID_LIMIT', 'limit must be at least 1'],
    ['type integer', 'GET', `${qr}?margin=wide`, undefined, 'INVALID_MARGIN', 'margin must be an integer'],
    ['type integer', 'PATCH', link, { maxClicks: 1.5 }, 'INVALID_MAX_CLICKS', 'maxClicks must be an integer'],
    ['type boolean', 'PATCH', '/api/v1/webhooks/whk_none', { enabled: 'maybe' }, 'INVALID_ENABLED', 'enabled must be true or false'],
    ['type string', 'POST', '/api/v1/folders', { name: ['x'] }, 'INVALID_NAME', 'name must be a string'],
    ['type array', 'PATCH', link, { blockedCountries: 'DE' }, 'INVALID_BLOCKED_COUNTRIES', 'blockedCountries must be a list'],
    ['type of the body', 'POST', '/api/v1/links', [1], 'INVALID_BODY', 'The body must be an object'],
    ['format date-time', 'PATCH', link, { expiresAt: 'soon' }, 'INVALID_EXPIRES_AT', 'expiresAt must be an ISO 8601 date-time, like 2026-12-31T23:59:59Z'],
    ['pattern', 'GET', `${qr}?color=red`, undefined, 'INVALID_COLOR', 'color must be 6 hex digits without #, like 1A2B3C'],
    ['pattern', 'POST', '/api/v1/folders', { name: 'Red', color: 'red' }, 'INVALID_COLOR', 'color must be # and 6 hex digits, like #1A2B3C'],
    ['pattern', 'POST', '/api/v1/links', { url: 'https://example.com', customSlug: 'no spaces' }, 'INVALID_SLUG', 'customSlug may contain only letters, digits and hyphens'],
    ['pattern of an item', 'PATCH', link, { blockedCountries: ['DE', 'DEU'] }, 'INVALID_BLOCKED_COUNTRIES', 'blockedCountries[1] must be a two-letter country code, like DE'],
    ['pattern of a path parameter', 'GET', '/api/stats/abc', undefined, 'INVALID_SHORT_CODE', 'shortCode must be 6 letters or digits'],
    ['minLength', 'POST', '/api/v1/links', { url: 'https://example.com', customSlug: 'ab' }, 'INVALID_SLUG', 'customSlug must be at least 3 characters'],
    ['maxLength', 'POST', '/api/v1/links', { url: 'https://example.com', customSlug: 'a'.repeat(51) }, 'INVALID_SLUG', 'customSlug must be at most 50 characters'],
    ['maxItems', 'PATCH', link, { blockedCountries: Array(251).fill('DE') }, 'INVALID_BLOCKED_COUNTRIES', 'blockedCountries must list at most 250 items'],
    ['minProperties', 'PATCH', link, {}, 'INVALID_BODY', 'Give at least one field to change'],
    ['minProperties', 'PATCH', '/api/user/qr-settings', {}, 'INVALID_BODY', 'Give at least one field to change'],
    ['required url', 'POST', '/api/v1/links', {}, 'MISSING_URL', 'URL is required'],
    ['required', 'POST', '/api/v1/folders', {}, 'MISSING_NAME', 'name is required'],
    ['required', 'POST', '/api/v1/webhooks', { url: 'https://example.com/hook' }, 'MISSING_EVENTS', 'events is required'],
  ])('%s: %s %s %j is 400 %s', async (_rule, method, url, body, errorCode, message) => {
    const res = await t.as(builder, { method, url: url.replace('{code}', code), ...(body === undefined ? {} : { payload: body as object }) });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ error: true, code: errorCode, message });
  });
});

describe('validation messages for Ajv keywords no route uses yet', () => {
  const refused = (issue: Record<string, unknown>, context = 'body') =>
    toAppError(Object.assign(new Error('invalid'), { validation: [{ schemaPath: '#/x', ...issue }], validationContext: context }) as FastifyError);

  it.each<[string, Record<string, unknown>, string, string]>([
    ['enum', { keyword: 'enum', instancePath: '/format', params: { allowedValues: ['csv', 'json'] } }, 'INVALID_FORMAT', 'format must be one of csv, json'],
    ['exclusiveMinimum', { keyword: 'exclusiveMinimum', instancePath: '/ratio', params: { limit: 0 } }, 'INVALID_RATIO', 'ratio must be greater than 0'],
    ['format uri', { keyword: 'format', instancePath: '/url', params: { format: 'uri' } }, 'INVALID_URL', 'url must be a URL'],
    ['a format without words', { keyword: 'format', instancePath: '/id', params: { format: 'uuid' } }, 'INVALID_ID', 'id must be a valid uuid'],
    ['a pattern without words', { keyword: 'pattern', instancePath: '/ref', params: { pattern: '^x+$' } }, 'INVALID_REF', 'ref has an invalid format'],
    ['additionalProperties', { keyword: 'additionalProperties', instancePath: '', params: { additionalProperty: 'colour' } }, 'INVALID_BODY', 'Unknown field "colour"'],
    ['additionalProperties, nested', { keyword: 'additionalProperties', instancePath: '/page', params: { additionalProperty: 'x' } }, 'INVALID_PAGE', 'page has an unknown field "x"'],
    ['required, nested', { keyword: 'required', instancePath: '/page', params: { missingProperty: 'type' } }, 'INVALID_PAGE', 'page.type is required'],
    ['any other keyword', { keyword: 'uniqueItems', instancePath: '/tags', params: {} }, 'INVALID_TAGS', 'tags is invalid'],
  ])('%s', (_rule, issue, code, message) => {
    expect(refused(issue)).toMatchObject({ status: 400, code, message });
  });
});

describe(`validation messages of MCP tool arguments (${dialectName})`, () => {
  const t = useTestApp();
  const builder = t.user('builder');
  let url: URL;
  const clients = new Clients(() => url);
  let client: Client;
  let code: string;

  beforeAll(async () => {
    url = await listenMcp(t);
    client = await clients.for(builder);
    const res = await t.as(builder, { method: 'POST', url: '/api/v1/links', payload: { url: 'https://example.com/mcp-messages' } });
    code = res.json<{ shortCode: string }>().shortCode;
  });
  afterAll(() => clients.closeAll());

  // [rule, tool, arguments ({code}: a link of the caller's), code, message]: REST's code for the field, in REST's words.
  it.each<[string, string, Record<string, unknown>, string, string]>([
    ['enum', 'get_qr_code', { shortPath: '{code}', ecc: 'X' }, 'INVALID_ECC', 'ecc must be one of L, M, Q, H'],
    ['enum', 'get_link_stats', { shortPath: '{code}', period: '90d' }, 'INVALID_PERIOD', 'period must be one of 24h, 7d, 30d'],
    ['minimum', 'get_qr_code', { shortPath: '{code}', size: 50 }, 'INVALID_SIZE', 'size must be at least 100'],
    ['maximum', 'update_qr_settings', { margin: 11 }, 'INVALID_MARGIN', 'margin must be at most 10'],
    ['minimum', 'list_links', { limit: 0 }, 'INVALID_LIMIT', 'limit must be at least 1'],
    ['integer', 'shorten_url', { url: 'https://example.com', maxClicks: 1.5 }, 'INVALID_MAX_CLICKS', 'maxClicks must be an integer'],
    // REST's schema says integer, and so does the tool's (the same TypeBox schema): one sentence for both.
    ['type integer', 'update_qr_settings', { size: 'big' }, 'INVALID_SIZE', 'size must be an integer'],
    ['type string', 'shorten_url', { url: 5 }, 'INVALID_URL', 'url must be a string'],
    ['type boolean', 'update_webhook', { webhookId: 'whk_none', enabled: 'yes' }, 'INVALID_ENABLED', 'enabled must be true or false'],
    ['type array', 'shorten_url', { url: 'https://example.com', blockedCountries: 'DE' }, 'INVALID_BLOCKED_COUNTRIES', 'blockedCountries must be a list'],
    ['minLength', 'get_link', { shortPath: '' }, 'INVALID_SHORT_PATH', 'shortPath must not be empty'],
    ['minItems', 'bulk_shorten', { links: [] }, 'INVALID_LINKS', 'links must list at least 1 item'],
    ['required url', 'shorten_url', {}, 'MISSING_URL', 'URL is required'],
    ['required', 'get_qr_code', {}, 'MISSING_SHORT_PATH', 'shortPath is required'],
    // An item's own fields are checked per item (a bad one fails alone); that it is an object, with the call.
    ['type object, nested', 'bulk_shorten', { links: ['https://example.com'] }, 'INVALID_LINKS', 'links[0] must be an object'],
    ['enum, nested', 'update_domain', { domain: 'x.example.com', notFoundPage: { type: 'bogus' } }, 'INVALID_NOT_FOUND_PAGE', 'notFoundPage.type must be one of redirect, html'],
  ])('%s: %s %j is %s', async (_rule, name, args, errorCode, message) => {
    const withLink = JSON.parse(JSON.stringify(args).replace('{code}', code)) as Record<string, unknown>;
    const result = await callTool(client, name, withLink);
    expect(result.isError, JSON.stringify(result.content)).toBe(true);
    expect(textJson<ToolError>(result)).toEqual({ error: true, code: errorCode, message });
  });

  it('the REST code for the same field: ecc is INVALID_ECC on both, with the same sentence', async () => {
    const rest = await t.as(builder, { method: 'GET', url: `/api/qr/${code}?ecc=X` });
    const tool = textJson<ToolError>(await callTool(client, 'get_qr_code', { shortPath: code, ecc: 'X' }));
    expect(tool).toEqual(rest.json());
  });

  it('tools/list still shows each tool`s own schema, bounds and required fields included', async () => {
    const { tools } = await client.listTools();
    const qr = tools.find((tool) => tool.name === 'get_qr_code')!;
    expect(qr.inputSchema.required).toEqual(['shortPath']);
    expect(qr.inputSchema.properties).toMatchObject({
      size: { type: 'integer', minimum: 100, maximum: 1000 },
      ecc: { type: 'string', enum: ['L', 'M', 'Q', 'H'] },
    });
  });
});

describe('validation messages of the PLANS_FILE', () => {
  const fixture = (name: string) => path.join(import.meta.dirname, '..', 'fixtures', name);
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snip-plans-messages-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The ConfigError's message loading `file`, asserting it is one. */
  function problem(file: string): string {
    let thrown: unknown;
    try {
      loadConfig({ PLANS_FILE: file });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    return (thrown as ConfigError).message;
  }

  it.each([
    ['bad-plans-negative.json', 'pro.requestsPerHour must be a whole number of 0 or more, or null for unlimited'],
    ['plans-bad-negative.json', 'pro.requestsPerHour must be a whole number of 0 or more, or null for unlimited'],
    ['plans-bad-type.json', 'pro.requestsPerHour must be a whole number of 0 or more, or null for unlimited'],
    ['bad-plans-unknown-tier.json', 'unknown plan "gold"; the plans are free, pro, builder, enterprise'],
    ['plans-bad-tier.json', 'unknown plan "platinum"; the plans are free, pro, builder, enterprise'],
    [
      'plans-bad-limit-name.json',
      'unknown setting pro.requestsPerFortnight; the settings are apiAccess, customSlugs, appLinks, requestsPerHour, requestsPerMonth, requestsPerMinute, ' +
        'linksPerDay, bulkRequestsPerHour, trackedClicksPerMonth, historyDays, webhooks, folders, domains, overageCentsPer1000, overageCapCents',
    ],
  ])('%s: %s', (name, expected) => {
    const file = fixture(name);
    expect(problem(file)).toBe(`Invalid setting PLANS_FILE: ${file}: ${expected}`);
  });

  it.each([
    ['{"builder": {"apiAccess": "yes"}}', 'builder.apiAccess must be true or false'],
    ['{"free": {"historyDays": 0}}', 'free.historyDays must be a whole number of 1 or more'],
    ['{"pro": {"overageCapCents": 2.5}}', 'pro.overageCapCents must be a whole number of 0 or more, or null for no overage cap'],
    ['{"pro": {"overageCentsPer1000": -1}}', 'pro.overageCentsPer1000 must be a whole number of 0 or more, or null for no paid overage'],
    ['{"pro": 100}', 'pro must be an object of settings, like {"requestsPerHour": 100}'],
    ['[]', 'the file must be a JSON object of plans, like {"pro": {"requestsPerHour": 100}}'],
  ])('%s: %s', (json, expected) => {
    const file = path.join(dir, 'plans.json');
    fs.writeFileSync(file, json);
    expect(problem(file)).toBe(`Invalid setting PLANS_FILE: ${file}: ${expected}`);
  });
});
